import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { SERVER_VERSION, UI_VERSION } from '../../scripts/lib/go-tools.js';
import { POSTGRES_MAJOR } from '../../scripts/lib/postgres.js';
import { loadConfig } from '../../src/config.js';
import { healthcheckUrl } from '../../src/healthcheck.js';
import { DYNAMIC_CONFIG } from '../../src/temporal/dev-server.js';
import { allSearchAttributes } from '../../src/temporal/search-attributes.js';

// No Docker engine runs on these machines: this checks what can be checked without one, that
// docker-compose.yml and the Dockerfile agree with the code they deploy and with what
// `npm run cluster` and test/cluster/production-build.test.ts prove on this machine.
type Service = {
  ports?: string[];
  image?: string;
  build?: string | { context: string; target: string };
  command?: string[] | string;
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  stop_grace_period?: string;
  healthcheck?: { disable?: boolean };
};
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const s = compose.services;
/**
 * Temporal's services, a container each from our build of the server (its image with the authorizer);
 * `temporal` is their load balancer. The internal frontend serves the server's own system worker.
 */
const TEMPORAL_SERVICES = [
  'temporal-history',
  'temporal-history-2',
  'temporal-matching',
  'temporal-matching-2',
  'temporal-frontend',
  'temporal-frontend-2',
  'temporal-worker',
  'temporal-internal-frontend',
];
const serverDockerfile = readFileSync('deploy/temporal/server/Dockerfile', 'utf8');
const dockerfile = readFileSync('Dockerfile', 'utf8');
const seconds = (d: string) => Number(/^(\d+)s$/.exec(d)?.[1]);
// The final stage's environment and command: what a container of the image starts with.
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const imageEnv = Object.fromEntries([...runtimeStage.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
const imageCmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtimeStage)![1]!) as string[];

describe('docker-compose.yml and the Dockerfile', () => {
  it("runs Temporal on PostgreSQL with Temporal's maintained images at the versions tested here, no auto-setup", () => {
    assert.equal(s.postgresql!.image, `postgres:${POSTGRES_MAJOR}`);
    for (const name of TEMPORAL_SERVICES) {
      assert.equal(s[name]!.build, './deploy/temporal/server', `${name}: our build with the authorizer`);
      assert.equal(s[name]!.image, `payflows/temporal-server:${SERVER_VERSION.slice(1)}`, name);
    }
    // Our build: the module of the server at the version tested, onto Temporal's image of it.
    assert.match(serverDockerfile, new RegExp(`^ARG SERVER_IMAGE=temporalio/server:${SERVER_VERSION.slice(1)}$`, 'm'));
    assert.match(serverDockerfile, /^FROM \$\{SERVER_IMAGE\}$/m);
    assert.match(serverDockerfile, /^COPY --from=build \/out\/temporal-server \/usr\/local\/bin\/temporal-server$/m);
    assert.match(
      readFileSync('deploy/temporal/server/go.mod', 'utf8'),
      new RegExp(`go\\.temporal\\.io/server ${SERVER_VERSION.replace(/\./g, '\\.')}\\b`),
    );
    assert.equal(s['temporal-schema']!.image, `temporalio/admin-tools:${SERVER_VERSION.slice(1)}`);
    assert.equal(s['temporal-namespace']!.image, `temporalio/admin-tools:${SERVER_VERSION.slice(1)}`);
    assert.equal(s['temporal-ui']!.image, `temporalio/ui:${UI_VERSION.slice(1)}`);
    assert.ok(
      Object.values(s).every((svc) => !svc.image?.includes('auto-setup')),
      'the deprecated auto-setup image is gone',
    );
  });

  it('configures the server with the same file and setup script that `npm run cluster` runs', () => {
    for (const name of TEMPORAL_SERVICES) {
      assert.deepEqual(s[name]!.entrypoint, ['sh', '/etc/temporal/payflows/start-service.sh'], name);
      assert.deepEqual(s[name]!.command, [name.replace(/^temporal-|-2$/g, '')], name);
      assert.ok(s[name]!.volumes!.includes('./deploy/temporal:/etc/temporal/payflows:ro'), name);
      assert.deepEqual(s[name]!.depends_on, {
        'temporal-visibility-indexes': { condition: 'service_completed_successfully' },
        certificates: { condition: 'service_completed_successfully' },
      });
      assert.equal(s[name]!.environment!.DYNAMIC_CONFIG_FILE_PATH, '/etc/temporal/payflows/dynamicconfig.yaml');
      assert.equal(s[name]!.environment!.TEMPORAL_CLUSTER_ADDRESS, 'temporal:7233', 'the load balancer');
    }
    for (const name of ['temporal-schema', 'temporal-visibility-indexes', 'temporal-namespace'])
      assert.ok(s[name]!.volumes!.includes('./deploy/temporal:/etc/temporal/payflows:ro'), name);
    assert.deepEqual(s['temporal-schema']!.entrypoint, ['sh', '/etc/temporal/payflows/setup.sh', 'schema']);
    // The indexes after the schema, in the image whose psql matches the server's major version.
    assert.deepEqual(s['temporal-visibility-indexes']!.entrypoint, [
      'sh',
      '/etc/temporal/payflows/setup.sh',
      'indexes',
    ]);
    assert.equal(s['temporal-visibility-indexes']!.image, s.postgresql!.image);
    assert.deepEqual(s['temporal-visibility-indexes']!.depends_on, {
      'temporal-schema': { condition: 'service_completed_successfully' },
    });
    const [shell, flag, line] = s['temporal-namespace']!.entrypoint!;
    assert.deepEqual([shell, flag], ['sh', '-c']);
    assert.match(line!, /sh \/etc\/temporal\/payflows\/setup\.sh namespace/);
  });

  it("sets the namespace up with the admin's token from its file, and deletes the file once done", () => {
    // The entrypoint's line as the container's shell runs it (compose's $$ is a $), with a `temporal`
    // CLI that records each call's API key, and the token file where the admin-token service writes it.
    const dir = mkdtempSync(join(tmpdir(), 'payflows-namespace-'));
    writeFileSync(join(dir, 'temporal'), '#!/bin/sh\necho "$TEMPORAL_API_KEY $1 $2" >> "$CALLS"\n', { mode: 0o755 });
    writeFileSync(join(dir, 'token'), 'admin-token-0123');
    const line = s['temporal-namespace']!.entrypoint![2]!.replaceAll('$$', '$')
      .replaceAll('/etc/temporal/payflows/', 'deploy/temporal/')
      .replaceAll('/run/payflows-admin/', `${dir}/`);
    const run = spawnSync('sh', ['-c', line], {
      encoding: 'utf8',
      env: { PATH: `${dir}:${process.env.PATH}`, CALLS: join(dir, 'calls'), TEMPORAL_ADDRESS: 'temporal:7233' },
    });
    assert.equal(run.status, 0, run.stderr);
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    assert.deepEqual(calls, [
      'admin-token-0123 operator cluster',
      'admin-token-0123 operator namespace',
      'admin-token-0123 operator namespace',
      'admin-token-0123 operator search-attribute',
    ]);
    assert.throws(() => readFileSync(join(dir, 'token')), /ENOENT/, 'the token file is gone');
    rmSync(dir, { recursive: true });
  });

  it("starts one service per container, announcing the container's address, and refuses a service it does not know", () => {
    // The script with a temporal-server that prints what it was given (the image's is the server).
    const bin = mkdtempSync(join(tmpdir(), 'payflows-start-service-'));
    writeFileSync(join(bin, 'temporal-server'), '#!/bin/sh\necho "$TEMPORAL_BROADCAST_ADDRESS $*"\n', { mode: 0o755 });
    const run = (service: string) =>
      spawnSync('sh', ['deploy/temporal/start-service.sh', service], {
        encoding: 'utf8',
        env: { PATH: `${bin}:${process.env.PATH}` },
      });
    const started = run('history');
    assert.equal(started.status, 0, started.stderr);
    const [address, ...args] = started.stdout.trim().split(' ');
    assert.equal(address, execFileSync('hostname', ['-i'], { encoding: 'utf8' }).trim());
    assert.deepEqual(args, [
      '--root',
      '/',
      '--config',
      'etc/temporal/payflows',
      '--env',
      'production',
      'start',
      '--service=history',
    ]);
    const internal = run('internal-frontend');
    assert.equal(internal.status, 0, internal.stderr);
    assert.match(internal.stdout, / start --service=internal-frontend$/m);
    const refused = run('histroy');
    assert.equal(refused.status, 2);
    assert.match(
      refused.stderr,
      /no Temporal service named histroy \(frontend, history, matching, worker or internal-frontend\)/,
    );
    assert.equal(refused.stdout, '', 'nothing started');
    rmSync(bin, { recursive: true });
  });

  it('puts the load balancer of `npm run cluster` (the same HAProxy configuration) in front of the two frontends, where clients connect', () => {
    const lb = s.temporal!;
    assert.match(lb.image!, /^haproxy:2\.6$/, "Debian 12's HAProxy, as npm run cluster runs it");
    assert.ok(lb.volumes!.includes('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'));
    const env = lb.environment!;
    assert.deepEqual(
      [env.TEMPORAL_FRONTEND_1, env.TEMPORAL_FRONTEND_2],
      ['temporal-frontend:7233', 'temporal-frontend-2:7233'],
    );
    assert.equal(env.TEMPORAL_LB_BIND, ':7233');
    for (const [name, svc] of Object.entries(s).filter(([, svc]) => svc.environment?.TEMPORAL_ADDRESS))
      assert.equal(svc.environment!.TEMPORAL_ADDRESS, 'temporal:7233', `${name} connects through the load balancer`);
    const config = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8');
    for (const name of Object.keys(env))
      assert.match(config, new RegExp(`\\$\\{${name}\\}|defined\\(${name}\\)`), `${name} is read`);
  });

  it('refuses the visibility index step without the database to run it on, naming what is missing', () => {
    const run = spawnSync('sh', ['deploy/temporal/setup.sh', 'indexes'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /POSTGRES_SEEDS/);
  });

  it('registers exactly the search attributes the workflows set', () => {
    const script = readFileSync('deploy/temporal/setup.sh', 'utf8');
    const registered = [...script.matchAll(/--name (\w+) --type (\w+)/g)].map((m) => `${m[1]}=${m[2]}`).sort();
    const typeNames: Record<string, string> = { KEYWORD: 'Keyword', BOOL: 'Bool' };
    assert.deepEqual(registered, allSearchAttributes.map((k) => `${k.name}=${typeNames[k.type]}`).sort());
  });

  it('gives the server the dynamic config that the dev server gets', () => {
    const config = parse(readFileSync('deploy/temporal/dynamicconfig.yaml', 'utf8')) as Record<
      string,
      Array<{ value: unknown }>
    >;
    for (const entry of DYNAMIC_CONFIG) {
      const [key, value] = entry.split('=') as [string, string];
      assert.deepEqual(config[key], [{ value: JSON.parse(value) }], key);
    }
  });

  it('gives every process that encrypts or decrypts payloads the key from the same place', () => {
    const users = Object.entries(s).filter(
      ([, svc]) => svc.environment?.TEMPORAL_ADDRESS !== undefined && svc.build !== undefined,
    );
    assert.deepEqual(users.map(([n]) => n).sort(), ['codec-server', 'ingress', 'worker']);
    const keys = new Set(users.map(([, svc]) => svc.environment!.PAYLOAD_ENCRYPTION_KEY));
    assert.equal(keys.size, 1);
    assert.match(
      [...keys][0]!,
      /^\$\{PAYLOAD_ENCRYPTION_KEY:\?/,
      'from .env, required: no process makes a key of its own',
    );
    assert.match(readFileSync('.env.example', 'utf8'), /^PAYLOAD_ENCRYPTION_KEY=$/m);
  });

  it("connects to Temporal over TLS on the stack's CA; the worker and the ingress with the services' token", () => {
    // The certificates volume's CA, as a file the settings can read.
    const volume = mkdtempSync(join(tmpdir(), 'payflows-compose-certs-'));
    writeFileSync(join(volume, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    const withTokens: string[] = [];
    for (const [name, svc] of Object.entries(s).filter(([, svc]) => svc.environment?.TEMPORAL_ADDRESS && svc.build)) {
      const temporal = Object.fromEntries(
        Object.entries(svc.environment!)
          .filter(([k]) => k.startsWith('TEMPORAL_'))
          .map(([k, v]) => [k, v.replace(/^\/certs\//, `${volume}/`)]),
      );
      const config = loadConfig(temporal).temporal;
      assert.ok(config.connection.tls, `${name}: TLS`);
      if (config.serviceToken) withTokens.push(name);
    }
    assert.deepEqual(withTokens.sort(), ['ingress', 'worker'], 'the codec server never calls Temporal');
    rmSync(volume, { recursive: true });
  });

  it('Prometheus scrapes the ingress on its operations port, which is not published: the callback port is the public door', () => {
    const scrape = parse(readFileSync('deploy/prometheus/prometheus.yml', 'utf8')) as {
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    const ingressJob = scrape.scrape_configs.find((j) => j.job_name === 'payflows-ingress')!;
    const opsPort = s.ingress!.environment!.INGRESS_OPS_PORT!;
    assert.deepEqual(ingressJob.static_configs[0]!.targets, [`ingress:${opsPort}`]);
    assert.equal(s.ingress!.environment!.INGRESS_OPS_HOST, '0.0.0.0');
    assert.ok(!s.ingress!.ports!.some((p) => p.includes(opsPort)), 'the operations port is not published');
  });

  it('takes every secret from .env and documents each in .env.example', () => {
    const text = readFileSync('docker-compose.yml', 'utf8');
    const required = [...new Set([...text.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!))].sort();
    assert.deepEqual(required, [
      'CLAIM_ENCRYPTION_KEY',
      'CODEC_SERVER_TOKEN',
      'GRAFANA_ADMIN_PASSWORD',
      'INGRESS_PUBLIC_URL',
      'INGRESS_PUBLISH_ADDRESS',
      'PAYLOAD_ENCRYPTION_KEY',
      'POSTGRES_PASSWORD',
      'PROVIDER_ACCOUNT_ID',
      'PROVIDER_API_KEY',
      'PROVIDER_SECRET_KEY',
      'STAND_IN_ADMIN_PASSWORD',
      'STAND_IN_OPERATOR_PASSWORD',
      'STAND_IN_READER_PASSWORD',
      'STAND_IN_READER_WITHOUT_DECODE_PASSWORD',
      'TEMPORAL_ADMIN_CLIENT_SECRET',
      'TEMPORAL_SERVICES_CLIENT_SECRET',
      'TEMPORAL_UI_CLIENT_SECRET',
    ]);
    const example = readFileSync('.env.example', 'utf8');
    for (const name of required) assert.match(example, new RegExp(`^${name}=`, 'm'), name);
    assert.doesNotMatch(text, /PASSWORD: temporal\b|POSTGRES_PWD: temporal\b/, 'no password written in the file');
  });

  it("the Web UI decodes through the codec server's TLS front, at the address the browser uses, with the signed-in user's token", () => {
    const ui = s['temporal-ui']!.environment!;
    assert.equal(ui.TEMPORAL_CODEC_ENDPOINT, 'https://127.0.0.1:4030');
    assert.equal(s['codec-server']!.ports, undefined, 'reached through its TLS front only');
    assert.deepEqual(s['codec-tls-front']!.ports, ['127.0.0.1:4030:4030']);
    assert.ok(
      s['codec-tls-front']!.volumes!.includes(
        './deploy/compose/codec-tls-front.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro',
      ),
    );
    const codec = s['codec-server']!.environment!;
    assert.equal(codec.CODEC_SERVER_PUBLISHED_ON_LOOPBACK, undefined, 'the setting is gone');
    assert.ok(codec.CODEC_SERVER_ALLOWED_ORIGINS!.split(',').includes(ui.TEMPORAL_CORS_ORIGINS!));
    // Users decode with their own access token, verified on the issuer the UI signs them in at;
    // the shared token, from .env, stays for the CLI and POST /claims; no /session cookie.
    assert.equal(ui.TEMPORAL_CODEC_PASS_ACCESS_TOKEN, 'true');
    assert.equal(ui.TEMPORAL_CODEC_INCLUDE_CREDENTIALS, undefined);
    assert.equal(codec.CODEC_SERVER_OIDC_ISSUER, ui.TEMPORAL_AUTH_PROVIDER_URL);
    assert.match(codec.CODEC_SERVER_TOKEN!, /^\$\{CODEC_SERVER_TOKEN:\?/);
  });

  it("publishes Temporal, the UI, the codec server and the sandbox on the host's loopback only; the ingress is the public door", () => {
    for (const name of ['temporal', 'temporal-ui', 'codec-tls-front', 'idp', 'sandbox'])
      for (const p of s[name]!.ports ?? []) assert.match(p, /^127\.0\.0\.1:/, `${name} ${p}`);
    // The public door, published where .env says: no default, loopback or open, is taken silently.
    assert.deepEqual(s.ingress!.ports, ['${INGRESS_PUBLISH_ADDRESS:?set INGRESS_PUBLISH_ADDRESS in .env}:4020:4020']);
    assert.equal(s.ingress!.environment!.INGRESS_HOST, '0.0.0.0', "the container's interfaces");
    for (const name of [
      'postgresql',
      'worker',
      'codec-server',
      'certificates',
      'admin-token',
      'temporal-schema',
      'temporal-namespace',
      ...TEMPORAL_SERVICES,
    ])
      assert.equal(s[name]!.ports, undefined, name);
  });

  it('runs the product from the compiled image (no tsx, no npm), with grace periods the orchestrator waits for', () => {
    for (const [name, entry] of [
      ['worker', 'dist/worker/main.js'],
      ['ingress', 'dist/src/ingress/main.js'],
      ['codec-server', 'dist/src/temporal/codec-server-main.js'],
      ['sandbox', 'dist/src/sandbox/main.js'],
    ] as const) {
      assert.deepEqual(s[name]!.command, ['node', entry], name);
      assert.equal(s[name]!.build, '.');
    }
    // The product's image runs compiled code; only compose's one-shot helpers (certificates, the
    // admin's token) run sources with tsx, from the Dockerfile's compose-tools stage.
    for (const [name, svc] of Object.entries(s))
      if (JSON.stringify(svc).match(/tsx|npm run/))
        assert.deepEqual(svc.build, { context: '.', target: 'compose-tools' }, `${name} runs sources`);
    assert.deepEqual(
      Object.entries(s)
        .filter(([, svc]) => JSON.stringify(svc).includes('tsx'))
        .map(([n]) => n)
        .sort(),
      ['admin-token', 'certificates'],
    );
    assert.ok(seconds(s.worker!.stop_grace_period!) > seconds(s.worker!.environment!.WORKER_SHUTDOWN_GRACE!) + 5);
    assert.ok(seconds(s.ingress!.stop_grace_period!) > seconds(s.ingress!.environment!.INGRESS_SHUTDOWN_GRACE!));
    assert.ok(
      s.worker!.volumes!.some((v) => v.startsWith('claims:')),
      'the claim store is a volume the workers share',
    );
  });

  it("the image's HEALTHCHECK asks the /health of the process that the container runs, on the port it serves it on", () => {
    const containers: Array<[string, string[], Record<string, string>]> = [
      ["the image's default command", imageCmd, imageEnv],
    ];
    for (const [name, svc] of Object.entries(s))
      if (svc.build === '.' && !svc.healthcheck?.disable)
        containers.push([name, svc.command as string[], { ...imageEnv, ...svc.environment }]);
    assert.deepEqual(
      containers.map(([n]) => n).sort(),
      ['ingress', "the image's default command", 'worker'],
      'the others serve no /health and say so (healthcheck: disable)',
    );
    for (const [name, command, env] of containers) {
      // Only the settings that place /health: the rest are compose's ${…} placeholders.
      const config = loadConfig(
        Object.fromEntries(Object.entries(env).filter(([k]) => /^(WORKER_HEALTH_|INGRESS_(OPS_)?PORT$)/.test(k))),
      );
      const worker = command.at(-1) === 'dist/worker/main.js';
      assert.ok(worker || command.at(-1) === 'dist/src/ingress/main.js', name);
      assert.ok(!worker || config.worker.health, `${name}: the worker serves /health only with WORKER_HEALTH_PORT`);
      const url = new URL(healthcheckUrl(command, env));
      assert.equal(url.host, `127.0.0.1:${worker ? config.worker.health!.port : config.ingress.ops.port}`, name);
      assert.equal(url.pathname, '/health');
    }
    // Under tini or docker-init, the command is further along PID 1's arguments; HEALTHCHECK_URL
    // wins; without a known command (outside a container) the environment decides, as before.
    assert.equal(
      healthcheckUrl(['/sbin/docker-init', '--', '/usr/bin/tini', '--', 'node', 'dist/src/ingress/main.js'], {
        ...imageEnv,
        INGRESS_PORT: '8080',
        INGRESS_OPS_PORT: '8081',
      }),
      'http://127.0.0.1:8081/health',
    );
    assert.equal(
      healthcheckUrl(imageCmd, { ...imageEnv, HEALTHCHECK_URL: 'http://127.0.0.1:1/ready' }),
      'http://127.0.0.1:1/ready',
    );
    assert.throws(() => healthcheckUrl(imageCmd, {}), /WORKER_HEALTH_PORT/);
    assert.equal(healthcheckUrl(['/sbin/init'], { INGRESS_OPS_PORT: '4031' }), 'http://127.0.0.1:4031/health');
    assert.equal(healthcheckUrl(['/sbin/init'], {}), 'http://127.0.0.1:4021/health', 'the default operations port');
  });

  it('the image: multi-stage on a pinned Node LTS, production dependencies only, non-root, tini, a HEALTHCHECK', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)\.\d+\.\d+-bookworm-slim$/m.exec(dockerfile);
    assert.ok(image && Number(image[1]) % 2 === 0 && Number(image[1]) >= 22, 'an even (LTS) Node major, 22 or later');
    assert.deepEqual(
      [...dockerfile.matchAll(/^FROM (.*)$/gm)].map((m) => m[1]),
      ['${NODE_IMAGE} AS build', 'build AS compose-tools', '${NODE_IMAGE} AS runtime'],
      'the runtime stage is on the Node image alone, last (the default target)',
    );
    assert.match(dockerfile, /RUN npm run build/);
    assert.match(dockerfile, /npm ci --omit=dev/);
    assert.match(dockerfile, /^USER node$/m);
    assert.match(dockerfile, /^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    assert.match(dockerfile, /^HEALTHCHECK .*dist\/src\/healthcheck\.js/m);
    assert.match(dockerfile, /^CMD \["node", "dist\/worker\/main\.js"\]$/m);
    assert.doesNotMatch(runtimeStage, /tsx/);
  });
});
