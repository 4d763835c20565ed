import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { parse } from 'yaml';
import { CERT_WITH_KEY, composeCertificates } from '../../deploy/compose/certificates.js';
import { buildLocalModule, LOCAL_MODULES } from '../../scripts/lib/go-tools.js';
import { ensureHaproxy } from '../../scripts/lib/load-balancer.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';

// docker-compose.yml as `docker compose config` reads it, on a machine with no Docker engine: the
// Compose CLI's own loader (compose-go, deploy/compose-config) interpolates .env, validates the
// file against the Compose specification's schema and prints the project. It runs in the cluster
// suite, where the Go builds happen. Sign-in and authorization are read from the resolved project:
// each service's settings as the processes read them, and the stand-in provider started here from
// the configuration compose gives it, with compose's certificates (what a Docker engine would run
// is not run: none is here).

const COMPOSE = resolve('docker-compose.yml');

/** .env.example with every blank value filled, as an operator's .env would be (hex, as it says for the secrets). */
function filledEnv(dir: string): string {
  const lines = readFileSync('.env.example', 'utf8')
    .split('\n')
    .map((line) =>
      /^[A-Z_]+=$/.test(line)
        ? `${line}${/ENCRYPTION_KEY=$/.test(line) ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex')}`
        : line,
    );
  const path = join(dir, '.env');
  writeFileSync(path, lines.join('\n'));
  return path;
}

const envValue = (file: string, name: string) =>
  new RegExp(`^${name}=(.*)$`, 'm').exec(readFileSync(file, 'utf8'))![1]!;

/** Compose's certificates where the `certificates` volume (/certs) would hold them. */
const CERTS = join(mkdtempSync(join(tmpdir(), 'compose-certs-')), 'certs');

/**
 * A service's settings of one family (`TEMPORAL_`, `CODEC_SERVER_`), as loadConfig reads them,
 * with the volume's files at CERTS.
 */
const settings = (env: Record<string, string>, ...prefixes: string[]) =>
  Object.fromEntries(
    Object.entries(env)
      .filter(([k]) => prefixes.some((p) => k.startsWith(p)))
      .map(([k, v]) => [k, v.replace(/^\/certs\//, `${CERTS}/`)]),
  );

/** A published port as the loader resolves `"127.0.0.1:4030:4030"`. */
type Published = { host_ip: string; published: string; target: number };
const published = (ports: Published[] | undefined) =>
  (ports ?? []).map((p) => `${p.host_ip}:${p.published}:${p.target}`);

type Service = {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: Published[];
  networks?: Record<string, { aliases?: string[] } | null>;
  volumes?: Array<{ source?: string; target: string }>;
};
type Project = { services: Record<string, Service>; configs: Record<string, { content: string }> };
/** The issuer: the same for the browser and for the containers (docker-compose.yml's header). */
const ISSUER = 'https://idp.localhost:4040';

describe('docker-compose.yml under the Compose loader', () => {
  let binary: string;
  let dir: string;
  const config = (file: string, env: string) => spawnSync(binary, [file, env], { encoding: 'utf8' });
  before(async () => {
    binary = await buildLocalModule(LOCAL_MODULES.composeConfig, (line) => console.log(line));
    dir = mkdtempSync(join(tmpdir(), 'compose-config-'));
    composeCertificates(CERTS);
  });

  it('is valid with a filled .env, and gives the topology the docs describe', () => {
    const run = config(COMPOSE, filledEnv(dir));
    assert.equal(run.status, 0, run.stderr);
    const project = parse(run.stdout) as { services: Record<string, { image?: string }> };
    const temporal = Object.keys(project.services).filter((s) =>
      /^temporal-(frontend|history|matching|worker)/.test(s),
    );
    assert.equal(temporal.length, 7, `seven Temporal services: ${temporal.join(', ')}`);
    assert.match(project.services.temporal?.image ?? '', /^haproxy:/, 'the load balancer answers as `temporal`');
  });

  it('signs operators in: the Web UI at the provider, passing the access token to an https codec server that verifies it', () => {
    const env = filledEnv(dir);
    const { services: s } = parse(config(COMPOSE, env).stdout) as Project;
    const ui = s['temporal-ui']!.environment!;
    assert.equal(ui.TEMPORAL_AUTH_ENABLED, 'true');
    assert.equal(ui.TEMPORAL_AUTH_PROVIDER_URL, ISSUER);
    assert.equal(ui.TEMPORAL_AUTH_CLIENT_SECRET, envValue(env, 'TEMPORAL_UI_CLIENT_SECRET'));
    assert.equal(ui.TEMPORAL_CODEC_PASS_ACCESS_TOKEN, 'true');
    assert.equal(ui.TEMPORAL_AUTH_USE_ID_TOKEN_AS_BEARER, undefined, 'the access token, not the ID token');
    assert.equal(ui.TEMPORAL_CODEC_ENDPOINT, 'https://127.0.0.1:4030', 'the UI passes the token to https only');
    assert.equal(ui.TEMPORAL_CODEC_INCLUDE_CREDENTIALS, undefined, 'no /session cookie: users sign in');
    // The codec server's settings, as it reads them: the issuer and audience, the session off.
    const codecEnv = s['codec-server']!.environment!;
    const codec = loadConfig(settings(codecEnv, 'TEMPORAL_', 'CODEC_SERVER_')).codecServer;
    assert.equal(codec.oidc?.issuer, ISSUER);
    assert.equal(codec.oidc?.audience, 'api://payflows');
    assert.equal(codecEnv.TEMPORAL_OAUTH_CLIENT_SECRET, undefined, 'it never calls Temporal: no token of its own');
    // The browser reaches it through its TLS front only, on loopback.
    assert.equal(s['codec-server']!.ports, undefined);
    assert.deepEqual(published(s['codec-tls-front']!.ports), ['127.0.0.1:4030:4030']);
    assert.ok(codec.allowedHosts.includes('127.0.0.1:4030'));
  });

  it("Temporal authorizes: our build on every service, TLS and the provider's keys, an internal frontend, clients with TLS and a token", () => {
    const env = filledEnv(dir);
    const { services: s } = parse(config(COMPOSE, env).stdout) as Project;
    const servers = Object.entries(s).filter(([name]) =>
      /^temporal-(frontend|history|matching|worker|internal)/.test(name),
    );
    assert.equal(servers.length, 8);
    for (const [name, svc] of servers) {
      assert.equal(
        svc.build?.context,
        resolve('deploy/temporal/server'),
        `${name} runs our build, not the stock server`,
      );
      const e = svc.environment!;
      assert.equal(e.TEMPORAL_AUTH_JWKS_URL, `${ISSUER}/jwks`, name);
      assert.equal(e.TEMPORAL_AUTH_AUDIENCE, 'api://payflows', name);
      assert.equal(e.TEMPORAL_TLS_FRONTEND_CERT, '/certs/server.pem', name);
      assert.equal(e.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH, 'false', `${name}: callers present a token, not a certificate`);
    }
    // Temporal's own network: its services and PostgreSQL alone, with the load balancer the one way in
    // (and the provider, whose keys they read); the internal frontend takes any caller as a system admin.
    const { networks } = parse(config(COMPOSE, env).stdout) as { networks: Record<string, { internal?: boolean }> };
    assert.equal(networks['temporal-internal']?.internal, true);
    const onInternal = Object.entries(s)
      .filter(([, svc]) => svc.networks && 'temporal-internal' in svc.networks)
      .map(([name]) => name)
      .sort();
    assert.deepEqual(
      onInternal,
      [
        ...servers.map(([name]) => name),
        'idp',
        'postgresql',
        'temporal',
        'temporal-schema',
        'temporal-visibility-indexes',
      ].sort(),
    );
    for (const [name] of servers) assert.deepEqual(Object.keys(s[name]!.networks!), ['temporal-internal'], name);
    assert.deepEqual(s['temporal-internal-frontend']!.networks, { 'temporal-internal': null });
    const internal = s['temporal-internal-frontend']!;
    assert.deepEqual(internal.command, ['internal-frontend']);
    assert.equal(internal.ports, undefined, 'never published');
    const lb = s.temporal!.environment!;
    assert.ok(lb.TEMPORAL_LB_TLS, 'the load balancer passes TLS through');
    assert.ok(!Object.values(lb).some((v) => v.includes('internal')), 'nor behind the load balancer');

    // Every process that calls Temporal, as it reads its settings: TLS on the stack's CA, and the
    // services' client credentials at the provider (the writer role).
    for (const name of ['worker', 'ingress']) {
      const config = loadConfig(settings(s[name]!.environment!, 'TEMPORAL_'));
      assert.ok(config.temporal.connection.tls, `${name}: TLS`);
      assert.deepEqual(
        config.temporal.serviceToken,
        {
          tokenUrl: `${ISSUER}/token`,
          clientId: 'payflows-services',
          clientSecret: envValue(env, 'TEMPORAL_SERVICES_CLIENT_SECRET'),
        },
        name,
      );
      assert.equal(s[name]!.environment!.NODE_EXTRA_CA_CERTS, '/certs/ca.pem', `${name} trusts the provider`);
    }
    const ui = s['temporal-ui']!.environment!;
    assert.deepEqual([ui.TEMPORAL_TLS_CA, ui.TEMPORAL_TLS_SERVER_NAME], ['/certs/ca.pem', 'temporal']);
    // The namespace's set-up: an admin's token, over TLS.
    const setup = s['temporal-namespace']!;
    assert.equal(setup.environment!.TEMPORAL_TLS_SERVER_CA_CERT_PATH, '/certs/ca.pem');
    // The shell reads the token file the admin-token one-shot writes into the volume both mount.
    const tokenFile = (s['admin-token']!.command ?? []).at(-1)!;
    assert.ok(
      (setup as { entrypoint?: string[] }).entrypoint!.join(' ').includes(`TEMPORAL_API_KEY="$(cat ${tokenFile})"`),
    );
    const mounts = (name: string) => s[name]!.volumes!.map((v) => `${v.source}:${v.target}`);
    assert.ok(mounts('temporal-namespace').includes(`admin-token:${dirname(tokenFile)}`));
    assert.ok(mounts('admin-token').includes(`admin-token:${dirname(tokenFile)}`));
    assert.equal(s['admin-token']!.environment!.TEMPORAL_OAUTH_CLIENT_ID, 'payflows-admin');
  });

  it("the stand-in provider starts from the configuration compose gives it, serving https for the issuer's name with compose's certificate", async () => {
    const env = filledEnv(dir);
    const project = parse(config(COMPOSE, env).stdout) as Project;
    const options = JSON.parse(project.configs['stand-in-idp']!.content) as {
      issuer: string;
      port: number;
      host: string;
      tls: { certFile: string; keyFile: string };
      users: Array<{ username: string; permissions: string[] }>;
      webClients: Array<{ clientId: string; redirectUris: string[] }>;
    };
    assert.equal(options.issuer, ISSUER);
    // One address for the browser and the containers: a *.localhost name (loopback in browsers) that
    // is the provider's alias on compose's network, on the port it listens on and publishes on loopback.
    const issuer = new URL(ISSUER);
    const idpService = project.services.idp!;
    assert.match(issuer.hostname, /\.localhost$/);
    assert.ok(idpService.networks?.default?.aliases?.includes(issuer.hostname));
    assert.equal(options.port, Number(issuer.port));
    assert.deepEqual(published(idpService.ports), [`127.0.0.1:${issuer.port}:${issuer.port}`]);
    assert.deepEqual(
      options.users.map((u) => u.username),
      ['reader', 'reader-without-decode', 'operator', 'admin'],
    );
    assert.deepEqual(options.webClients[0]!.redirectUris, [
      `${new URL(project.services['temporal-ui']!.environment!.TEMPORAL_AUTH_CALLBACK_URL!).href}`,
    ]);
    // Compose's certificates where the volume would hold them, and a free port in place of 4040.
    const certs = CERTS;
    const port = await freePort();
    const file = join(dir, 'stand-in-idp.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...options,
        host: '127.0.0.1',
        port,
        tls: { certFile: join(certs, 'server.pem'), keyFile: join(certs, 'server.key') },
      }),
    );
    const idp = spawn(process.execPath, ['--import', 'tsx', 'src/stand-in-idp/main.ts', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      idp.stdout.on('data', (d: Buffer) => (out += d.toString()));
      while (!out.includes('stand-in identity provider listening')) await once(idp.stdout, 'data');
      // The services' client, with .env's secret, by the issuer's name (as a container reaches it).
      const secret = envValue(env, 'TEMPORAL_SERVICES_CLIENT_SECRET');
      const token = await new Promise<string>((done, fail) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            servername: 'idp.localhost',
            path: '/token',
            method: 'POST',
            ca: readFileSync(join(certs, 'ca.pem')),
            headers: {
              authorization: `Basic ${Buffer.from(`payflows-services:${secret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => done((JSON.parse(body) as { access_token: string }).access_token));
          },
        );
        req.on('error', fail);
        req.end('grant_type=client_credentials');
      });
      const claims = decodeJwt(token);
      assert.equal(claims.iss, ISSUER, 'the issuer Temporal and the codec server expect');
      assert.equal(claims.aud, 'api://payflows');
      assert.deepEqual(claims.permissions, ['default:write']);
    } finally {
      idp.kill();
    }
  });

  it("the codec server's TLS front: HAProxy (the major of compose's image) takes its configuration and compose's certificate", () => {
    const certs = CERTS;
    const cfg = join(dir, 'codec-tls-front.cfg');
    writeFileSync(
      cfg,
      readFileSync('deploy/compose/codec-tls-front.cfg', 'utf8').replace(
        `/certs/${CERT_WITH_KEY}`,
        join(certs, CERT_WITH_KEY),
      ),
    );
    const check = spawnSync(ensureHaproxy(console.log), ['-c', '-f', cfg], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout + check.stderr, /Configuration file is valid/);
  });

  it('refuses to run without its secrets, naming each variable', () => {
    const run = config(COMPOSE, resolve('.env.example'));
    assert.equal(run.status, 1);
    for (const name of [
      'POSTGRES_PASSWORD',
      'PAYLOAD_ENCRYPTION_KEY',
      'CODEC_SERVER_TOKEN',
      'GRAFANA_ADMIN_PASSWORD',
      'TEMPORAL_UI_CLIENT_SECRET',
      'TEMPORAL_SERVICES_CLIENT_SECRET',
      'TEMPORAL_ADMIN_CLIENT_SECRET',
    ])
      assert.match(run.stderr, new RegExp(`required variable ${name} is missing a value: set ${name} in \\.env`));
    assert.equal(run.stdout, '');
    // The stand-in's configuration is one value: compose names its first blank, then the next once that is set.
    const env = join(dir, 'stand-in.env');
    let text = readFileSync('.env.example', 'utf8');
    for (const name of [
      'STAND_IN_READER_PASSWORD',
      'STAND_IN_READER_WITHOUT_DECODE_PASSWORD',
      'STAND_IN_OPERATOR_PASSWORD',
      'STAND_IN_ADMIN_PASSWORD',
    ]) {
      writeFileSync(env, text);
      const refused = config(COMPOSE, env);
      assert.equal(refused.status, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `configs\\.stand-in-idp\\.content: required variable ${name} is missing a value: set ${name} in \\.env`,
        ),
      );
      text = text.replace(new RegExp(`^${name}=$`, 'm'), `${name}=${randomBytes(12).toString('hex')}`);
    }
  });

  it('refuses a file the Compose specification does not allow, naming the field', () => {
    const broken = join(dir, 'docker-compose.yml');
    writeFileSync(
      broken,
      readFileSync(COMPOSE, 'utf8').replace(
        /^services:/m,
        'services:\n  oops:\n    image: x\n    restart_policy: always',
      ),
    );
    const run = config(broken, filledEnv(dir));
    assert.equal(run.status, 1);
    assert.match(run.stderr, /validating .*: services\.oops\.restart_policy/);
  });
});
