import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { parseByteSize } from '../../src/byte-size.js';
import { parseDuration } from '../../src/duration.js';
import { LIBRARY_SETTINGS } from '../../src/settings/library.js';
import { ALL_SETTINGS } from '../../src/settings/table.js';
import { goTool, TOOLS } from '../../scripts/lib/go-tools.js';
import {
  type Manifest,
  memoryQuantityBytes,
  parseManifests,
  validateManifest,
} from '../helpers/kubernetes-manifests.js';

// The Helm chart deploy/helm/payflows: `helm lint`, and `helm template` with the default values
// and with values-production.yaml, every document validated against the Kubernetes API's schemas
// (kubernetes-models), and what a deployment relies on asserted on the render. Bad values fail the
// render, naming the value. Helm is built from the Go module proxy like the Temporal tools. It
// needs no cluster; it runs in the cluster suite, where the Go builds already happen, once.

const CHART = 'deploy/helm/payflows';
const PRODUCTION = `${CHART}/values-production.yaml`;
/** What only a deployment knows: values.yaml leaves them empty and the render requires them. */
const REQUIRED = [
  'temporal.address=temporal-frontend:7233',
  'provider.baseUrl=https://provider.test',
  'provider.accountId=AC_TEST',
  'ingress.publicUrl=https://callbacks.test',
].flatMap((v) => ['--set', v]);

/** The variables that hold a secret: each must come from a Secret, never as a value. */
const SECRET_VARIABLES = [
  'PAYLOAD_ENCRYPTION_KEY',
  'PAYLOAD_PREVIOUS_KEYS',
  'CLAIM_ENCRYPTION_KEY',
  'CLAIM_PREVIOUS_KEYS',
  'PROVIDER_API_KEY',
  'PROVIDER_SECRET_KEY',
  'PROVIDER_CALLBACK_SECRETS',
  'CODEC_SERVER_TOKEN',
  'TEMPORAL_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
];
/**
 * Every variable a process reads: the settings table, those its libraries read (docs/configuration.md),
 * envconfig's server name, and Node's heap. A name outside it would be a typo that changes nothing.
 */
const KNOWN_VARIABLES = new Set([
  ...ALL_SETTINGS.map((s) => s.env),
  ...Object.keys(LIBRARY_SETTINGS).flatMap((k) => k.split(', ')),
  'TEMPORAL_TLS_SERVER_NAME',
  'NODE_OPTIONS',
]);
/** The keys each process needs at least (src/required-settings.ts). */
const NEEDED_SECRETS: Record<string, string[]> = {
  worker: ['PAYLOAD_ENCRYPTION_KEY', 'CLAIM_ENCRYPTION_KEY', 'PROVIDER_API_KEY', 'PROVIDER_SECRET_KEY'],
  ingress: ['PAYLOAD_ENCRYPTION_KEY', 'PROVIDER_SECRET_KEY'],
  'codec-server': ['PAYLOAD_ENCRYPTION_KEY', 'CODEC_SERVER_TOKEN'],
};
/** Each process's operations port and the address it listens on there (src/settings/table.ts). */
const OPS = {
  worker: { port: 'WORKER_HEALTH_PORT', host: 'WORKER_HEALTH_HOST' },
  ingress: { port: 'INGRESS_OPS_PORT', host: 'INGRESS_OPS_HOST' },
  'codec-server': { port: 'CODEC_SERVER_OPS_PORT', host: 'CODEC_SERVER_OPS_HOST' },
} as const;
type Component = keyof typeof OPS;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  args: string[];
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources: { limits: { memory: string } };
}
interface PodSpec {
  terminationGracePeriodSeconds: number;
  containers: Container[];
}

let helm: string;

function run(args: string[]) {
  const res = spawnSync(helm, args, { encoding: 'utf8' });
  if (res.error) throw res.error;
  return res;
}

function render(values: string[]): Manifest[] {
  const res = run(['template', 'payflows', CHART, ...values]);
  assert.equal(res.status, 0, `helm template ${values.join(' ')} failed:\n${res.stderr}`);
  return parseManifests(res.stdout);
}

/** A render that must fail: its message, and nothing rendered. */
function refused(values: string[]): string {
  const res = run(['template', 'payflows', CHART, ...REQUIRED, ...values]);
  assert.notEqual(res.status, 0, `helm template ${values.join(' ')} rendered, but should have failed`);
  assert.equal(res.stdout, '', 'a refused render writes no manifest');
  return res.stderr;
}

const component = (m: Manifest) => m.metadata.labels?.['app.kubernetes.io/component'];
const pick = (all: Manifest[], kind: string, which: Component) => {
  const found = all.filter((m) => m.kind === kind && component(m) === which);
  assert.equal(found.length, 1, `one ${kind} of the ${which}`);
  return found[0]!;
};
/** The worker Deployment of the image's own version (worker.previousImageTags adds others). */
const currentWorker = (all: Manifest[]) =>
  all.find((m) => m.kind === 'Deployment' && m.metadata.labels?.['payflows/worker-version'] === 'current') ??
  assert.fail('no worker Deployment of the current version');
const podOf = (deployment: Manifest) =>
  (deployment.spec.template as { metadata: { labels: Record<string, string> }; spec: PodSpec }) ?? assert.fail();
const containerOf = (deployment: Manifest) => podOf(deployment).spec.containers[0]!;
const envOf = (c: Container, name: string) => c.env.find((e) => e.name === name);
const valueOf = (c: Container, name: string) => envOf(c, name)?.value ?? assert.fail(`${c.name}: no ${name}`);
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

function checkRender(all: Manifest[]): void {
  // Every document is of a known kind and valid against its schema.
  for (const m of all) validateManifest(m);
  const workerVersions = all.filter((m) => m.kind === 'Deployment' && component(m) === 'worker').length;
  assert.ok(workerVersions >= 1, 'a worker Deployment');
  assert.deepEqual(all.map((m) => `${m.kind} ${component(m)}`).sort(), [
    'Deployment codec-server',
    'Deployment ingress',
    ...Array<string>(workerVersions).fill('Deployment worker'),
    'PodDisruptionBudget ingress',
    'PodDisruptionBudget worker',
    'Service codec-server',
    'Service ingress',
  ]);
  const deployments = Object.fromEntries(
    (Object.keys(OPS) as Component[]).map((c) => [c, c === 'worker' ? currentWorker(all) : pick(all, 'Deployment', c)]),
  ) as Record<Component, Manifest>;

  assert.ok((deployments.ingress.spec.replicas as number) > 1, 'the ingress runs more than one replica');

  // The worker sizes its cache from WORKER_MEMORY: the same bytes as its container's limit.
  const worker = containerOf(deployments.worker);
  assert.equal(
    parseByteSize(valueOf(worker, 'WORKER_MEMORY')),
    memoryQuantityBytes(worker.resources.limits.memory),
    'WORKER_MEMORY is what the memory limit gives',
  );

  for (const [name, deployment] of Object.entries(deployments) as [Component, Manifest][]) {
    const c = containerOf(deployment);
    for (const v of c.env) assert.ok(KNOWN_VARIABLES.has(v.name), `${name}: ${v.name} is no setting the product reads`);
    // Every secret variable from a Secret, by reference; the keys each process needs are there.
    for (const v of c.env.filter((e) => SECRET_VARIABLES.includes(e.name))) {
      assert.equal(v.value, undefined, `${name}: ${v.name} is written inline`);
      assert.ok(v.valueFrom?.secretKeyRef?.name && v.valueFrom.secretKeyRef.key, `${name}: ${v.name} from a Secret`);
    }
    for (const needed of NEEDED_SECRETS[name]!)
      assert.ok(envOf(c, needed)?.valueFrom?.secretKeyRef, `${name} gets ${needed} from a Secret`);

    // The heap fits in the container (the image's 640 MiB would not in a smaller one).
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(valueOf(c, 'NODE_OPTIONS'))?.[1]);
    assert.ok(heapMiB * 1024 ** 2 < memoryQuantityBytes(c.resources.limits.memory), `${name}: heap below its limit`);

    // Both probes on the operations port, where the process listens on every address.
    const opsPort = Number(valueOf(c, OPS[name].port));
    assert.equal(valueOf(c, OPS[name].host), '0.0.0.0', `${name}: its operations port is reachable by the kubelet`);
    for (const probe of [c.readinessProbe, c.livenessProbe]) {
      const port = probe?.httpGet?.port;
      const target = typeof port === 'number' ? port : c.ports.find((p) => p.name === port)?.containerPort;
      assert.equal(target, opsPort, `${name}: a probe on its operations port ${opsPort}`);
    }
  }

  // Each Deployment's selector picks its own pods and no other Deployment's (the worker has one
  // Deployment per version: overlapping selectors would make them fight over pods).
  const allDeployments = all.filter((m) => m.kind === 'Deployment');
  for (const a of allDeployments)
    for (const b of allDeployments) {
      const selector = (a.spec.selector as { matchLabels: Record<string, string> }).matchLabels;
      assert.equal(
        selects(selector, podOf(b).metadata.labels),
        a === b,
        `${a.metadata.name} selects ${b.metadata.name}`,
      );
    }

  // Each PodDisruptionBudget selects its own component's pods, of every version, and no other's.
  for (const which of ['worker', 'ingress'] as const) {
    const selector = (pick(all, 'PodDisruptionBudget', which).spec.selector as { matchLabels: Record<string, string> })
      .matchLabels;
    for (const deployment of allDeployments)
      assert.equal(
        selects(selector, podOf(deployment).metadata.labels),
        component(deployment) === which,
        `the ${which}'s PDB and ${deployment.metadata.name}`,
      );
  }
  // Each Service reaches its own pods, on a port they declare.
  for (const which of ['ingress', 'codec-server'] as const) {
    const service = pick(all, 'Service', which).spec as {
      selector: Record<string, string>;
      ports: { targetPort: string }[];
    };
    for (const [name, deployment] of Object.entries(deployments))
      assert.equal(selects(service.selector, podOf(deployment).metadata.labels), name === which);
    const ports = containerOf(deployments[which]).ports.map((p) => p.name);
    for (const p of service.ports) assert.ok(ports.includes(p.targetPort), `the ${which} Service's ${p.targetPort}`);
  }

  // The drain ends within the grace period: the worker's grace and its 5 s to cancel, the
  // ingress's pause before SIGTERM and its grace.
  const seconds = (c: Container, name: string) => parseDuration(valueOf(c, name)) / 1000;
  const workerDrain = seconds(worker, 'WORKER_SHUTDOWN_GRACE') + 5;
  assert.ok(podOf(deployments.worker).spec.terminationGracePeriodSeconds > workerDrain, 'the worker drains in time');
  const ingress = containerOf(deployments.ingress);
  const preStop = Number(ingress.lifecycle?.preStop?.exec?.command.at(-1));
  const ingressDrain = preStop + seconds(ingress, 'INGRESS_SHUTDOWN_GRACE');
  assert.ok(podOf(deployments.ingress).spec.terminationGracePeriodSeconds > ingressDrain, 'the ingress drains in time');
}

describe('the Helm chart', () => {
  before(
    async () => {
      helm = await goTool(TOOLS.helm, (line) => console.log(`[helm] ${line}`));
    },
    { timeout: 15 * 60_000 },
  );

  it('passes helm lint with the default values and the production values', () => {
    for (const values of [REQUIRED, ['-f', PRODUCTION]]) {
      const res = run(['lint', '--strict', CHART, ...values]);
      assert.equal(res.status, 0, `helm lint ${values.join(' ')}:\n${res.stdout}${res.stderr}`);
    }
  });

  it('renders valid manifests with the default values', () => {
    checkRender(render(REQUIRED));
  });

  it('renders valid manifests with the production values', () => {
    const all = render(['-f', PRODUCTION]);
    checkRender(all);
    const worker = containerOf(pick(all, 'Deployment', 'worker'));
    assert.equal(valueOf(worker, 'TEMPORAL_TLS'), 'true');
    assert.equal(valueOf(worker, 'CLAIM_STORE_URL'), 's3://payflows-claims/production');
    assert.ok(envOf(worker, 'AWS_SECRET_ACCESS_KEY')?.valueFrom?.secretKeyRef);
    const codec = containerOf(pick(all, 'Deployment', 'codec-server'));
    assert.equal(valueOf(codec, 'CODEC_SERVER_OIDC_AUDIENCE'), 'temporal');
  });

  it('keeps a worker Deployment for each earlier version still serving runs', () => {
    const all = render([...REQUIRED, '--set', 'image.tag=v2', '--set', 'worker.previousImageTags={v1.0.0}']);
    checkRender(all);
    const images = all
      .filter((m) => m.kind === 'Deployment' && component(m) === 'worker')
      .map((m) => `${containerOf(m).args.join(' ')} ${containerOf(m).image}`)
      .sort();
    assert.deepEqual(images, ['node dist/worker/main.js payflows:v1.0.0', 'node dist/worker/main.js payflows:v2']);
    assert.match(
      refused(['--set', 'image.tag=v2', '--set', 'worker.previousImageTags={v2}']),
      /worker\.previousImageTags holds v2, the image's own tag/,
    );
  });

  it('refuses a render without a Temporal address, or a sign-in without its audience', () => {
    assert.match(refused(['--set', 'temporal.address=']), /temporal\.address is required/);
    assert.match(
      refused(['--set', 'codecServer.oidc.issuer=https://idp.test']),
      /codecServer\.oidc\.audience is required with codecServer\.oidc\.issuer/,
    );
  });

  it('refuses a key written inline, naming the value', () => {
    assert.match(
      refused(['--set', 'secrets.payloadKey=c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=']),
      /secrets\.payloadKey is given inline: PAYLOAD_ENCRYPTION_KEY must come from a Secret/,
    );
    assert.match(
      refused(['--set', 'worker.env[0].name=PROVIDER_SECRET_KEY', '--set', 'worker.env[0].value=abc']),
      /worker\.env\[0\] gives PROVIDER_SECRET_KEY inline: .*Set secrets\.providerSecretKey/,
    );
    assert.match(
      refused(['--set', 'env[0].name=TEMPORAL_API_KEY', '--set', 'env[0].value=abc']),
      /env\[0\] gives TEMPORAL_API_KEY inline: .*Set temporal\.apiKey/,
    );
  });

  it('refuses a memory limit that Kubernetes and WORKER_MEMORY would read differently', () => {
    // Kubernetes reads 2048m as 2.048 bytes, the worker as 2 GiB.
    assert.match(
      refused(['--set', 'worker.resources.limits.memory=2048m']),
      /\/worker\/resources\/limits\/memory': '2048m' does not match pattern/,
    );
  });

  it('the schema check rejects a broken manifest, so that a pass means something', () => {
    const deployment = pick(render(REQUIRED), 'Deployment', 'ingress');
    assert.throws(
      () => validateManifest({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } }),
      /replicas must be integer/,
    );
    assert.throws(() => validateManifest({ ...deployment, kind: 'Deploymnet' }), /a kind the check does not know/);
    const pod = podOf(deployment);
    const misspelt = { ...containerOf(deployment), imagePullPolice: 'Always' };
    assert.throws(
      () =>
        validateManifest({
          ...deployment,
          spec: { ...deployment.spec, template: { ...pod, spec: { ...pod.spec, containers: [misspelt] } } },
        }),
      /fields the API does not define: \/spec\/template\/spec\/containers\/0\/imagePullPolice/,
    );
  });
});
