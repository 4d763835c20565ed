import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopOnSignal } from './scale/abort.js';
import { scalePlot } from './scale/plot.js';
import { scaleReport } from './scale/report.js';
import { measureSize, type SizeResult } from './scale/size.js';
import { startScaleStack } from './scale/stack.js';

// `npm run bench -- --scale [1000,10000,100000]` (not in CI): the cost of many wallets on
// Temporal on PostgreSQL (bench/scale/size.ts says what is measured and how). Each size's figures
// go to bench/results/scale.json as soon as measured (a size measured again replaces its row), a
// run under the defaults' steady background (`SCALE_STEADY=1`) to scale-steady.json, and
// bench/results/scale.md and scale.svg are written from all of them.

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
  const say = (l: string) => console.log(`[scale] ${new Date().toISOString().slice(11, 19)} ${l}`);
  const dir = mkdtempSync(join(tmpdir(), 'payflows-scale-'));
  say(`state and logs in ${dir}; sizes ${sizes.join(', ')}`);
  stopOnSignal(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, say);
  let stack: Awaited<ReturnType<typeof startScaleStack>> | undefined;
  try {
    stack = await startScaleStack({ dir, log: say, workerMemory: process.env.SCALE_WORKER_MEMORY ?? '2Gi' });
    for (const [i, n] of sizes.entries()) {
      const result = await measureSize(stack, n, {
        say,
        ...settings,
        logDir: join(dir, 'logs'),
        terminate: i < sizes.length - 1,
      });
      say(`written: bench/results/${save(result)}, scale.md, scale.svg (${n} wallets)`);
    }
  } finally {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
    say('stack stopped, its folder removed');
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

/** Adds the result to its file, redraws the report, and names the file. */
function save(result: SizeResult): string {
  const kind = result.steady ? 'steady' : 'sizes';
  const merged = [...saved(kind).filter((r) => r.wallets !== result.wallets), result].sort(
    (a, b) => a.wallets - b.wallets,
  );
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
