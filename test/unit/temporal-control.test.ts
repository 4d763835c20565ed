import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ControlError, serveTemporalControl } from '../../scripts/lib/temporal-control.js';

// The cluster's control endpoint (scripts/lib/temporal-control.ts) over controls that record what
// they were asked: each route reaches its control; a call without the token, an unknown route or
// name, or a control's refusal is answered with its status and message, and asks nothing.
// test/cluster/server-config.test.ts drives the real controls on the running cluster.

describe('the Temporal control endpoint', () => {
  const asked: string[] = [];
  const up = new Set(['history-1', 'frontend-1']);
  const controls = {
    services: () => ['history-1', 'frontend-1'].map((name) => ({ name, pid: up.has(name) ? 1 : null })),
    async kill(name: string) {
      if (!up.has(name)) throw new ControlError(409, `Temporal ${name} is down already`);
      asked.push(`kill ${name}`);
      up.delete(name);
    },
    async start(name: string) {
      asked.push(`start ${name}`);
      up.add(name);
    },
    async restartPostgres() {
      asked.push('restart postgres');
    },
  };
  let endpoint: Awaited<ReturnType<typeof serveTemporalControl>>;
  const call = async (method: string, path: string, token: string | null = endpoint.token) => {
    const res = await fetch(`${endpoint.url}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  before(async () => (endpoint = await serveTemporalControl(controls)));
  after(() => endpoint.close());

  it('listens on loopback and reaches each control by its route', async () => {
    assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual((await call('GET', '/temporal')).body, [
      { name: 'history-1', pid: 1 },
      { name: 'frontend-1', pid: 1 },
    ]);
    assert.deepEqual(await call('POST', '/temporal/history-1/kill'), {
      status: 200,
      body: { name: 'history-1', pid: null },
    });
    assert.deepEqual(await call('POST', '/temporal/history-1/start'), {
      status: 200,
      body: { name: 'history-1', pid: 1 },
    });
    assert.deepEqual(await call('POST', '/postgres/restart'), { status: 200, body: { restarted: 'postgres' } });
    assert.deepEqual(asked.splice(0), ['kill history-1', 'start history-1', 'restart postgres']);
  });

  it('refuses a call without the token, an unknown route or name, and passes on a refusal, asking nothing', async () => {
    assert.deepEqual(await call('POST', '/temporal/history-1/kill', null), {
      status: 401,
      body: { error: 'the control endpoint wants the token of the cluster description (control.token)' },
    });
    assert.equal((await call('POST', '/temporal/history-1/kill', 'wrong')).status, 401);
    const route = await call('DELETE', '/temporal/history-1');
    assert.equal(route.status, 404);
    assert.match(String(route.body.error), /^no route DELETE \/temporal\/history-1: GET \/temporal, POST /);
    assert.deepEqual(await call('POST', '/temporal/history-9/kill'), {
      status: 404,
      body: { error: 'no Temporal service named history-9; the services are history-1, frontend-1' },
    });
    up.delete('frontend-1');
    assert.deepEqual(await call('POST', '/temporal/frontend-1/kill'), {
      status: 409,
      body: { error: 'Temporal frontend-1 is down already' },
    });
    assert.deepEqual(asked, []);
  });
});
