import { mkdirSync, writeFileSync } from 'node:fs';
import { type Figure, ratio } from './measure.js';

// The figures as people read them: a table on the console, and under bench/results/ a markdown
// table and a small SVG chart of the ratios against their goals.

const fmt = (value: number, unit: Figure['unit']) =>
  `${value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(value >= 10 ? 1 : 2)} ${unit}`;

export function printTable(title: string, figures: Figure[]): void {
  console.log(`\n${title}`);
  for (const f of figures) {
    const r = ratio(f);
    const verdict = f.goal === undefined ? '' : r >= f.goal ? `  goal ${f.goal} met` : `  goal ${f.goal} MISSED`;
    console.log(
      `  ${f.name}\n    product ${fmt(f.product, f.unit)}   yardstick ${fmt(f.yardstick, f.unit)}   ratio ${r.toFixed(2)}${verdict}`,
    );
  }
}

export function markdown(
  sections: Array<{ title: string; figures: Figure[] }>,
  when: string,
  heading = 'Benchmark figures',
): string {
  const lines = [
    `# ${heading}`,
    '',
    `Measured side by side in one run of \`npm run bench\` on ${when}. Ratios are oriented so that higher is better; absolute numbers depend on the machine.`,
    '',
  ];
  for (const { title, figures } of sections) {
    lines.push(`## ${title}`, '', '| figure | product | yardstick | ratio | goal |', '|---|---|---|---|---|');
    for (const f of figures)
      lines.push(
        `| ${f.name} | ${fmt(f.product, f.unit)} | ${fmt(f.yardstick, f.unit)} | ${ratio(f).toFixed(2)} | ${f.goal ?? ''}${f.goal === undefined ? '' : ratio(f) >= f.goal ? ' ✓' : ' ✗'} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

/** Horizontal bars of each ratio, with a tick at its goal. */
export function svg(sections: Array<{ title: string; figures: Figure[] }>): string {
  const rows = sections.flatMap((s) =>
    s.figures.map((f) => ({ label: `${s.title}: ${f.name}`, r: ratio(f), goal: f.goal })),
  );
  const max = Math.max(1.2, ...rows.map((r) => r.r), ...rows.map((r) => r.goal ?? 0));
  const [left, width, rowH] = [20, 560, 34];
  const x = (v: number) => left + (v / max) * width;
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const parts = rows.map((row, i) => {
    const y = 30 + i * rowH;
    const colour = row.goal === undefined ? '#5b8def' : row.r >= row.goal ? '#3aa757' : '#d93025';
    return [
      `<text x="${left}" y="${y - 4}" font-size="11">${esc(row.label.length > 110 ? `${row.label.slice(0, 107)}…` : row.label)}</text>`,
      `<rect x="${left}" y="${y}" width="${(x(row.r) - left).toFixed(1)}" height="12" fill="${colour}"/>`,
      `<text x="${(x(row.r) + 4).toFixed(1)}" y="${y + 10}" font-size="11">${row.r.toFixed(2)}</text>`,
      row.goal === undefined
        ? ''
        : `<line x1="${x(row.goal).toFixed(1)}" x2="${x(row.goal).toFixed(1)}" y1="${y - 2}" y2="${y + 14}" stroke="#000" stroke-dasharray="2,2"/>`,
    ].join('');
  });
  const height = 40 + rows.length * rowH;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left * 2 + width + 60}" height="${height}" font-family="sans-serif">` +
    `<line x1="${x(1)}" x2="${x(1)}" y1="14" y2="${height - 8}" stroke="#999"/><text x="${x(1) + 3}" y="12" font-size="10">1.0 = as fast or small as the yardstick</text>${parts.join('')}</svg>\n`
  );
}

export function writeResults(sections: Array<{ title: string; figures: Figure[] }>, dir = 'bench/results'): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/figures.md`, markdown(sections, today()));
  writeFileSync(`${dir}/figures.svg`, svg(sections));
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A cached wallet's cost by ledger size (bench/ledger-memory.ts): its table, then `notes` (each
 * size's raw slopes, how the machine was shared), as bench/results/ledger-memory.md.
 */
export function writeLedgerResults(figures: Figure[], notes: string[], dir = 'bench/results'): void {
  mkdirSync(dir, { recursive: true });
  const table = markdown(
    [{ title: 'a cached wallet by its ledger', figures }],
    today(),
    'A cached wallet by ledger size',
  );
  writeFileSync(`${dir}/ledger-memory.md`, [table, ...notes, ''].join('\n'));
}
