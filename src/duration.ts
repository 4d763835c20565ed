// Durations in configuration and workflow inputs: "500ms", "30s", "5m", "2h", "1d", or plain milliseconds.
// Pure (no Node built-ins) so that workflows can use it too.
const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`duration must be a positive number of milliseconds, got ${value}`);
    return value;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (!match) throw new Error(`"${value}" is not a duration; use e.g. 500ms, 30s, 5m, 2h, 1d`);
  const ms = Number(match[1]) * units[match[2] ?? 'ms']!;
  if (ms <= 0) throw new Error(`duration must be positive, got "${value}"`);
  return Math.round(ms);
}
