import { decades, linearFit, logScale } from './arith.js';
import type { SizeResult } from './size.js';
import { byRun, TOPOLOGIES, topologyOf, TOPOLOGY_NAME } from './topology.js';

// bench/results/scale.svg: one panel per figure against the number of wallets (a log axis), the
// measured sizes as dots joined by a line, one line per topology of the Temporal server, and the
// goal, where there is one, as a dashed line.

interface Panel {
  title: string;
  unit: string;
  value: (r: SizeResult) => number;
  goal?: number;
  /**
   * Per-wallet figures of a cost that grows by a line: the total the line is drawn through, and what
   * its value per wallet at a size not measured is multiplied by to be in the panel's unit.
   */
  extrapolate?: { total: (r: SizeResult) => number; times: number };
  /** A second series drawn lighter (p50 beside p99). */
  second?: { label: string; value: (r: SizeResult) => number };
}

const PANELS: Panel[] = [
  {
    title: 'provider calls per idle wallet-day',
    unit: 'calls',
    value: (r) => r.idle.callsPerWalletDay,
    goal: 24,
    extrapolate: { total: (r) => r.idle.callsPerSecondAtDefaults, times: 86_400 },
  },
  {
    title: 'Temporal database bytes per wallet',
    unit: 'KB',
    value: (r) => r.bytesPerWallet / 1000,
    extrapolate: { total: (r) => r.database.mainAfter - r.database.mainBefore, times: 1 / 1000 },
  },
  { title: 'worker RSS with the wallets', unit: 'MB', value: (r) => r.worker.rssWithWallets / 1e6 },
  {
    title: 'callback to counted, p99 (p50 lighter)',
    unit: 'ms',
    value: (r) => r.callbacks.p99,
    goal: 1000,
    second: { label: 'p50', value: (r) => r.callbacks.p50 },
  },
  { title: 'wallets opened per second', unit: '/s', value: (r) => r.open.perSecond },
];

/** The line through (wallets, total) at n, per wallet, times `times`. */
const perWallet = (rs: SizeResult[], { total, times }: NonNullable<Panel['extrapolate']>, n: number) => {
  const { a, b } = linearFit(rs.map((r) => [r.wallets, total(r)]));
  return ((a + b * n) / n) * times;
};

/** The size of issue 17 that a plot shows as extrapolated when it was not measured. */
const TARGET = 100_000;

const W = 300;
const H = 220;
const M = { left: 52, right: 14, top: 30, bottom: 36 };

/** Each topology's line, and its second series lighter. */
const COLOR = {
  single: { main: '#1f5fa8', second: '#8fb3dd' },
  services: { main: '#d0701f', second: '#f0b98a' },
} as const;

const fmt = (v: number) => (v >= 1000 ? `${Number((v / 1000).toPrecision(3))}k` : Number(v.toPrecision(3)).toString());
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function scalePlot(results: SizeResult[]): string {
  const sorted = [...results].sort(byRun);
  const lines = TOPOLOGIES.map((t) => ({ topology: t, rs: sorted.filter((r) => topologyOf(r) === t) })).filter(
    ({ rs }) => rs.length > 0,
  );
  const cols = 3;
  const rows = Math.ceil(PANELS.length / cols);
  const parts: string[] = [];
  const lo = Math.min(1_000, ...sorted.map((r) => r.wallets));
  const hi = Math.max(100_000, ...sorted.map((r) => r.wallets));
  PANELS.forEach((p, i) => {
    const ox = (i % cols) * W;
    const oy = Math.floor(i / cols) * H;
    const x = logScale(lo, hi, ox + M.left, ox + W - M.right);
    // Per topology, the line through its own sizes to the target it did not reach.
    const extra = lines.map(({ rs }) =>
      p.extrapolate && new Set(rs.map((r) => r.wallets)).size >= 2 && !rs.some((r) => r.wallets === TARGET)
        ? perWallet(rs, p.extrapolate, TARGET)
        : undefined,
    );
    const values = [
      ...sorted.flatMap((r) => [p.value(r), ...(p.second ? [p.second.value(r)] : [])]),
      ...extra.filter((v) => v !== undefined),
    ];
    const top = Math.max(p.goal ?? 0, ...values.filter(Number.isFinite)) * 1.15 || 1;
    const y = (v: number) => oy + H - M.bottom - (v / top) * (H - M.top - M.bottom);
    parts.push(`<text x="${ox + 8}" y="${oy + 18}" font-size="12" font-weight="bold">${esc(p.title)}</text>`);
    parts.push(
      `<line x1="${ox + M.left}" y1="${y(0)}" x2="${ox + W - M.right}" y2="${y(0)}" stroke="#333"/>`,
      `<line x1="${ox + M.left}" y1="${y(0)}" x2="${ox + M.left}" y2="${y(top)}" stroke="#333"/>`,
    );
    for (const d of decades(lo, hi).filter((d) => d >= lo && d <= hi))
      parts.push(
        `<line x1="${x(d)}" y1="${y(0)}" x2="${x(d)}" y2="${y(0) + 4}" stroke="#333"/>`,
        `<text x="${x(d)}" y="${y(0) + 16}" font-size="10" text-anchor="middle">${fmt(d)}</text>`,
      );
    parts.push(
      `<text x="${ox + (M.left + W - M.right) / 2}" y="${oy + H - 6}" font-size="10" text-anchor="middle">wallets</text>`,
    );
    for (const t of [0, top / 2, top / 1.15])
      parts.push(`<text x="${ox + M.left - 4}" y="${y(t) + 3}" font-size="10" text-anchor="end">${fmt(t)}</text>`);
    parts.push(`<text x="${ox + 8}" y="${oy + M.top - 2}" font-size="10">${esc(p.unit)}</text>`);
    if (p.goal !== undefined)
      parts.push(
        `<line x1="${ox + M.left}" y1="${y(p.goal)}" x2="${ox + W - M.right}" y2="${y(p.goal)}" stroke="#c00" stroke-dasharray="4 3"/>`,
        `<text x="${ox + W - M.right}" y="${y(p.goal) - 3}" font-size="9" fill="#c00" text-anchor="end">goal ${fmt(p.goal)}</text>`,
      );
    const series = lines.flatMap(({ topology, rs }, line) => [
      { rs, value: p.value, color: COLOR[topology].main, extra: extra[line] },
      ...(p.second ? [{ rs, value: p.second.value, color: COLOR[topology].second, extra: undefined }] : []),
    ]);
    for (const s of series) {
      const pts = s.rs.filter((r) => Number.isFinite(s.value(r))).map((r) => [x(r.wallets), y(s.value(r))]);
      if (pts.length > 1)
        parts.push(
          `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${pts.map(([a, b]) => `${a!.toFixed(1)},${b!.toFixed(1)}`).join(' ')}"/>`,
        );
      if (s.extra !== undefined && pts.length > 0) {
        const [a, b] = pts.at(-1)!;
        const [ex, ey] = [x(TARGET), y(s.extra)];
        parts.push(
          `<line x1="${a!.toFixed(1)}" y1="${b!.toFixed(1)}" x2="${ex.toFixed(1)}" y2="${ey.toFixed(1)}" stroke="${s.color}" stroke-dasharray="3 3"/>`,
          `<circle cx="${ex.toFixed(1)}" cy="${ey.toFixed(1)}" r="3" fill="white" stroke="${s.color}"/>`,
          `<text x="${ex.toFixed(1)}" y="${(ey - 6).toFixed(1)}" font-size="9" text-anchor="end" fill="${s.color}">extrapolated</text>`,
        );
      }
      for (const [a, b] of pts)
        parts.push(`<circle cx="${a!.toFixed(1)}" cy="${b!.toFixed(1)}" r="3" fill="${s.color}"/>`);
    }
  });
  const legend = { x: (PANELS.length % cols) * W + 16, y: (rows - 1) * H + 50 };
  const entry = (i: number, mark: string, text: string) =>
    parts.push(mark, `<text x="${legend.x + 8}" y="${legend.y + 18 * i + 3}" font-size="10">${esc(text)}</text>`);
  if (PANELS.length % cols !== 0) {
    lines.forEach(({ topology }, i) =>
      entry(
        i,
        `<circle cx="${legend.x}" cy="${legend.y + 18 * i}" r="3" fill="${COLOR[topology].main}"/>`,
        `measured, ${TOPOLOGY_NAME[topology]} (bench/results/scale.md)`,
      ),
    );
    const next = lines.length;
    entry(
      next,
      `<circle cx="${legend.x}" cy="${legend.y + 18 * next}" r="3" fill="white" stroke="#333"/>`,
      'extrapolated by the line through them, not measured',
    );
    entry(
      next + 1,
      `<line x1="${legend.x - 4}" y1="${legend.y + 18 * (next + 1)}" x2="${legend.x + 4}" y2="${legend.y + 18 * (next + 1)}" stroke="#c00" stroke-dasharray="4 3"/>`,
      'goal of issue 17',
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cols * W}" height="${rows * H}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
