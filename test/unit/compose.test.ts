import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { DYNAMIC_CONFIG } from '../../src/temporal/dev-server.js';
import { allSearchAttributes } from '../../src/temporal/search-attributes.js';

// No Docker engine runs on these machines: this checks what can be checked without one, that
// docker-compose.yml parses and agrees with the code it deploys.
type Service = { ports?: string[]; image?: string; build?: string; command?: string[] | string; environment?: Record<string, string>; volumes?: string[]; depends_on?: unknown };
const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as { services: Record<string, Service> };
const s = compose.services;

describe('docker-compose.yml', () => {
  it('runs Temporal on PostgreSQL with the official images and the Web UI', () => {
    assert.match(s.postgresql!.image!, /^postgres:\d+/);
    assert.match(s.temporal!.image!, /^temporalio\/auto-setup:/);
    assert.match(s['temporal-ui']!.image!, /^temporalio\/ui:/);
    assert.match(s['temporal-setup']!.image!, /^temporalio\/admin-tools:/);
    assert.equal(s.temporal!.environment!.DB, 'postgres12');
    assert.equal(s.temporal!.environment!.POSTGRES_SEEDS, 'postgresql');
  });

  it('registers exactly the search attributes the workflows set', () => {
    const cmd = ([] as string[]).concat(s['temporal-setup']!.command ?? []).join(' ');
    const registered = [...cmd.matchAll(/--name (\w+) --type (\w+)/g)].map((m) => `${m[1]}=${m[2]}`).sort();
    const typeNames: Record<string, string> = { KEYWORD: 'Keyword', BOOL: 'Bool' };
    assert.deepEqual(registered, allSearchAttributes.map((k) => `${k.name}=${typeNames[k.type]}`).sort());
  });

  it('gives the server the dynamic config that the dev server gets', () => {
    const file = readFileSync('deploy/temporal/dynamicconfig.yaml', 'utf8');
    const config = parse(file) as Record<string, Array<{ value: unknown }>>;
    for (const entry of DYNAMIC_CONFIG) {
      const [key, value] = entry.split('=') as [string, string];
      assert.deepEqual(config[key], [{ value: JSON.parse(value) }], key);
    }
    assert.ok(s.temporal!.volumes!.some((v) => v.startsWith('./deploy/temporal:')));
  });

  it('wires the product processes to Temporal, the sandbox and the ingress', () => {
    for (const name of ['worker', 'ingress', 'sandbox']) assert.deepEqual(s[name]!.command, ['npm', 'run', name]);
    assert.equal(s.worker!.environment!.TEMPORAL_ADDRESS, 'temporal:7233');
    assert.equal(s.ingress!.environment!.TEMPORAL_ADDRESS, 'temporal:7233');
    assert.equal(s.worker!.environment!.PROVIDER_BASE_URL, 'http://sandbox:4010');
    assert.equal(s.worker!.environment!.INGRESS_PUBLIC_URL, 'http://ingress:4020');
    assert.equal(s.sandbox!.environment!.SANDBOX_HOST, '0.0.0.0', 'reachable from the other containers');
    assert.deepEqual(s.sandbox!.ports, ['127.0.0.1:4010:4010'], 'but not from the network: its operator routes take no credentials');
  });
});
