import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// The Grafana dashboards of deploy/dashboards as the tests read them: every panel's queries, the
// dashboard's variables, and Grafana's own interval variables as Grafana fills them in.

export const DASHBOARDS_DIR = 'deploy/dashboards';
const DATASOURCES = join(DASHBOARDS_DIR, 'provisioning/datasources/prometheus.yml');

export interface Target {
  refId: string;
  expr: string;
  /** The series' name in the legend: `{{label}}` is that label's value. */
  legendFormat?: string;
  datasource?: { type?: string; uid?: string };
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type?: string; uid?: string };
  targets?: Target[];
  /** Why this panel may honestly show no series after a healthy demo; its queries must still run. */
  mayBeEmpty?: string;
  panels?: Panel[];
}

export interface Variable {
  name: string;
  type: string;
  query: { query: string } | string;
  allValue?: string;
  datasource?: { type?: string; uid?: string };
}

export interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

export function loadDashboards(): Array<{ file: string; dashboard: Dashboard }> {
  return readdirSync(DASHBOARDS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      dashboard: JSON.parse(readFileSync(join(DASHBOARDS_DIR, file), 'utf8')) as Dashboard,
    }));
}

/** Every panel, rows' nested panels included, rows themselves too. */
export function allPanels(d: Dashboard): Panel[] {
  return d.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** The provisioned Prometheus data source: its uid and its scrape interval (Grafana's timeInterval). */
export function provisionedPrometheus(): { uid: string; url: string; timeInterval: string } {
  const file = parse(readFileSync(DATASOURCES, 'utf8')) as {
    datasources: Array<{ uid: string; type: string; url: string; jsonData?: { timeInterval?: string } }>;
  };
  const prometheus = file.datasources.find((d) => d.type === 'prometheus');
  if (!prometheus?.jsonData?.timeInterval)
    throw new Error(`${DATASOURCES}: a prometheus data source with jsonData.timeInterval is missing`);
  return { uid: prometheus.uid, url: prometheus.url, timeInterval: prometheus.jsonData.timeInterval };
}

function seconds(duration: string): number {
  const m = /^(\d+)(s|m|h)$/.exec(duration);
  if (!m) throw new Error(`not a duration Grafana's timeInterval takes here: ${duration}`);
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
}

/**
 * Grafana's interval variables for the dashboards' default range (the last hour): $__interval is
 * never below the data source's scrape interval, and $__rate_interval is
 * max($__interval + scrape interval, 4 × scrape interval), so that rate() sees two samples at least.
 */
export function grafanaIntervals(range = '1h'): Record<string, string> {
  const scrape = seconds(provisionedPrometheus().timeInterval);
  // About one point per pixel of a panel a thousand pixels wide.
  const interval = Math.max(scrape, Math.ceil(seconds(range) / 1000));
  return {
    __rate_interval: `${Math.max(interval + scrape, 4 * scrape)}s`,
    __interval: `${interval}s`,
    __range: `${seconds(range)}s`,
  };
}

/** `$name` and `${name}` replaced by their values; an unknown variable is an error naming it. */
export function substitute(expr: string, values: Record<string, string>): string {
  return expr.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = values[name];
    if (value === undefined) throw new Error(`no value for $${name} in ${expr}`);
    return value;
  });
}

/** A query variable's PromQL: label_values(<series>, <label>). */
export function labelValuesQuery(v: Variable): { series: string; label: string } {
  const text = typeof v.query === 'string' ? v.query : v.query.query;
  const m = /^label_values\((.+),\s*(\w+)\)$/.exec(text.trim());
  if (!m) throw new Error(`variable ${v.name}: only label_values(<series>, <label>) is read here, not ${text}`);
  return { series: m[1]!, label: m[2]! };
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression reads: not functions, labels, strings, durations or keywords. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = [...bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((name) => !PROMQL_WORDS.has(name.toLowerCase()) && !/^\d/.test(name));
  return [...new Set(names)];
}
