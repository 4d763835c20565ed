import { ProviderClient } from '../../src/provider/client.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

// A sandbox on an ephemeral port with a clock the test moves, and clients that sign with the same
// clock (so that jumping 30 minutes ahead does not make their timestamps stale).

export const MASTER = { apiKey: 'AK-MASTER-TEST', secretKey: 'SK-MASTER-TEST-0001', accountId: 'AC_MASTERTEST' };

export async function startSandbox(opts: Partial<SandboxOptions> = {}) {
  const clock = { now: 1_800_000_000_000 };
  const sandbox = createSandbox({
    apiKey: MASTER.apiKey,
    secretKey: MASTER.secretKey,
    masterAccountId: MASTER.accountId,
    now: () => clock.now,
    ...opts,
  });
  const url = await sandbox.listen(0);
  const clients: ProviderClient[] = [];
  const client = (
    auth: ConstructorParameters<typeof ProviderClient>[0]['auth'] = {
      kind: 'signature',
      apiKey: MASTER.apiKey,
      secretKey: MASTER.secretKey,
    },
  ) => {
    const provider = new ProviderClient({ baseUrl: url, auth, now: () => clock.now });
    clients.push(provider);
    return provider;
  };

  const { operator, op } = operatorCalls(url);

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
