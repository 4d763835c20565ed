import { cpus, totalmem } from 'node:os';
import { linearFit } from './arith.js';
import { REAL, RECONCILE_RATIO, type SizeResult } from './size.js';

// bench/results/scale.md from the sizes measured (bench/results/scale.json keeps them, so that
// sizes run on different invocations land in one report).

const n0 = (v: number) => Math.round(v).toLocaleString('en');
const n1 = (v: number) => v.toLocaleString('en', { maximumFractionDigits: 1 });
const mb = (b: number) => `${n0(b / 1e6)} MB`;

export function scaleReport(
  results: SizeResult[],
  steady: SizeResult[] = [],
  targetSizes: number[] = [1_000, 10_000, 100_000],
): string {
  const rs = [...results].sort((a, b) => a.wallets - b.wallets);
  const out: string[] = [
    '# Scale run',
    '',
    '`npm run bench -- --scale [sizes]` (not in CI): wallets opened through the product’s client on Temporal',
    'on PostgreSQL, left idle, measured. Plot: `scale.svg`. Raw figures: `scale.json`.',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${n0(totalmem() / 2 ** 30)} GiB, Node ${process.version};`,
    'shared with other engineers’ test runs while measured, so absolute rates are pessimistic and noisy.',
    '',
    '## Method',
    '',
    '- **Stack**: PostgreSQL 15 and the Temporal server started as `npm run cluster` starts them',
    '  (deploy/temporal, fsync off as there), the sandbox and the ingress in the bench process, the',
    '  production worker (`worker/main.ts`) as a process of its own with `WORKER_MEMORY` set (it sizes',
    '  its cache from it). Everything on one 2-core machine.',
    '- **Sizes are not cumulative**: each size opens its own N wallets on a fresh worker process, and',
    '  terminates them when measured (their rows stay in the database, so the database grows across sizes).',
    '- **Open-wallet throughput**: `WalletsClient.open` (the open workflow, the provider’s create call, the',
    '  wallet’s follower started) with a fixed number in flight; wallets opened over the whole opening.',
    '- **Idle provider calls**: a real idle day cannot be waited for, so each size runs with',
    '  `WALLET_POLL_INTERVAL` = `WALLET_POLL_MAX` = `WALLET_RECONCILE_INTERVAL` = P, chosen per size so that',
    '  the polls stay near 10 a second (P = N / 10 s, at least 100 s; `SCALE_IDLE_RATE`): every wallet is at its quiet ceiling',
    '  from its first wait, with no ramp. Past the opening, the sandbox counts the requests it answers over one',
    '  period P: each wallet polls (`GET /v2/wallet/:walletId/transactions`) and reconciles',
    '  (`GET /v2/wallet/:walletId`) about once. Or over a window W shorter than P (`SCALE_IDLE_WINDOW`, in s):',
    '  a wallet calls at +P, +2P, … after it opened, so the opening times say how many turns fell in the',
    '  window (`turnsInWindow`, bench/scale/arith.ts), and the calls are divided by those turns instead of N.',
    `  Polls are scaled back by ${REAL.pollMaxMs / 60_000} min / P and`,
    `  reconciliations by ${REAL.reconcileIntervalMs / 3_600_000} h / P (the defaults), and summed: calls per idle`,
    '  wallet-day. “Calls/s at the defaults” is that times N over a day.',
    '- **Database bytes per wallet**: `pg_total_relation_size` summed over the tables of the `temporal`',
    '  database (and, apart, `temporal_visibility`), before the opening and after the idle window, over N.',
    '  Open workflows’ histories count (they are part of what a wallet costs until retention).',
    '- **Worker memory**: the worker’s VmRSS before the opening (fresh, warm-up only) and after the idle',
    '  window with N wallets live; its cache holds at most the size it printed. The workflows’ V8 heap is in a',
    '  worker thread the process cannot read from outside, so RSS is the figure.',
    '- **Callback to counted**: signed CONFIRMED deposit callbacks through the ingress, each to a different',
    '  random idle wallet, at a steady rate (`SCALE_CALLBACK_RATE`, 5/s for 60 s), while the rest stay idle.',
    '  Counted: 10 s after the last one, each wallet’s query must list its transaction (else it counts as',
    '  not counted); the time is read afterwards from the wallet’s history, so that measuring adds no load',
    '  while the callbacks run: from sending it to the first workflow task completed after the signal (the',
    '  signal handler and the ledger’s record run in that task; a query answers from it once it completes).',
    '  A wallet not in the worker’s cache is replayed first: that is part of the figure. (A first version',
    '  polled the query every 10 ms per callback instead: with 30 callbacks in flight the queries themselves',
    '  loaded the worker, and the figure measured them.) “Accepted” is until the ingress answered 200.',
    '',
    '## Reading these figures',
    '',
    '- The idle background the callbacks meet is not the window’s: each wallet calls at +P, +2P, … after',
    '  it opened, so the turns come in sweeps at the opening’s pace (about twice the opening rate in calls',
    '  a second), with nothing between sweeps when the opening is shorter than P. Runs with a whole-period',
    '  window sent their callbacks just after the first sweep (at 1,000 partly into the second): almost no',
    '  background. Runs with a shorter window sent them inside the first sweep. The row “idle calls/s while',
    '  the callbacks were sent” is measured over the callbacks’ own span (“not recorded” in runs before it',
    '  was). Each reconciliation is a workflow task, a replay when the wallet was evicted; a poll is an',
    '  activity attempt. The machine’s 2 cores were shared with other test runs (load average 2 to 7):',
    '  pessimistic, not a sizing.',
    '- The Temporal server logged `context deadline exceeded` on some tasks during the openings (CPU',
    '  starvation); they were retried, no wallet failed to open and every callback was counted.',
    '- Database bytes include dead rows not yet vacuumed and the open workflows’ histories (until retention).',
    '',
    '## Goals',
    '',
    '- idle cost linear in wallets, at the per-wallet figure of the small run (≤ 24 provider calls per idle wallet-day);',
    '- callback-to-counted p99 under 1 s at 100,000 wallets.',
    '',
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
  row('Temporal DB total after (main + visibility)', (r) => mb(r.database.mainAfter + r.database.visibilityAfter));
  row(
    'worker RSS, fresh / with the wallets / peak',
    (r) => `${mb(r.worker.rssIdleEmpty)} / ${mb(r.worker.rssWithWallets)} / ${mb(r.worker.peak)}`,
  );
  row('worker cache (max cached workflows)', cache);
  callbackRows(row);
  row('idle calls/s while the callbacks were sent', (r) =>
    r.callbacks.backgroundPerSecond === undefined ? 'not recorded' : n1(r.callbacks.backgroundPerSecond),
  );
  out.push('');
  if (steady.length > 0) out.push(...steadySection(steady));

  if (rs.length >= 2) {
    const idle = linearFit(rs.map((r) => [r.wallets, r.idle.callsPerSecondAtDefaults]));
    const db = linearFit(rs.map((r) => [r.wallets, r.database.mainAfter - r.database.mainBefore]));
    out.push(
      '## Trend',
      '',
      `- Idle provider calls/s at the defaults against N: ${(idle.b * 86_400).toFixed(1)} calls per wallet-day`,
      `  (slope), intercept ${(Math.abs(idle.a) < 0.0005 ? 0 : idle.a).toFixed(3)}/s, r² ${idle.r2.toFixed(4)}.`,
      `- Temporal database growth against N: ${n0(db.b)} B per wallet (slope), r² ${db.r2.toFixed(4)}.`,
      '',
    );
    const missing = targetSizes.filter((s) => !rs.some((r) => r.wallets === s));
    if (missing.length > 0) {
      const last = rs.at(-1)!;
      out.push('## Not measured: extrapolation', '');
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
  }
  return `${out.join('\n')}\n`;
}

type Row = (name: string, f: (r: SizeResult) => string) => void;

/** A table with a column for each run, its first row when each was measured; `row` adds one. */
function table(out: string[], rs: SizeResult[]): Row {
  out.push(
    `| figure | ${rs.map((r) => `${n0(r.wallets)} wallets`).join(' | ')} |`,
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
    (r) => `${r.callbacks.sent} (${r.callbacks.offeredPerSecond}/s) / ${r.callbacks.counted}`,
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
  const out = [
    '## Callbacks under the defaults’ steady background',
    '',
    '`SCALE_STEADY=1`: the rest idle as the defaults leave them, steadily. The opening is paced at N / P',
    'wallets a second over one period P, so that past it the wallets’ turns tile the period: N / P polls a',
    `second, with no sweeps. One wallet in ${RECONCILE_RATIO} reconciles every P and the others every ${RECONCILE_RATIO} P, later than the`,
    'run ends (it refuses settings that would not), so that the reconciliations come at the defaults’',
    'share of the polls. With P = 90 min, the default ceiling (`SCALE_IDLE_RATE` = N / 5,400), the',
    'background is the defaults’ own at that N. The idle window and the callbacks follow the opening,',
    'inside the steady span; the opening’s rate here is a pace, not a throughput: an opening that falls',
    'behind it catches up at its own rate, and the background is measured, not assumed.',
    '',
  ];
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
