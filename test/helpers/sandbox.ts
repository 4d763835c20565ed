import { request } from 'undici';
import { ProviderClient } from '../../src/provider/client';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/server';

// A sandbox on an ephemeral port with a clock the test moves, and clients that sign with the same
// clock (so that jumping 30 minutes ahead does not make their timestamps stale).

export const MASTER = { apiKey: 'AK-MASTER-TEST', secretKey: 'SK-MASTER-TEST-0001', accountId: 'AC_MASTERTEST' };

export async function startSandbox(opts: Partial<SandboxOptions> = {}) {
  const clock = { now: 1_800_000_000_000 };
  const sandbox = createSandbox({ apiKey: MASTER.apiKey, secretKey: MASTER.secretKey, masterAccountId: MASTER.accountId, now: () => clock.now, ...opts });
  const url = await sandbox.listen(0);
  const clients: ProviderClient[] = [];
  const client = (auth: ConstructorParameters<typeof ProviderClient>[0]['auth'] = { kind: 'signature', apiKey: MASTER.apiKey, secretKey: MASTER.secretKey }) => {
    const c = new ProviderClient({ baseUrl: url, auth, now: () => clock.now });
    clients.push(c);
    return c;
  };

  /** Calls an operator route; returns status and JSON. */
  async function operator<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
    const res = await request(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: (text ? JSON.parse(text) : {}) as T };
  }

  /** An operator call that must succeed. */
  async function op<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const r = await operator<T>(method, path, body);
    if (r.status !== 200) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
    return r.json;
  }

  return {
    sandbox,
    url,
    clock,
    master: client(),
    client,
    operator,
    op,
    state: sandbox.ctx.store.state,
    async stop() {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

export type TestSandbox = Awaited<ReturnType<typeof startSandbox>>;
