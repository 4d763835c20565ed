import { Client, Connection } from '@temporalio/client';
import { request } from 'undici';
import { WalletsClient } from '../src/client/wallets';
import { loadConfig, temporalAddress } from '../src/config';

// `npm run demo` (with `npm run dev` running): opens a wallet, plays a blockchain deposit
// (pending, then confirmed) and an interest payout through the sandbox's operator routes, and
// shows the wallet's workflow counting each once. The workflows stay in the Temporal UI.

const config = loadConfig();
if (!config.provider.usesSandbox) {
  console.error('npm run demo plays deposits through the sandbox; unset PROVIDER_BASE_URL to use it.');
  process.exit(2);
}
const say = (line: string) => console.log(`[demo] ${line}`);

async function operator<T>(path: string, body?: unknown): Promise<T> {
  const res = await request(`${config.provider.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await res.body.json()) as T;
  if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let connection: Connection;
try {
  connection = await Connection.connect({ address: temporalAddress(config), connectTimeout: 3_000 });
} catch {
  console.error(`Temporal is not reachable at ${temporalAddress(config)}: start the stack first with \`npm run dev\`.`);
  process.exit(2);
}
const client = new Client({ connection, namespace: config.temporal.namespace });
const wallets = new WalletsClient(client, { taskQueue: config.temporal.taskQueue, pollIntervalMs: config.wallet.pollIntervalMs });

const name = `demo-user-${new Date().toISOString().replace(/[:.]/g, '-')}`;
say(`opening a wallet for "${name}"…`);
const wallet = await wallets.open({ name, type: 'SAVINGS' });
say(`wallet ${wallet.walletId}; BTC deposit address ${wallet.depositAddresses.BTC}`);

const { transaction } = await operator<{ transaction: { id: string } }>(`/sandbox/wallets/${wallet.walletId}/deposits`, { currency: 'BTC', amount: 0.05 });
say(`a 0.05 BTC deposit is seen on the chain (${transaction.id}), pending…`);
let state = await until('the pending deposit', () => wallets.state(wallet.walletId), (s) => s.balances.BTC?.pending === 0.05);
say(`workflow: BTC pending ${state.balances.BTC!.pending}, confirmed ${state.balances.BTC!.confirmed}`);

await operator(`/sandbox/transactions/${transaction.id}/confirm`);
say('…and confirmed');
state = await until('the confirmation', () => wallets.state(wallet.walletId), (s) => s.balances.BTC?.confirmed === 0.05);
say(`workflow: BTC pending ${state.balances.BTC!.pending}, confirmed ${state.balances.BTC!.confirmed}`);

await operator(`/sandbox/transactions/${transaction.id}/resend-callback`);
say('the provider resends the same callback (as it may)…');
state = await until('the repeat', () => wallets.state(wallet.walletId), (s) => s.stats.duplicates >= 1);
say(`workflow: still ${state.balances.BTC!.confirmed} BTC; duplicates ignored: ${state.stats.duplicates}`);

await operator(`/sandbox/wallets/${wallet.walletId}/interest-payouts`, { currency: 'USD', amount: 1.23 });
state = await until('the interest payout', () => wallets.state(wallet.walletId), (s) => s.recentTransactions.some((t) => t.kind === 'interest'));
say(`interest payout recognised: USD ${state.balances.USD!.confirmed}`);

say(`look at workflow ${wallet.walletWorkflowId} in the Temporal UI (http://127.0.0.1:${config.temporal.uiPort}/namespaces/${config.temporal.namespace}/workflows)`);
await connection.close();
