import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { request } from 'undici';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { toWire } from '../../src/temporal/codec-server.js';
import { type ClusterDescription, clusterClientEnv, clusterDescription } from '../helpers/cluster.js';
import {
  allPanels,
  type Dashboard,
  grafanaIntervals,
  labelValuesQuery,
  loadDashboards,
  substitute,
} from '../helpers/dashboards.js';

// Every query of every panel of deploy/dashboards, against the cluster's Prometheus once `npm run
// demo` has run every process on the cluster and the codec server has decoded a page (the demo
// opens no Web UI): a query that Prometheus refuses fails, and so does one that returns no series,
// unless its panel says why it may be empty after a healthy demo (`mayBeEmpty`). Variables are filled in as Grafana would: the cluster's namespace, "All" (.*)
// for the others, $__rate_interval from the provisioned data source's scrape interval.

const DEMO_MS = 6 * 60_000;
/** Long enough for a few scrapes (every 2 s in the cluster) inside the widest rate window. */
const SERIES_WAIT_MS = 90_000;

/** An answer of Prometheus's HTTP API: a query's series, or a label's values. */
interface Answer<T> {
  status: string;
  error?: string;
  data?: T;
}

async function prometheus<T>(url: string, path: string): Promise<Answer<T>> {
  const res = await request(`${url}${path}`);
  return (await res.body.json()) as Answer<T>;
}

function runDemo(cluster: ClusterDescription): Promise<{ code: number | null; out: string }> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...clusterClientEnv(cluster),
    // The cluster's sandbox, as its client.env names it for `npm run demo`.
    SANDBOX_PORT: new URL(cluster.sandboxUrl).port,
    TEMPORAL_UI_PORT: new URL(cluster.uiUrl).port,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], { env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEMO_MS);
    child.on('error', reject);
    child.on('exit', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

/** Each variable's value as Grafana fills it in for the test: the cluster's namespace, else All. */
function variableValues(d: Dashboard, namespace: string): Record<string, string> {
  const values: Record<string, string> = { ...grafanaIntervals() };
  for (const v of d.templating.list) values[v.name] = v.name === 'namespace' ? namespace : (v.allValue ?? '.*');
  return values;
}

interface Problem {
  where: string;
  problem: string;
}

/**
 * Every panel's every query run once: what Prometheus refused or answered with series that lack a
 * label the legend names (a `by` of a label the metric does not have), and what came back empty.
 */
async function checkQueries(
  url: string,
  namespace: string,
): Promise<{ refused: Problem[]; empty: Problem[]; emptyAsAllowed: Problem[] }> {
  const refused: Problem[] = [];
  const empty: Problem[] = [];
  const emptyAsAllowed: Problem[] = [];
  for (const { file, dashboard } of loadDashboards()) {
    const values = variableValues(dashboard, namespace);
    for (const v of dashboard.templating.list) {
      const { series, label } = labelValuesQuery(v);
      const match = encodeURIComponent(substitute(series, values));
      const answer = await prometheus<string[]>(url, `/api/v1/label/${label}/values?match[]=${match}`);
      const where = `${file} (${dashboard.title}), variable $${v.name}`;
      if (answer.status !== 'success') refused.push({ where, problem: answer.error ?? answer.status });
      else if (answer.data!.length === 0 || (v.name === 'namespace' && !answer.data!.includes(namespace)))
        empty.push({
          where,
          problem: `values ${JSON.stringify(answer.data)}, the cluster's namespace is ${namespace}`,
        });
    }
    for (const panel of allPanels(dashboard))
      for (const target of panel.targets ?? []) {
        const where = `${file} (${dashboard.title}), panel ${panel.id} "${panel.title}", query ${target.refId}`;
        const expr = substitute(target.expr, values);
        const answer = await prometheus<{ result: Array<{ metric: Record<string, string> }> }>(
          url,
          `/api/v1/query?query=${encodeURIComponent(expr)}`,
        );
        const legendLabels = [...(target.legendFormat ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
        const unlabelled = answer.data?.result.find((s) => legendLabels.some((label) => !(label in s.metric)));
        if (answer.status !== 'success') refused.push({ where, problem: `${answer.error ?? answer.status}: ${expr}` });
        else if (unlabelled)
          refused.push({
            where,
            problem: `a series without a label of the legend ${target.legendFormat}: ${JSON.stringify(unlabelled.metric)} from ${expr}`,
          });
        else if (answer.data!.result.length === 0)
          (panel.mayBeEmpty ? emptyAsAllowed : empty).push({ where, problem: `no series: ${expr}` });
      }
  }
  return { refused, empty, emptyAsAllowed };
}

/**
 * What the demo does not do, as an operator's Web UI would: a page of payloads decoded through the
 * cluster's codec server with its token, and a call without the token, refused.
 */
async function decodeThroughCodecServer(cluster: ClusterDescription): Promise<void> {
  const codec = new EncryptionCodec(Buffer.from(cluster.payloadKey, 'base64'));
  const payloads = await codec.encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('1') }]);
  const decode = (headers: Record<string, string>) =>
    request(`${cluster.codecUrl}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ payloads: payloads.map(toWire) }),
    });
  const decoded = await decode({ authorization: `Bearer ${cluster.codecToken}` });
  assert.equal(decoded.statusCode, 200, `POST ${cluster.codecUrl}/decode with the token: ${await decoded.body.text()}`);
  const refused = await decode({});
  assert.equal(refused.statusCode, 401, `POST ${cluster.codecUrl}/decode without the token`);
  await refused.body.dump();
}

/** The codec server's count of `outcome` on /decode as the cluster's Prometheus last scraped it, 0 when none. */
async function decodesScraped(url: string, outcome: string): Promise<number> {
  const expr = `sum(payflows_codec_server_requests_total{route="/decode",outcome="${outcome}"})`;
  const answer = await prometheus<{ result: Array<{ value: [number, string] }> }>(
    url,
    `/api/v1/query?query=${encodeURIComponent(expr)}`,
  );
  return Number(answer.data?.result[0]?.value[1] ?? 0);
}

const listed = (problems: Problem[]) => problems.map((p) => `  ${p.where}: ${p.problem}`).join('\n');

describe('the Grafana dashboards against the cluster’s Prometheus, after the demo', () => {
  let cluster: ClusterDescription;
  before(() => {
    cluster = clusterDescription();
  });

  it(
    'runs every panel’s every query; each returns series unless its panel says why it may not',
    { timeout: DEMO_MS + SERIES_WAIT_MS + 60_000 },
    async (t) => {
      const demo = await runDemo(cluster);
      assert.equal(demo.code, 0, `npm run demo against the cluster:\n${demo.out.slice(-4000)}`);
      await decodeThroughCodecServer(cluster);

      // The demo's last series reach Prometheus with its next scrapes: wait for them, not a fixed time.
      const deadline = Date.now() + SERIES_WAIT_MS;
      let found = await checkQueries(cluster.prometheusUrl, cluster.temporal.namespace);
      while (found.empty.length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5_000));
        found = await checkQueries(cluster.prometheusUrl, cluster.temporal.namespace);
      }
      // The codec server's series are exported from zero: its panels have series without a request,
      // so the decode and the refusal are looked for themselves.
      const codecSeen = async () =>
        (await decodesScraped(cluster.prometheusUrl, 'decoded')) >= 1 &&
        (await decodesScraped(cluster.prometheusUrl, 'unauthenticated')) >= 1;
      while (!(await codecSeen()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2_000));
      assert.ok(
        await codecSeen(),
        `Prometheus (job payflows-codec-server) shows no decoded and refused /decode of the codec server at ${cluster.codecUrl}`,
      );
      t.diagnostic(`empty, as their panels allow:\n${listed(found.emptyAsAllowed)}`);
      assert.ok(
        found.refused.length + found.empty.length === 0,
        [
          found.refused.length
            ? `queries Prometheus refused, or whose series lack a label their legend names:\n${listed(found.refused)}`
            : '',
          found.empty.length
            ? `queries with no series after the demo (one that may honestly be empty says why in its panel's mayBeEmpty):\n${listed(found.empty)}`
            : '',
        ].join('\n'),
      );
    },
  );
});
