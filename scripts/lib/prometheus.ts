import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { answers, pollUntil, stopChild, stopOnFailure } from './child.js';
import { installDebianPackage } from './debian-package.js';

// Prometheus from Debian's package, for `npm run cluster`: a scrape job each for the workers, the
// ingress replicas and the codec server, the shipped alert rules (deploy/prometheus/alerts.yml) beside it.

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
const RULES = resolve('deploy/prometheus/alerts.yml');

/** Installs Debian's prometheus package where it is missing (CI runs as root on Debian). */
export function ensurePrometheus(log: (line: string) => void): void {
  if (existsSync(PROMETHEUS) && existsSync(PROMTOOL)) return;
  installDebianPackage('prometheus', 'Prometheus', log);
}

export interface ScrapeTargets {
  workers: string[];
  ingresses: string[];
  /** The codec server's operations port(s) (CODEC_SERVER_OPS_PORT). */
  codecServers?: string[];
  /** The Temporal server's own metrics endpoint(s). */
  temporal?: string[];
  /** Seconds between scrapes; short for tests. */
  intervalSeconds?: number;
}

/**
 * The Temporal server's processes are scraped no more often than this: each answers with thousands
 * of series, and a cluster's eight scraped every 2 s kept Prometheus at a fifth of a core.
 */
export const TEMPORAL_SCRAPE_FLOOR_SECONDS = 10;

export function prometheusConfig({
  workers,
  ingresses,
  codecServers = [],
  temporal = [],
  intervalSeconds = 15,
}: ScrapeTargets): string {
  const job = (name: string, targets: string[], everySeconds?: number) =>
    `  - job_name: ${name}\n` +
    (everySeconds !== undefined && everySeconds !== intervalSeconds ? `    scrape_interval: ${everySeconds}s\n` : '') +
    `    static_configs:\n      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]\n`;
  return [
    `global:\n  scrape_interval: ${intervalSeconds}s\n  evaluation_interval: ${intervalSeconds}s\n`,
    `rule_files:\n  - alerts.yml\n`,
    `scrape_configs:\n`,
    job('payflows-worker', workers),
    job('payflows-ingress', ingresses),
    codecServers.length ? job('payflows-codec-server', codecServers) : '',
    temporal.length ? job('temporal-server', temporal, Math.max(intervalSeconds, TEMPORAL_SCRAPE_FLOOR_SECONDS)) : '',
  ].join('');
}

export interface RunningPrometheus {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts Prometheus on loopback with its data and config under `dir`; resolves once it is ready.
 * Not ready in time, or aborted by `signal`, it is stopped before the promise rejects.
 */
export async function startPrometheus(
  opts: ScrapeTargets & { dir: string; port: number; signal?: AbortSignal },
): Promise<RunningPrometheus> {
  opts.signal?.throwIfAborted();
  mkdirSync(join(opts.dir, 'data'), { recursive: true });
  writeFileSync(join(opts.dir, 'prometheus.yml'), prometheusConfig(opts));
  copyFileSync(RULES, join(opts.dir, 'alerts.yml'));
  const logFile = join(opts.dir, 'prometheus.log');
  const log = openSync(logFile, 'a');
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(opts.dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(opts.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${opts.port}`,
    ],
    { stdio: ['ignore', log, log] },
  );
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = () => stopChild(child);
  await stopOnFailure(stop, () =>
    pollUntil(() => answers(`${url}/-/ready`, (status) => status === 200), {
      timeoutMs: 60_000,
      everyMs: 250,
      signal: opts.signal,
      failed: () =>
        child.exitCode === null ? undefined : new Error(`Prometheus exited with ${child.exitCode}; see ${logFile}`),
      timedOut: () => new Error(`Prometheus did not become ready in 60 s; see ${logFile}`),
    }),
  );
  return { url, process: child, stop };
}

/** The value of an instant query's series, by instance label. */
export async function queryByInstance(url: string, query: string): Promise<Map<string, number>> {
  const res = await request(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await res.body.json()) as {
    status: string;
    data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  if (body.status !== 'success') throw new Error(`Prometheus query failed: ${query}`);
  return new Map(body.data!.result.map((r) => [r.metric.instance ?? '', Number(r.value[1])]));
}
