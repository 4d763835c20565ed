import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stopOnFailure } from './child.js';
import { installDebianPackage } from './debian-package.js';

// A private PostgreSQL from Debian's packages for `npm run cluster` and its tests: its own data
// folder and port, never the system's instance. initdb and the server refuse to run as root, so
// they run as the `postgres` user, on a data folder that user can reach (not under a 0700 home).

/** The major version compose's postgres image uses; Debian 12's package. */
export const POSTGRES_MAJOR = 15;

function binDir(): string | undefined {
  const dir = `/usr/lib/postgresql/${POSTGRES_MAJOR}/bin`;
  return existsSync(join(dir, 'initdb')) ? dir : undefined;
}

/** Installs Debian's postgresql package where it is missing (CI runs as root on Debian). */
export function ensurePostgres(log: (line: string) => void): string {
  const found = binDir();
  if (found) return found;
  installDebianPackage('postgresql', `PostgreSQL ${POSTGRES_MAJOR}`, log);
  const installed = binDir();
  if (!installed)
    throw new Error(
      `the postgresql package did not bring PostgreSQL ${POSTGRES_MAJOR}; installed: ${readdirSync('/usr/lib/postgresql').join(', ')}`,
    );
  return installed;
}

export interface RunningPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same data folder and port (a test's fault). */
  restart(): Promise<void>;
}

const asPostgres = (args: string[]) =>
  (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)]) as [
    string,
    string[],
  ];

/**
 * A fresh cluster in `dataDir` (made reachable by the postgres user) on 127.0.0.1:`port`, with a
 * `user` who owns the Temporal databases; resolves once it accepts connections. Aborted by
 * `signal` (or failing) once the server is spawned, it stops the server before it rejects.
 */
export async function startPostgres(opts: {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<RunningPostgres> {
  const bin = ensurePostgres(opts.log);
  opts.signal?.throwIfAborted();
  rmSync(opts.dataDir, { recursive: true, force: true });
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) {
    execFileSync('chown', ['postgres:postgres', opts.dataDir]);
    // The postgres user passes through the parent folder (a temporary folder is 0700).
    chmodSync(dirname(opts.dataDir), 0o711);
  }
  chmodSync(opts.dataDir, 0o700);
  asPostgresSync([
    join(bin, 'initdb'),
    '-D',
    opts.dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-instructions',
  ]);
  opts.signal?.throwIfAborted();
  let server = await runServer(bin, opts);
  await stopOnFailure(server.stop, async () => {
    // The role Temporal connects as (compose's POSTGRES_USER), allowed to create its databases.
    psql(bin, opts.port, `create role ${opts.user} login createdb password '${opts.password.replace(/'/g, "''")}'`);
    opts.signal?.throwIfAborted();
  });
  return {
    host: '127.0.0.1',
    port: opts.port,
    user: opts.user,
    password: opts.password,
    dataDir: opts.dataDir,
    stop: () => server.stop(),
    async restart() {
      await server.stop();
      // Not the start-up's signal: a restart is asked for after the start-up.
      server = await runServer(bin, { ...opts, signal: undefined });
    },
  };
}

/** Runs `args` as the postgres user, to its end; a failure says which command and its output. */
function asPostgresSync(args: string[]): void {
  const [cmd, rest] = asPostgres(args);
  try {
    execFileSync(cmd, rest, { stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string };
    throw new Error(`${args.join(' ')} failed: ${(e.stderr || e.stdout || String(err)).trim()}`);
  }
}

/** Runs one SQL statement as the superuser on 127.0.0.1:`port`; answers its output. */
function psql(bin: string, port: number, sql: string): string {
  return execFileSync(
    join(bin, 'psql'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-v',
      'ON_ERROR_STOP=1',
      '-qAt',
      '-c',
      sql,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * The server on `dataDir` at 127.0.0.1:`port`, resolved once it accepts connections; aborted by
 * `signal` (or failing) once spawned, it is stopped before the promise rejects.
 */
async function runServer(
  bin: string,
  opts: { dataDir: string; port: number; log: (line: string) => void; signal?: AbortSignal },
): Promise<{ stop(): Promise<void> }> {
  const [cmd, rest] = asPostgres([
    join(bin, 'postgres'),
    '-D',
    opts.dataDir,
    '-h',
    '127.0.0.1',
    '-p',
    String(opts.port),
    '-k',
    opts.dataDir,
    '-c',
    'max_connections=300',
    '-c',
    'fsync=off',
  ]);
  const child: ChildProcess = spawn(cmd, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!running()) return;
    const exited = new Promise((r) => child.once('exit', r));
    // A fast shutdown by pg_ctl, as the postgres user: runuser does not pass signals on. A server
    // still starting may not have written postmaster.pid yet, which pg_ctl needs: wait for it.
    for (let attempt = 0; running(); attempt++) {
      try {
        asPostgresSync([join(bin, 'pg_ctl'), 'stop', '-D', opts.dataDir, '-m', 'fast', '-w']);
        break;
      } catch (err) {
        if (attempt >= 50) {
          opts.log(`PostgreSQL did not stop by pg_ctl (${(err as Error).message}); killing it`);
          const pid = postmasterPid(opts.dataDir);
          if (pid) process.kill(pid, 'SIGKILL');
          child.kill('SIGKILL');
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await exited;
  };
  await stopOnFailure(stop, async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      opts.signal?.throwIfAborted();
      if (child.exitCode !== null) throw new Error(`PostgreSQL exited with ${child.exitCode}:\n${stderr}`);
      try {
        psql(bin, opts.port, 'select 1');
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 60 s:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
  return { stop };
}

/** The postmaster's pid from its lock file, if it has written one. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
