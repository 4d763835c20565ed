import { decades, logScale, percentile } from '../../../bench/scale/arith.js';
import type { DrillRecord, FaultKind } from './record.js';

// The drill's picture: callback-to-counted latency of each transaction against when it was sent,
// on a log scale (a dropped callback waits for a poll: seconds, not milliseconds), with the faults
// marked: a dropped or repeated callback's dot in its colour, each chaos run a vertical line.

const W = 900;
const H = 360;
const M = { left: 60, right: 20, top: 40, bottom: 50 };
const COLOURS: Record<FaultKind | 'none', string> = {
  none: '#1f5fa8',
  'callback dropped': '#c00',
  'callback repeated': '#e08a00',
  'provider error': '#777',
  chaos: '#7a3fb0',
};

export function drillPlot(record: DrillRecord, heading: string): string {
  const points = record.latencies();
  const ms = points.map((p) => p.ms);
  const title = `${heading}; callback to counted p50 ${Math.round(percentile(ms, 50))} ms, p99 ${Math.round(percentile(ms, 99))} ms`;
  const end = Math.max(record.startedAt + 1_000, ...points.map((p) => p.at), ...record.marks.map((m) => m.at));
  const x = (t: number) => M.left + ((t - record.startedAt) / (end - record.startedAt)) * (W - M.left - M.right);
  // From 10 ms (a shorter latency is drawn at 10) to the decade above the longest, 1 s at least.
  const ticks = decades(10, Math.max(1_000, ...points.map((p) => p.ms)));
  const scale = logScale(10, ticks.at(-1)!, H - M.bottom, M.top);
  const y = (ms: number) => scale(Math.max(ms, 10));
  const parts = [
    `<text x="${M.left}" y="20" font-size="13" font-weight="bold">${title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${M.left}" y2="${M.top}" stroke="#333"/>`,
    `<text x="${(W + M.left) / 2}" y="${H - 12}" font-size="11" text-anchor="middle">seconds since the drill started</text>`,
    `<text x="14" y="${(H - M.bottom + M.top) / 2}" font-size="11" transform="rotate(-90 14 ${(H - M.bottom + M.top) / 2})" text-anchor="middle">callback to counted (ms, log)</text>`,
  ];
  for (const d of ticks)
    parts.push(
      `<line x1="${M.left - 4}" y1="${y(d)}" x2="${W - M.right}" y2="${y(d)}" stroke="#ddd"/>`,
      `<text x="${M.left - 6}" y="${y(d) + 3}" font-size="10" text-anchor="end">${d >= 1000 ? `${d / 1000}k` : d}</text>`,
    );
  const seconds = (end - record.startedAt) / 1000;
  const step = [5, 10, 30, 60, 120, 300].find((s) => seconds / s <= 10) ?? 600;
  for (let s = 0; s <= seconds; s += step)
    parts.push(
      `<text x="${x(record.startedAt + s * 1000)}" y="${H - M.bottom + 15}" font-size="10" text-anchor="middle">${s}</text>`,
    );
  for (const m of record.marks.filter((m) => m.kind === 'chaos'))
    parts.push(
      `<line x1="${x(m.at)}" y1="${M.top}" x2="${x(m.at)}" y2="${H - M.bottom}" stroke="${COLOURS.chaos}" stroke-dasharray="4 3"/>`,
    );
  for (const p of [...points].sort((a, b) => Number(a.fault !== undefined) - Number(b.fault !== undefined)))
    parts.push(
      `<circle cx="${x(p.at).toFixed(1)}" cy="${y(p.ms).toFixed(1)}" r="2.5" fill="${COLOURS[p.fault ?? 'none']}"/>`,
    );
  const legend: Array<[string, string]> = [
    ['callback delivered once', COLOURS.none],
    ['callback dropped (found by a poll)', COLOURS['callback dropped']],
    ['callback repeated', COLOURS['callback repeated']],
    ['chaos command run', COLOURS.chaos],
  ];
  legend.forEach(([label, colour], i) => {
    const lx = M.left + 20 + i * 210;
    parts.push(
      `<rect x="${lx}" y="${M.top - 14}" width="8" height="8" fill="${colour}"/>`,
      `<text x="${lx + 12}" y="${M.top - 6}" font-size="10">${label}</text>`,
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">`,
    '<rect width="100%" height="100%" fill="white"/>',
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
