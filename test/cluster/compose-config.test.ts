import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { buildLocalModule, LOCAL_MODULES } from '../../scripts/lib/go-tools.js';

// docker-compose.yml as `docker compose config` reads it, on a machine with no Docker engine: the
// Compose CLI's own loader (compose-go, deploy/compose-config) interpolates .env, validates the
// file against the Compose specification's schema and prints the project. It runs in the cluster
// suite, where the Go builds happen.

const COMPOSE = resolve('docker-compose.yml');

/** .env.example with every blank value filled, as an operator's .env would be. */
function filledEnv(dir: string): string {
  const lines = readFileSync('.env.example', 'utf8')
    .split('\n')
    .map((line) => (/^[A-Z_]+=$/.test(line) ? `${line}${randomBytes(24).toString('base64')}` : line));
  const path = join(dir, '.env');
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('docker-compose.yml under the Compose loader', () => {
  let binary: string;
  let dir: string;
  const config = (file: string, env: string) => spawnSync(binary, [file, env], { encoding: 'utf8' });
  before(async () => {
    binary = await buildLocalModule(LOCAL_MODULES.composeConfig, (line) => console.log(line));
    dir = mkdtempSync(join(tmpdir(), 'compose-config-'));
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

  it('refuses to run without its secrets, naming each variable', () => {
    const run = config(COMPOSE, resolve('.env.example'));
    assert.equal(run.status, 1);
    for (const name of ['POSTGRES_PASSWORD', 'PAYLOAD_ENCRYPTION_KEY', 'CODEC_SERVER_TOKEN', 'GRAFANA_ADMIN_PASSWORD'])
      assert.match(run.stderr, new RegExp(`required variable ${name} is missing a value: set ${name} in \\.env`));
    assert.equal(run.stdout, '');
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
