import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { ensurePrometheus, PROMTOOL } from '../../scripts/lib/prometheus.js';
import type { Registry } from 'prom-client';
import { createCodecServerMetrics } from '../../src/telemetry/codec-server-metrics.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../../src/telemetry/runtime.js';
import {
  allPanels,
  grafanaIntervals,
  labelValuesQuery,
  loadDashboards,
  metricNames,
  provisionedPrometheus,
  substitute,
} from '../helpers/dashboards.js';

// The dashboards of deploy/dashboards, without a server: each names the provisioned Prometheus on
// every panel, its panel ids are its own, its queries parse (promtool), and every metric they read
// is one that our code defines or the Temporal SDK's core exports under our Runtime's options.
// Whether the queries return series is test/cluster/dashboards.test.ts's question.

const dashboards = loadDashboards();

/** Names as a Prometheus exposition shows them, for a metric of `kind` called `name`. */
function exposed(name: string, kind: 'counter' | 'histogram' | 'gauge' | 'summary'): string[] {
  if (kind === 'histogram') return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (kind === 'summary') return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

/** The worker's own metrics: every createCounter/createHistogram/createGauge of our source. */
function workerMetricNames(): string[] {
  const files = ['src', 'workflows', 'worker', 'activities'].flatMap((dir) =>
    (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f)),
  );
  const names: string[] = [];
  for (const file of files)
    for (const m of readFileSync(file, 'utf8').matchAll(/\bcreate(Counter|Histogram|Gauge)\(\s*'(\w+)'/g)) {
      const kind = m[1]!.toLowerCase() as 'counter' | 'histogram' | 'gauge';
      // The worker's Runtime exports them with its options, as it does the SDK's (sdkMetricNames).
      names.push(...exposed(kind === 'counter' && runtimeExport().countersTotalSuffix ? `${m[2]}_total` : m[2]!, kind));
    }
  return names;
}

/** The metrics of a process that serves a prom-client registry (the ingress, the codec server), as it exposes them. */
async function registryMetricNames({ registry }: { registry: Registry }): Promise<string[]> {
  const text = await registry.metrics();
  return [...text.matchAll(/^# TYPE (\w+) (counter|histogram|gauge|summary)$/gm)].flatMap((m) =>
    exposed(m[1]!, m[2] as 'counter' | 'histogram' | 'gauge' | 'summary'),
  );
}

/** How the worker's Runtime exports metrics (src/telemetry/runtime.ts). */
function runtimeExport() {
  const options = workerRuntimeOptions({
    logger: createLogger({ service: 'test', level: 'silent' }),
    metricsBindAddress: '127.0.0.1:0',
  });
  const metrics = options.telemetryOptions?.metrics;
  const prometheus = metrics && 'prometheus' in metrics ? metrics.prometheus : undefined;
  assert.ok(prometheus, 'the worker exports its metrics to Prometheus');
  return {
    prefix: metrics && 'metricPrefix' in metrics && metrics.metricPrefix ? metrics.metricPrefix : undefined,
    countersTotalSuffix: prometheus.countersTotalSuffix ?? false,
    unitSuffix: prometheus.unitSuffix ?? false,
    useSecondsForDurations: prometheus.useSecondsForDurations ?? false,
  };
}

/**
 * The SDK's metrics, read from the source of the core that our @temporalio/core-bridge ships:
 * each `meter.<kind>(MetricParameters { name: … })`, named as the Runtime's options export it.
 */
function sdkMetricNames(): string[] {
  const core = join(
    dirname(createRequire(import.meta.url).resolve('@temporalio/core-bridge/package.json')),
    'sdk-core',
  );
  const files = [
    'crates/common/src/telemetry.rs',
    'crates/common/src/telemetry/metrics.rs',
    'crates/sdk-core/src/telemetry/metrics.rs',
    'crates/client/src/metrics.rs',
  ].map((f) => readFileSync(join(core, f), 'utf8'));
  const source = files.join('\n');
  const constants = new Map(
    [...source.matchAll(/\b([A-Z][A-Z0-9_]*): &str =\s*"(\w+)"/g)].map((m) => [m[1]!, m[2]!] as const),
  );
  const { prefix, countersTotalSuffix, unitSuffix, useSecondsForDurations } = runtimeExport();
  const metricPrefix = prefix ?? constants.get('METRIC_PREFIX');
  assert.ok(metricPrefix, 'the core names its default metric prefix (METRIC_PREFIX)');
  const names: string[] = [];
  for (const m of source.matchAll(/\b(\w+)\(MetricParameters \{\s*name: (?:"(\w+)"|([A-Z][A-Z0-9_]*))\.into\(\)/g)) {
    const [, constructor, literal, constant] = m;
    const base = `${metricPrefix}${literal ?? constants.get(constant!)}`;
    assert.ok(literal ?? constants.get(constant!), `the core's constant ${constant} is found`);
    if (/counter/.test(constructor!)) names.push(countersTotalSuffix ? `${base}_total` : base);
    else if (/histogram/.test(constructor!)) {
      const unit = useSecondsForDurations ? 'seconds' : 'milliseconds';
      names.push(...exposed(unitSuffix ? `${base}_${unit}` : base, 'histogram'));
    } else if (/gauge/.test(constructor!)) names.push(base);
    else assert.fail(`a core metric made by ${constructor}: say how it is exported`);
  }
  return names;
}

describe('the Grafana dashboards (deploy/dashboards)', () => {
  let known: Set<string>;
  before(async () => {
    // `up` is Prometheus's own, for every target it scrapes.
    known = new Set([
      ...workerMetricNames(),
      ...(await registryMetricNames(createIngressMetrics())),
      ...(await registryMetricNames(createCodecServerMetrics())),
      ...sdkMetricNames(),
      'up',
    ]);
  });

  it('the names read from the code include those a live worker, ingress and codec server are known to export', () => {
    // What test/integration/{worker,ingress,codec-server}-metrics.test.ts and the alert rules' tests scrape.
    for (const name of [
      'temporal_workflow_task_execution_latency_bucket',
      'temporal_sticky_cache_total_forced_eviction_total',
      'temporal_workflow_task_execution_failed_total',
      'temporal_num_pollers',
      'payflows_processes_finished_total',
      'payflows_provider_call_seconds_bucket',
      'payflows_callbacks_total',
      'payflows_codec_server_requests_total',
      'payflows_codec_server_request_seconds_bucket',
    ])
      assert.ok(known.has(name), name);
  });

  it('are two or more, each with its own uid, every panel id its own within its dashboard', () => {
    assert.ok(dashboards.length >= 2, dashboards.map((d) => d.file).join(', '));
    assert.equal(new Set(dashboards.map((d) => d.dashboard.uid)).size, dashboards.length, 'uids');
    for (const { file, dashboard } of dashboards) {
      const ids = allPanels(dashboard).map((p) => p.id);
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      assert.deepEqual(repeated, [], `${file}: panel ids used twice`);
      assert.ok(
        ids.every((id) => Number.isInteger(id)),
        `${file}: every panel has an id`,
      );
    }
  });

  it('every panel with queries, each query and each variable reads the provisioned Prometheus', () => {
    const { uid } = provisionedPrometheus();
    for (const { file, dashboard } of dashboards) {
      for (const panel of allPanels(dashboard).filter((p) => p.type !== 'row')) {
        const where = `${file}: panel ${panel.id} "${panel.title}"`;
        assert.ok(panel.targets?.length, `${where} has no query`);
        assert.deepEqual(panel.datasource, { type: 'prometheus', uid }, where);
        for (const t of panel.targets!)
          assert.deepEqual(t.datasource, { type: 'prometheus', uid }, `${where} ${t.refId}`);
        if (panel.mayBeEmpty !== undefined)
          assert.ok(panel.mayBeEmpty.trim().length > 20, `${where}: mayBeEmpty says why in words`);
      }
      for (const v of dashboard.templating.list)
        assert.deepEqual(v.datasource, { type: 'prometheus', uid }, `${file}: variable ${v.name}`);
    }
  });

  it('reads only metrics that our code defines or the SDK exports, by the names our processes export', () => {
    for (const { file, dashboard } of dashboards) {
      const queries = [
        ...allPanels(dashboard).flatMap((p) =>
          (p.targets ?? []).map((t) => ({ where: `panel ${p.id} "${p.title}" ${t.refId}`, expr: t.expr })),
        ),
        ...dashboard.templating.list.map((v) => ({ where: `variable ${v.name}`, expr: labelValuesQuery(v).series })),
      ];
      for (const { where, expr } of queries) {
        const names = metricNames(expr);
        assert.ok(names.length > 0, `${file}: ${where} reads no metric: ${expr}`);
        for (const name of names) assert.ok(known.has(name), `${file}: ${where} reads ${name}, which nothing exports`);
      }
    }
  });

  it('every alert a panel or docs/dashboards.md names is one of deploy/prometheus/alerts.yml', () => {
    const rules = parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string }> }>;
    };
    const alerts = new Set(rules.groups.flatMap((g) => g.rules.map((r) => r.alert)));
    const texts = [
      ...dashboards.flatMap(({ file, dashboard }) =>
        allPanels(dashboard).map((p) => ({ where: `${file}: panel ${p.id}`, text: p.description ?? '' })),
      ),
      { where: 'docs/dashboards.md', text: readFileSync('docs/dashboards.md', 'utf8') },
    ];
    for (const { where, text } of texts)
      for (const [name] of text.matchAll(/\bPayflows[A-Z]\w+/g)) assert.ok(alerts.has(name), `${where} names ${name}`);
  });

  describe('with promtool', () => {
    before(() => ensurePrometheus((line) => console.log(`[dashboards] ${line}`)));

    it("every query parses, with Grafana's variables filled in", () => {
      const rules = dashboards.flatMap(({ dashboard }) => {
        const values: Record<string, string> = { ...grafanaIntervals() };
        for (const v of dashboard.templating.list) values[v.name] = v.allValue ?? '.*';
        return allPanels(dashboard).flatMap((p) =>
          (p.targets ?? []).map((t) => ({
            record: `dashboard:${dashboard.uid.replace(/-/g, '_')}:${p.id}:${t.refId}`,
            expr: substitute(t.expr, values),
          })),
        );
      });
      const dir = mkdtempSync(join(tmpdir(), 'payflows-dashboards-'));
      try {
        const file = join(dir, 'queries.yml');
        writeFileSync(file, stringify({ groups: [{ name: 'dashboards', rules }] }));
        const out = execFileSync(PROMTOOL, ['check', 'rules', file], { encoding: 'utf8' });
        assert.match(out, new RegExp(`SUCCESS: ${rules.length} rules found`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('docker-compose.yml provisions Grafana with them, beside a Prometheus with the shipped scrape config', () => {
    type Service = { image?: string; ports?: string[]; volumes?: string[]; depends_on?: string[] };
    const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
    };
    const { grafana, prometheus } = compose.services;
    assert.ok(grafana && prometheus, 'a grafana and a prometheus service');
    assert.ok(prometheus.volumes!.includes('./deploy/prometheus:/etc/prometheus:ro'), 'prometheus.yml and alerts.yml');
    assert.ok(grafana.volumes!.includes('./deploy/dashboards/provisioning:/etc/grafana/provisioning:ro'));
    assert.ok(grafana.volumes!.includes('./deploy/dashboards:/var/lib/grafana/dashboards:ro'));
    const provider = parse(readFileSync('deploy/dashboards/provisioning/dashboards/payflows.yml', 'utf8')) as {
      providers: Array<{ options: { path: string } }>;
    };
    assert.equal(provider.providers[0]!.options.path, '/var/lib/grafana/dashboards');
    // The data source is the compose service, on the port Prometheus listens on.
    assert.equal(new URL(provisionedPrometheus().url).host, 'prometheus:9090');
    for (const [name, svc] of Object.entries({ grafana, prometheus }))
      for (const p of svc.ports ?? []) assert.match(p, /^127\.0\.0\.1:/, `${name} ${p}: loopback only`);
  });

  it("Prometheus scrapes the codec server's operations port, which compose does not publish", () => {
    type Service = { ports?: string[]; environment?: Record<string, string> };
    const { services } = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
    };
    const codec = services['codec-server']!;
    const scrape = parse(readFileSync('deploy/prometheus/prometheus.yml', 'utf8')) as {
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    const job = scrape.scrape_configs.find((j) => j.job_name === 'payflows-codec-server');
    const opsPort = codec.environment!.CODEC_SERVER_OPS_PORT!;
    assert.deepEqual(job?.static_configs[0]!.targets, [`codec-server:${opsPort}`]);
    assert.equal(codec.environment!.CODEC_SERVER_OPS_HOST, '0.0.0.0', 'reachable from the prometheus container');
    // Published: only its TLS front's port (the codec server's own is not published at all).
    const published = Object.values(services).flatMap((svc) => svc.ports ?? []);
    assert.ok(!published.some((p) => p.includes(opsPort)), 'the operations port is not published');
  });
});
