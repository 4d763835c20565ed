import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopOnSignal } from './scale/abort.js';
import { scalePlot } from './scale/plot.js';
import { scaleReport } from './scale/report.js';
import { measureSize, type SizeResult } from './scale/size.js';
import { type ScaleStack, startScaleStack } from './scale/stack.js';
import { byRun, topologiesSetting, topologyOf, TOPOLOGY_NAME } from './scale/topology.js';

// `npm run bench -- --scale [1000,10000,100000]` (not in CI): the cost of many wallets on
// Temporal on PostgreSQL (bench/scale/size.ts says what is measured and how), each size on each
// of the server's topologies (bench/scale/topology.ts), each on a fresh stack of its own. Each
// size's figures go to bench/results/scale.json as soon as measured (a size measured again on a
// topology replaces its row), a run under the defaults' steady background (`SCALE_STEADY=1`) to
// scale-steady.json, and bench/results/scale.md and scale.svg are written from all of them.

const RESULTS = new URL('./results/', import.meta.url);
/** A positive number from the environment, checked before anything starts: a typo must not cost hours. */
export function positiveSetting(name: string, fallback: number, env = process.env): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!(Number.isFinite(value) && value > 0))
    throw new Error(
      `${name} must be a positive number (seconds or a count, as documented in bench/scale/method.md), got "${raw}"`,
    );
  return value;
}

export async function runScale(sizes: number[] | 'report'): Promise<void> {
  if (sizes === 'report') return redraw();
  const settings = {
    idleRate: positiveSetting('SCALE_IDLE_RATE', 10),
    idleWindowMs: process.env.SCALE_IDLE_WINDOW ? positiveSetting('SCALE_IDLE_WINDOW', 0) * 1000 : undefined,
    inFlight: positiveSetting('SCALE_IN_FLIGHT', 32),
    callbackRate: positiveSetting('SCALE_CALLBACK_RATE', 5),
    callbackSeconds: positiveSetting('SCALE_CALLBACK_SECONDS', 60),
    steady: steadySetting(),
  };
  const topologies = topologiesSetting();
  const say = (l: string) => console.log(`[scale] ${new Date().toISOString().slice(11, 19)} ${l}`);
  say(`sizes ${sizes.join(', ')}, each on ${topologies.map((t) => TOPOLOGY_NAME[t]).join(' and ')}`);
  // The stack running now and its folder (PostgreSQL's data among it): what a signal must stop and remove.
  let current: { stack?: ScaleStack; dir: string } | undefined;
  const stopCurrent = async () => {
    await current?.stack?.stop();
    if (current) rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  };
  stopOnSignal(stopCurrent, say);
  try {
    for (const n of sizes)
      for (const topology of topologies) {
        // A fresh stack for each: an empty database, a Temporal server and a worker with nothing
        // of the size before it, whichever topology ran first. Its own folder in the system's
        // temporary directory, which PostgreSQL's user can reach.
        const dir = mkdtempSync(join(tmpdir(), `payflows-scale-${n}-${topology}-`));
        current = { dir };
        say(`${n} wallets on the ${TOPOLOGY_NAME[topology]} (state and logs in ${dir})`);
        current.stack = await startScaleStack({
          dir,
          log: say,
          topology,
          workerMemory: process.env.SCALE_WORKER_MEMORY ?? '2Gi',
        });
        const result = await measureSize(current.stack, n, { say, ...settings, logDir: join(dir, 'logs') });
        say(`written: bench/results/${save(result)}, scale.md, scale.svg (${n} wallets, ${TOPOLOGY_NAME[topology]})`);
        await stopCurrent();
        say('stack stopped, its folder removed');
      }
  } finally {
    if (current) {
      await stopCurrent();
      say('stack stopped, its folder removed');
    }
  }
}

/** `SCALE_STEADY=1`: the callbacks under the defaults' steady idle background (bench/scale/size.ts). */
export function steadySetting(env = process.env): boolean {
  const raw = env.SCALE_STEADY ?? '';
  if (raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`SCALE_STEADY must be 1 (or 0, or unset), got "${raw}"`);
}

// The steady runs are kept apart: their opening is paced, not a throughput, and their idle
// background is not the sizes' line.
const FILE = { sizes: 'scale.json', steady: 'scale-steady.json' } as const;

/** Adds the result to its file (in place of the same size on the same topology), redraws the report, and names the file. */
function save(result: SizeResult): string {
  const kind = result.steady ? 'steady' : 'sizes';
  const same = (r: SizeResult) => r.wallets === result.wallets && topologyOf(r) === topologyOf(result);
  const merged = [...saved(kind).filter((r) => !same(r)), result].sort(byRun);
  writeFileSync(new URL(FILE[kind], RESULTS), `${JSON.stringify(merged, null, 2)}\n`);
  redraw();
  return FILE[kind];
}

function saved(kind: keyof typeof FILE): SizeResult[] {
  const file = new URL(FILE[kind], RESULTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SizeResult[]) : [];
}

/** bench/results/scale.md and scale.svg from the sizes measured (`npm run bench -- --scale report` redraws them alone). */
export function redraw(): void {
  writeFileSync(new URL('scale.md', RESULTS), scaleReport(saved('sizes'), saved('steady')));
  writeFileSync(new URL('scale.svg', RESULTS), scalePlot(saved('sizes')));
}

/** The sizes after `--scale` in argv: a comma-separated list, or the three of issue 17; `report` redraws only. */
export function scaleSizes(argv: string[]): number[] | 'report' | undefined {
  const at = argv.indexOf('--scale');
  if (at < 0) return undefined;
  const list = argv[at + 1];
  if (!list || list.startsWith('--')) return [1_000, 10_000, 100_000];
  if (list === 'report') return 'report';
  const sizes = list.split(',').map(Number);
  if (sizes.some((s) => !Number.isInteger(s) || s < 1))
    throw new Error(`--scale takes wallet counts separated by commas (e.g. 1000,10000), got "${list}"`);
  return sizes;
}
