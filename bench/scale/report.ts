import { readFileSync } from 'node:fs';
import { linearFit } from './arith.js';
import { REAL, RECONCILE_RATIO, type SizeResult } from './size.js';
import { tablesSection } from './tables-report.js';
import { byRun, TOPOLOGIES, topologyOf, TOPOLOGY_NAME } from './topology.js';

// bench/results/scale.md from the sizes measured (bench/results/scale.json keeps them, so that
// sizes run on different invocations land in one report): each size on each topology measured,
// side by side.

/**
 * What a wallet took, main and visibility together, as two workflows (the opening and a child
 * following it), in the last rows measured that way, by size and topology (scale.json's rows from
 * before one workflow per wallet; git keeps them). The goal is half of it.
 */
export const TWO_WORKFLOWS_BYTES_PER_WALLET: Readonly<Record<string, number>> = {
  '1000 single': 94_216,
  '1000 services': 91_701,
  '10000 single': 69_474,
  '10000 services': 69_432,
};

/** A row's goal for its database per wallet: half of two workflows' at its size and topology, if measured. */
export function dbPerWalletGoalBytes(r: Pick<SizeResult, 'wallets' | 'topology'>): number | undefined {
  const twoWorkflows = TWO_WORKFLOWS_BYTES_PER_WALLET[`${r.wallets} ${topologyOf(r)}`];
  return twoWorkflows === undefined ? undefined : twoWorkflows / 2;
}

const n0 = (v: number) => Math.round(v).toLocaleString('en');
const n1 = (v: number) => v.toLocaleString('en', { maximumFractionDigits: 1 });
const mb = (b: number) => `${n0(b / 1e6)} MB`;

/** The report's prose (bench/scale/method.md, bench/scale/steady.md), its {NAME}s the defaults it describes; a blank line after. */
function prose(file: string): string[] {
  const values: Record<string, number> = {
    POLL_MAX_MIN: REAL.pollMaxMs / 60_000,
    RECONCILE_H: REAL.reconcileIntervalMs / 3_600_000,
    RECONCILE_RATIO,
  };
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  return [
    ...text
      .replace(/\{([A-Z_]+)\}/g, (_, name: string) => {
        if (!(name in values))
          throw new Error(`bench/scale/${file}: {${name}} is none of ${Object.keys(values).join(', ')}`);
        return String(values[name]);
      })
      .trimEnd()
      .split('\n'),
    '',
  ];
}

export function scaleReport(
  results: SizeResult[],
  steady: SizeResult[] = [],
  targetSizes: number[] = [1_000, 10_000, 100_000],
): string {
  const rs = [...results].sort(byRun);
  const out: string[] = [
    '# Scale run',
    '',
    '`npm run bench -- --scale [sizes]` (not in CI): wallets opened through the product’s client on Temporal',
    'on PostgreSQL, left idle, measured. Plot: `scale.svg`. Raw figures: `scale.json`.',
    '',
    machines([...rs, ...steady]),
    'shared with other engineers’ test runs while measured, so absolute rates are pessimistic and noisy.',
    '',
    ...prose('method.md'),
    '## Side by side',
    '',
    ...sideBySide(rs),
    '## Figures',
    '',
  ];
  const row = table(out, rs);
  row('wallets opened per second', (r) => `${n1(r.open.perSecond)} /s (${r.open.inFlight} in flight)`);
  row('time to open them', (r) => `${n0(r.open.seconds)} s`);
  row('shortened poll/reconcile period P', (r) => `${n0(r.idle.simPollMs / 1000)} s`);
  row('idle window (turns to call in it)', (r) => `${n0(r.idle.windowMs / 1000)} s (${n0(r.idle.turns ?? r.wallets)})`);
  row('provider calls/s while idle, measured in the window', (r) => n1(r.idle.callsPerSecondMeasured));
  row(
    '… polls / reconciliations / other in the window',
    (r) => `${n0(r.idle.polls)} / ${n0(r.idle.reconciles)} / ${n0(r.idle.other)}`,
  );
  row('**provider calls per idle wallet-day** (goal ≤ 24)', (r) => `**${n1(r.idle.callsPerWalletDay)}**`);
  row(
    '… of which polls / reconciliations',
    (r) => `${n1(r.idle.pollsPerWalletDay)} / ${n1(r.idle.reconcilesPerWalletDay)}`,
  );
  row('provider calls/s at the defaults, all N idle', (r) => r.idle.callsPerSecondAtDefaults.toPrecision(3));
  row('**Temporal DB bytes per wallet** (main)', (r) => `**${n0(r.bytesPerWallet)} B**`);
  row('visibility DB bytes per wallet', (r) => `${n0(r.visibilityBytesPerWallet)} B`);
  row('**DB bytes per wallet, main + visibility** (goal: at most half of two workflows’ at the size)', (r) => {
    const both = r.bytesPerWallet + r.visibilityBytesPerWallet;
    const goal = dbPerWalletGoalBytes(r);
    if (goal === undefined) return `**${n0(both)} B** (no goal)`;
    return `**${n0(both)} B** ${both <= goal ? '✓' : '✗'} (≤ ${n0(goal)})`;
  });
  row('DB bytes per wallet at rest, main / visibility (dead row versions gone: VACUUM FULL)', (r) =>
    r.atRest === undefined
      ? 'not recorded'
      : `${n0(r.atRest.mainBytesPerWallet)} B / ${n0(r.atRest.visibilityBytesPerWallet)} B`,
  );
  row('Temporal DB total after (main + visibility)', (r) => mb(r.database.mainAfter + r.database.visibilityAfter));
  row(
    'worker RSS, fresh / with the wallets / peak',
    (r) => `${mb(r.worker.rssIdleEmpty)} / ${mb(r.worker.rssWithWallets)} / ${mb(r.worker.peak)}`,
  );
  row('worker cache (max cached workflows)', cache);
  row('Temporal server RSS, fresh / with the wallets (processes)', (r) =>
    r.temporal === undefined
      ? 'not recorded'
      : `${mb(r.temporal.rssIdleEmpty)} / ${mb(r.temporal.rssWithWallets)} (${r.temporal.processes})`,
  );
  callbackRows(row);
  row('idle calls/s while the callbacks were sent', (r) =>
    r.callbacks.backgroundPerSecond === undefined ? 'not recorded' : n1(r.callbacks.backgroundPerSecond),
  );
  row('machine load average (1 min), mean / max over the run', loadAverage);
  out.push('', ...tablesSection(rs));
  if (steady.length > 0) out.push(...steadySection(steady));

  // Per topology, through its sizes: a line through one topology's points only.
  const trends = TOPOLOGIES.map((topology) => ({ topology, of: rs.filter((r) => topologyOf(r) === topology) }))
    .filter(({ of }) => new Set(of.map((r) => r.wallets)).size >= 2)
    .map(({ topology, of }) => ({
      topology,
      of,
      idle: linearFit(of.map((r) => [r.wallets, r.idle.callsPerSecondAtDefaults])),
      ...databaseTrend(of),
    }));
  if (trends.length > 0) out.push('## Trend', '');
  for (const { topology, of, idle, db, dbRows } of trends)
    out.push(
      `On the ${TOPOLOGY_NAME[topology]} (${of.map((r) => n0(r.wallets)).join(', ')} wallets):`,
      '',
      `- Idle provider calls/s at the defaults against N: ${(idle.b * 86_400).toFixed(1)} calls per wallet-day`,
      `  (slope), intercept ${(Math.abs(idle.a) < 0.0005 ? 0 : idle.a).toFixed(3)}/s, r² ${idle.r2.toFixed(4)}.`,
      `- Temporal database growth against N: ${n0(db.b)} B per wallet (slope), r² ${db.r2.toFixed(4)}, through ${dbRows}.`,
      '',
    );
  for (const { topology, of, idle, db } of trends) {
    const missing = targetSizes.filter((s) => !of.some((r) => r.wallets === s));
    if (missing.length === 0) continue;
    const last = of.at(-1)!;
    out.push(`## Not measured on the ${TOPOLOGY_NAME[topology]}: extrapolation`, '');
    for (const s of missing) {
      const hours = s / last.open.perSecond / 3600;
      out.push(
        `- **${n0(s)} wallets was not run.** At the opening rate measured at ${n0(last.wallets)} (${n1(last.open.perSecond)}/s)`,
        `  opening them alone takes about ${hours.toFixed(1)} h on this machine. With the period P near that`,
        `  (\`SCALE_IDLE_RATE=${Math.round(last.open.perSecond)}\`, so that few wallets poll while others still open) and a window`,
        `  of a quarter of it (\`SCALE_IDLE_WINDOW=${Math.round((s / last.open.perSecond) * 0.25)}\`), the run takes about ${(hours * 1.25 + 0.1).toFixed(1)} h. **Extrapolated, not measured**, from the`,
        `  line through the measured sizes: ${n1(idle.a + idle.b * s)} provider calls/s while idle at the`,
        `  defaults (${n1(idle.b * 86_400)} per wallet-day), ${mb(db.a + db.b * s)} of Temporal database for`,
        `  the wallets. Worker memory does not grow with N past the cache (it evicts), and the callback`,
        '  latency at that size is not predicted by a line: the fraction of callbacks that find their wallet',
        '  evicted grows with N (cache / N), and each costs a replay; see the trend of p99 above.',
      );
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/**
 * The main database's line against N through rows of one shape of wallet: one workflow (the rows
 * with a breakdown by table) where two sizes have it, else two workflows (the rows without), else all.
 */
function databaseTrend(of: SizeResult[]): { db: ReturnType<typeof linearFit>; dbRows: string } {
  const sizes = (rows: SizeResult[]) => new Set(rows.map((r) => r.wallets)).size;
  const one = of.filter((r) => r.tables !== undefined);
  const two = of.filter((r) => r.tables === undefined);
  const [rows, shape] =
    sizes(one) >= 2
      ? [one, 'a wallet as one workflow']
      : sizes(two) >= 2
        ? [two, 'a wallet as two workflows']
        : [of, 'a wallet as one or two workflows'];
  return {
    db: linearFit(rows.map((r) => [r.wallets, r.database.mainAfter - r.database.mainBefore])),
    dbRows: `${rows.map((r) => n0(r.wallets)).join(', ')} wallets (${shape})`,
  };
}

/** The machines the rows were measured on: one, or each with its rows' dates. */
function machines(rs: SizeResult[]): string {
  const names = [...new Set(rs.map((r) => r.machine))];
  if (names.length <= 1) return `Machine: ${names[0] ?? 'none yet'};`;
  const dates = (m: string) => [...new Set(rs.filter((r) => r.machine === m).map((r) => r.at.slice(0, 10)))].join(', ');
  return `Machines: ${names.map((m) => `${m} (rows measured ${dates(m)})`).join('; ')};`;
}

/** One row per size and topology, the figures that compare them: the topology named in each. */
function sideBySide(rs: SizeResult[]): string[] {
  const columns: Array<[string, (r: SizeResult) => string]> = [
    ['wallets', (r) => n0(r.wallets)],
    ['Temporal server', (r) => TOPOLOGY_NAME[topologyOf(r)]],
    ['opened a second', (r) => n1(r.open.perSecond)],
    ['provider calls per idle wallet-day', (r) => n1(r.idle.callsPerWalletDay)],
    ['DB bytes per wallet, main / visibility', (r) => `${n0(r.bytesPerWallet)} / ${n0(r.visibilityBytesPerWallet)}`],
    ['worker RSS with the wallets', (r) => mb(r.worker.rssWithWallets)],
    ['Temporal server RSS with the wallets (processes)', temporalRss],
    ['callback to counted p50 / p99', (r) => `${n0(r.callbacks.p50)} / ${n0(r.callbacks.p99)} ms`],
    [
      'idle calls/s meanwhile',
      (r) => (r.callbacks.backgroundPerSecond === undefined ? 'not recorded' : n1(r.callbacks.backgroundPerSecond)),
    ],
    ['load average, mean / max', loadAverage],
    ['measured on', (r) => r.at.slice(0, 16).replace('T', ' ')],
  ];
  return [
    `| ${columns.map(([name]) => name).join(' | ')} |`,
    `|${columns.map(([name]) => (name === 'Temporal server' || name === 'measured on' ? '---' : '---:')).join('|')}|`,
    ...rs.map((r) => `| ${columns.map(([, f]) => f(r)).join(' | ')} |`),
    '',
  ];
}

const temporalRss = (r: SizeResult) =>
  r.temporal === undefined ? 'not recorded' : `${mb(r.temporal.rssWithWallets)} (${r.temporal.processes})`;
const loadAverage = (r: SizeResult) =>
  r.load === undefined ? 'not recorded' : `${r.load.mean.toFixed(1)} / ${r.load.max.toFixed(1)}`;

type Row = (name: string, f: (r: SizeResult) => string) => void;

/** A table with a column for each run, its first row when each was measured; `row` adds one. */
function table(out: string[], rs: SizeResult[]): Row {
  out.push(
    `| figure | ${rs.map((r) => `${n0(r.wallets)} wallets, ${TOPOLOGY_NAME[topologyOf(r)]}`).join(' | ')} |`,
    `|---|${rs.map(() => '---:').join('|')}|`,
  );
  const row: Row = (name, f) => void out.push(`| ${name} | ${rs.map(f).join(' | ')} |`);
  row('measured on', (r) => r.at.slice(0, 16).replace('T', ' '));
  return row;
}

const cache = (r: SizeResult) => (r.worker.maxCachedWorkflows === undefined ? '?' : n0(r.worker.maxCachedWorkflows));

/** The callbacks' rows, in both tables. */
function callbackRows(row: Row): void {
  row(
    'callbacks sent (rate) / counted',
    (r) =>
      `${r.callbacks.sent} (${r.callbacks.offeredPerSecond}/s) / ${r.callbacks.counted}${r.callbacks.refused ? ` (${r.callbacks.refused} refused by the ingress)` : ''}`,
  );
  row(
    '**callback to counted p50 / p99** (goal p99 < 1 s at 100k)',
    (r) => `**${n0(r.callbacks.p50)} / ${n0(r.callbacks.p99)} ms**`,
  );
  row('callback to counted max', (r) => `${n0(r.callbacks.max)} ms`);
  row(
    'callback accepted by the ingress p50 / p99',
    (r) => `${n0(r.callbacks.acceptedP50)} / ${n0(r.callbacks.acceptedP99)} ms`,
  );
}

/** The runs under the defaults' steady background (`SCALE_STEADY=1`, bench/results/scale-steady.json). */
function steadySection(runs: SizeResult[]): string[] {
  const rs = [...runs].sort((a, b) => a.wallets - b.wallets);
  const out = [...prose('steady.md')];
  const row = table(out, rs);
  row(`period P (poll; one in ${RECONCILE_RATIO} reconciling)`, (r) => `${n0(r.idle.simPollMs / 1000)} s`);
  row(
    'opening paced at / reached',
    (r) => `${n1(r.steady!.pacedPerSecond)} / ${n1(r.open.perSecond)} /s (${r.open.failures} retried)`,
  );
  row('**provider calls per idle wallet-day** (goal ≤ 24)', (r) => `**${n1(r.idle.callsPerWalletDay)}**`);
  row(
    'idle polls / reconciliations a second in the window',
    (r) => `${n1((r.idle.polls / r.idle.windowMs) * 1000)} / ${n1((r.idle.reconciles / r.idle.windowMs) * 1000)}`,
  );
  row('**idle calls a second while the callbacks were sent** (polls / reconciliations)', (r) => {
    const { backgroundPollsPerSecond: polls, backgroundReconcilesPerSecond: reconciles } = r.steady!;
    const split = polls === undefined || reconciles === undefined ? 'not recorded' : `${n1(polls)} / ${n1(reconciles)}`;
    return `**${n1(r.callbacks.backgroundPerSecond ?? NaN)}** (${split})`;
  });
  row(
    'the defaults’ own at N (polls / reconciliations)',
    (r) => `${n1((r.wallets * 1000) / REAL.pollMaxMs)} / ${n1((r.wallets * 1000) / REAL.reconcileIntervalMs)}`,
  );
  callbackRows(row);
  row(
    'worker RSS with the wallets / peak',
    (r) => `${mb(r.worker.rssWithWallets)} / ${mb(r.worker.peak)} (cache ${cache(r)})`,
  );
  out.push('');
  return out;
}
