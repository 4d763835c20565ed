import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { TEMPORAL_PROCESSES } from '../helpers/cluster.js';
import { listenAddresses } from '../helpers/listening.js';

// `npm run cluster` itself, as an operator runs it: scripts/cluster.ts as a process of its own.
// Once started in full, Temporal's eight processes and the load balancer in front of its frontends
// are printed with their pids and ports, every printed address answers, the Web UI listens on loopback only, the
// demo runs every process to its end from the one line printed for a backend (client.env, keys
// readable by their owner only), and SIGINT stops everything and removes its folder; SIGTERM during the start-up (PostgreSQL just
// up, the server's setup running) leaves nothing behind either.

interface ClusterRun {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `re` in the output; rejects if the process exits first. */
  waitFor(re: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: ClusterRun[] = [];
const dirs: string[] = [];

function startClusterScript(): ClusterRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const run: ClusterRun = {
    child,
    output: () => out,
    exited,
    async waitFor(re, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(out);
        if (m) return m;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(
            `scripts/cluster.ts exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${out.slice(-3000)}`,
          );
        if (Date.now() > deadline)
          throw new Error(`no ${re} from scripts/cluster.ts within ${timeoutMs / 1000} s:\n${out.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
  runs.push(run);
  return run;
}

async function exitsWithin(
  run: ClusterRun,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, fail) =>
      (timer = setTimeout(
        () =>
          fail(
            new Error(
              `scripts/cluster.ts still running ${ms / 1000} s after the signal:\n${run.output().slice(-3000)}`,
            ),
          ),
        ms,
      )),
  );
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves true if something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((r) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(3_000);
    socket.once('connect', () => (socket.destroy(), r(true)));
    socket.once('timeout', () => (socket.destroy(), r(true)));
    socket.once('error', () => r(false));
  });
}

/** Processes whose command line names `dir` or whose working folder lies in it: the cluster's own. */
function processesIn(dir: string): Array<{ pid: number; cmd: string }> {
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // another user's process, or gone
      }
      if (cmd.includes(dir) || cwd === dir || cwd.startsWith(`${dir}/`)) found.push({ pid, cmd });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

async function status(url: string): Promise<number> {
  const res = await request(url);
  await res.body.dump();
  return res.statusCode;
}

/** Runs a printed shell line as a new user would, in a shell with nothing of this test's environment. */
function shell(line: string, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

const portOf = (address: string) => Number(new URL(address.includes('://') ? address : `tcp://${address}`).port);

describe('npm run cluster (scripts/cluster.ts)', () => {
  after(async () => {
    // Whatever a failed case left: the script first, then anything still running in its folder.
    for (const run of runs) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    for (const dir of dirs) {
      for (const p of processesIn(dir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'starts in full, answers at every printed address, and stops it all on SIGINT',
    { timeout: 16 * 60_000 },
    async () => {
      const run = startClusterScript();
      const dir = (await run.waitFor(/state and logs in (\S+)/, 60_000))[1]!;
      dirs.push(dir);
      const [, pgPort, dataDir] = await run.waitFor(/PostgreSQL 127\.0\.0\.1:(\d+) \(data in (\S+)\)/, 5 * 60_000);
      await run.waitFor(/\[cluster\] ready$/m, 6 * 60_000);
      const out = run.output();
      const line = (label: string) =>
        new RegExp(`\\[cluster\\] ${label}\\s+(.+)$`, 'm').exec(out)?.[1] ?? assert.fail(`no "${label}" line:\n${out}`);
      const temporal = line('Temporal gRPC').split(' ')[0]!;
      const ui = line('Temporal Web UI').split(' ')[0]!;
      const prometheus = line('Prometheus').split(' ')[0]!;
      const ingresses = line('ingress replicas').split(' (')[0]!.split(', ');
      const ingressOps = line('ingress operations').split(' (')[0]!.split(', ');
      const workerHealth = line('worker metrics').split('; health ')[1]!.split(', ');
      const sandbox = line('sandbox provider').trim();
      assert.equal(ingresses.length, 2);

      for (const ops of ingressOps) assert.equal(await status(`${ops}/health`), 200, `${ops}/health`);
      for (const health of workerHealth) assert.equal(await status(health), 200, health);
      assert.equal(await status(`${prometheus}/-/ready`), 200, 'Prometheus /-/ready');
      assert.equal(await status(`${ui}/`), 200, 'the Web UI');
      assert.ok(await listening(portOf(temporal)), `Temporal's frontend ${temporal}`);
      // Temporal's services, each a process of its own with its ports and pid, behind the load
      // balancer whose address is the one printed for clients.
      const services = [
        ...out.matchAll(/^\[cluster\] Temporal (\S+)\s+([\w-]+)\s+pid (\d+), gRPC (\d+), membership (\d+)/gm),
      ].map(([, name, service, pid, grpc, membership]) => ({
        name: name!,
        service: service!,
        pid: Number(pid),
        grpc: Number(grpc),
        membership: Number(membership),
      }));
      assert.deepEqual(services.map((s) => s.name).sort(), TEMPORAL_PROCESSES, out);
      for (const s of services) {
        assert.equal(s.name.replace(/-\d+$/, ''), s.service, `${s.name} runs its service`);
        assert.match(readFileSync(`/proc/${s.pid}/cmdline`, 'utf8'), new RegExp(`--service=${s.service}`), s.name);
        // The worker service serves no gRPC; every other listens on its printed port.
        assert.ok(await listening(s.service === 'worker' ? s.membership : s.grpc), `${s.name} listens`);
      }
      const [, lbAddress, lbPid] =
        /^\[cluster\] load balancer\s+(\S+) \(HAProxy, pid (\d+)/m.exec(out) ??
        assert.fail(`no load balancer line:\n${out}`);
      assert.equal(lbAddress, temporal, 'clients are given the load balancer, not a frontend');
      assert.match(readFileSync(`/proc/${lbPid}/cmdline`, 'utf8'), /haproxy/);
      const uiListens = listenAddresses(portOf(ui));

      // What a backend needs, in files only their owner reads; the demo runs from the printed line.
      const demoLine = line('run the demo');
      assert.match(demoLine, /^set -a; \. (\S+\/client\.env); npm run demo$/);
      for (const file of ['client.env', 'payload.key', 'claim.key'])
        assert.equal(statSync(join(dir, file)).mode & 0o777, 0o600, `${file} is readable by its owner only`);
      const demo = await shell(demoLine, 6 * 60_000);
      assert.equal(demo.code, 0, `the demo from the printed line:\n${demo.out.slice(-4000)}`);
      for (const finished of [
        /\[demo\] interest payout recognised/,
        /\[demo\] KYC APPROVED/,
        /\[demo\] the method is (APPROVED|ACTIVE)/,
        /\[demo\] onboarding APPROVED/,
        /\[demo\] checkout COMPLETED/,
        /\[demo\] token registered/,
        /\[demo\] done/,
      ])
        assert.match(demo.out, finished);
      assert.doesNotMatch(demo.out, /ClaimIntegrityError|ECONNREFUSED|refused the submission/);

      run.child.kill('SIGINT');
      const { code, signal } = await exitsWithin(run, 120_000);
      assert.equal(signal, null, run.output().slice(-2000));
      assert.equal(code, 0, run.output().slice(-2000));
      assert.match(run.output(), /\[cluster\] stopped/);
      const ports = [
        Number(pgPort),
        portOf(temporal),
        ...services.flatMap((s) => [s.grpc, s.membership]),
        portOf(ui),
        portOf(prometheus),
        portOf(sandbox),
        ...ingresses.map(portOf),
        ...ingressOps.map(portOf),
      ];
      for (const port of ports) assert.equal(await listening(port), false, `port ${port} still answers after the stop`);
      assert.deepEqual(processesIn(dir), [], `processes of ${dir} still running`);
      assert.ok(!existsSync(dataDir!), `PostgreSQL's data ${dataDir} removed`);
      assert.ok(!existsSync(dir), `the cluster's folder ${dir} removed`);
      // The Web UI on loopback only, as compose publishes it (seen while it ran).
      assert.ok(uiListens.length > 0, `a listener on the UI's port ${portOf(ui)}`);
      assert.deepEqual(
        uiListens.filter((a) => a !== '127.0.0.1' && a !== '::1'),
        [],
        `the Web UI listens on ${uiListens.join(', ')}`,
      );
    },
  );

  it('stops what has started when SIGTERM comes during the start-up', { timeout: 5 * 60_000 }, async () => {
    const run = startClusterScript();
    const dir = (await run.waitFor(/state and logs in (\S+)/, 60_000))[1]!;
    dirs.push(dir);
    const [, pgPort, dataDir] = await run.waitFor(/PostgreSQL 127\.0\.0\.1:(\d+) \(data in (\S+)\)/, 5 * 60_000);
    assert.ok(await listening(Number(pgPort)), 'PostgreSQL is up when the signal comes');
    run.child.kill('SIGTERM');
    const { code, signal } = await exitsWithin(run, 60_000);
    assert.equal(signal, null, `scripts/cluster.ts handles SIGTERM:\n${run.output().slice(-2000)}`);
    assert.equal(code, 0, run.output().slice(-2000));
    assert.doesNotMatch(run.output(), /\[cluster\] ready/);
    assert.equal(await listening(Number(pgPort)), false, `PostgreSQL's port ${pgPort} still answers`);
    assert.deepEqual(processesIn(dataDir!), [], `a postgres on ${dataDir}`);
    assert.deepEqual(processesIn(dir), [], `processes of ${dir} still running`);
    assert.ok(!existsSync(dir), `the cluster's folder ${dir} removed`);
  });
});
