import { percentile } from '../../../bench/scale/arith.js';
import { compare } from '../../../src/decimal.js';
import type { DrillRecord, FaultKind } from './record.js';
import type { Settled } from './settle.js';

// What the drill prints: progress while it runs (a bar on a terminal, a line every few seconds
// otherwise), then its report, whose last line is the verdict.

/** A progress printer: call it as often as you like; it draws at most every 200 ms (a line every 10 s off a terminal). */
export function progress(record: DrillRecord, untilMs: number) {
  const tty = process.stdout.isTTY === true;
  let last = 0;
  return (phase: string, { final = false } = {}) => {
    const now = Date.now();
    if (!final && now - last < (tty ? 200 : 10_000)) return;
    last = now;
    const span = untilMs - record.startedAt;
    const done = Math.min(1, (now - record.startedAt) / span);
    const counted = record.expectations.filter((e) => e.countedAt !== undefined).length;
    const text = `${phase}: ${record.moves} moves, ${counted}/${record.expectations.length} counted, ${record.marks.length} faults`;
    if (!tty) return void console.log(`[drill] ${text}`);
    const bar = '#'.repeat(Math.round(done * 30)).padEnd(30, '.');
    process.stdout.write(`\r[${bar}] ${Math.round(done * 100)}% ${text}\x1b[K${final ? '\n' : ''}`);
  };
}

export interface Verdict {
  lines: string[];
  exact: boolean;
}

/** The report: per fault, injected and recovered; callback to counted p50/p99; processes stuck; the verdict last. */
export function report(record: DrillRecord, settled: Settled, providerErrors: number, walletCount: number): Verdict {
  const all = settled.exact.length === walletCount;
  const exactWallets = new Set(settled.exact);
  const count = (kind: FaultKind) => record.marks.filter((m) => m.kind === kind).length;
  // A callback's fault is recovered when every wallet its transaction touched ended exact.
  const recovered = (kind: FaultKind) => {
    const hit = record.expectations.filter((e) => e.fault === kind);
    const lost = new Set(hit.filter((e) => !exactWallets.has(e.walletId)).map((e) => e.callback));
    return new Set(hit.map((e) => e.callback).filter((n) => !lost.has(n))).size;
  };
  const stuck = record.processes.filter((p) => !p.done);
  const chaos = record.marks.filter((m) => m.kind === 'chaos');
  const latencies = record.latencies().map((l) => l.ms);
  const ms = (p: number) => (latencies.length ? `${Math.round(percentile(latencies, p))} ms` : 'none');
  const twice = settled.differing.filter(
    (d) => d.difference && compare(d.difference.ledger, d.difference.provider) > 0,
  );
  const lines = [
    `faults (injected / recovered):`,
    `  provider errors     ${providerErrors} / ${all && stuck.length === 0 ? providerErrors : 'not all: see below'}`,
    `  callbacks dropped   ${count('callback dropped')} / ${recovered('callback dropped')}`,
    `  callbacks repeated  ${count('callback repeated')} / ${recovered('callback repeated')}`,
    `  chaos runs          ${chaos.length} (${chaos.filter((m) => !m.ok).length} failed) / ${all ? chaos.length : 'not all'}`,
    `callback to counted: p50 ${ms(50)}, p99 ${ms(99)} over ${latencies.length} of ${record.expectations.length}`,
    `wallets: ${settled.exact.length}/${walletCount} exact, ${twice.length} holding more than the provider (counted twice)`,
    `processes: ${record.processes.length} started, ${stuck.length} stuck${stuck.map((p) => `\n  ${p.name}: ${p.outcome ?? 'not finished'}`).join('')}`,
  ];
  const first = settled.differing[0];
  const verdict = !first
    ? `drill: exact ${settled.exact.length}/${walletCount} wallets, ${twice.length} counted twice, ${stuck.length} stuck`
    : first.difference
      ? `drill: wallet ${first.walletId} differs: ${first.difference.currency} ledger ${first.difference.ledger}, provider ${first.difference.provider}`
      : `drill: wallet ${first.walletId} did not settle (${first.view ? `${first.view.queued} observations queued` : 'its workflow did not answer'})`;
  lines.push(verdict);
  return { lines, exact: !first && stuck.length === 0 };
}

/** Callback to counted in one phase: over the callbacks sent in it that the sandbox did not drop. */
export interface PhaseLatency {
  phase: string;
  /** How long the phase lasted, in ms. */
  lastedMs: number;
  /** Transactions counted by a wallet (a transfer is counted by both of its wallets). */
  counts: number;
  p50: number;
  p99: number;
}

/**
 * Callback to counted per phase of the record, each callback in the phase it was sent in. A
 * callback the sandbox dropped on purpose waits for a poll whatever else happens, so it is left
 * out: the figures say what the phase did to a callback that was delivered.
 */
export function latencyByPhase(record: DrillRecord, endedAt: number): PhaseLatency[] {
  const points = record.latencies().filter((l) => l.fault !== 'callback dropped');
  return record.phases.map((phase, i) => {
    const end = record.phases[i + 1]?.at ?? endedAt;
    const ms = points.filter((l) => l.at >= phase.at && l.at < end).map((l) => l.ms);
    return {
      phase: phase.name,
      lastedMs: end - phase.at,
      counts: ms.length,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
    };
  });
}

/** The phases' figures as a Markdown table (what a CI log shows and docs/deploying.md quotes). */
export function phaseTable(rows: PhaseLatency[]): string[] {
  const ms = (n: number) => (Number.isNaN(n) ? 'none' : String(Math.round(n)));
  return [
    '| phase | lasted (s) | counts | p50 (ms) | p99 (ms) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.phase} | ${Math.round(r.lastedMs / 1000)} | ${r.counts} | ${ms(r.p50)} | ${ms(r.p99)} |`),
  ];
}
