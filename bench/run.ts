import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { ProviderClient } from '../src/provider/client.js';
import { createWallet, readWallet } from '../src/provider/endpoints.js';
import { callbackSignature, signatureMatches } from '../src/provider/signing.js';
import { transaction } from '../src/provider/schemas/transaction.js';
import { createSandbox } from '../src/sandbox/server.js';
import { emptyLedger, LIMITS, record } from '../workflows/lib/ledger.js';

// `npm run bench`: each line compares two ways measured side by side in this run, and prints
// their ratio. Absolute numbers depend on the machine; the ratios are what to watch. Every loop
// is bounded, and all traffic stays on loopback.

async function rate(fn: () => unknown, ms = 1_000): Promise<number> {
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await fn();
    n += 1;
  }
  return (n / (performance.now() - start)) * 1000;
}

function line(name: string, a: [string, number], b: [string, number]) {
  const fmt = (x: number) => `${Math.round(x).toLocaleString('en')}/s`;
  console.log(`${name}\n  ${a[0]}: ${fmt(a[1])}   ${b[0]}: ${fmt(b[1])}   ratio ${(a[1] / b[1]).toFixed(2)}`);
}

// 1. What verifying and validating a callback costs next to merely parsing it.
const secret = 'SK-BENCH';
const body = JSON.stringify({ id: 'TR_BENCH1', createdAt: 1, source: 'bitcoin:EXTERNAL', dest: 'wallet:WA_BENCH1', currency: 'BTC', amount: 0.1, status: 'CONFIRMED', metadata: { BTCNetworkTxId: 'ab'.repeat(32) }, tags: [] });
const sig = callbackSignature(secret, body);
const raw = Buffer.from(body);
line(
  'ingress: verify HMAC + zod-validate a callback, vs JSON.parse alone',
  ['verify+validate', await rate(() => signatureMatches(callbackSignature(secret, raw), sig) && transaction.parse(JSON.parse(body)))],
  ['parse only', await rate(() => JSON.parse(body))],
);

// 2. The wallet ledger stays flat as it fills: recording into a full ledger vs an empty one.
const full = emptyLedger('WA_BENCH');
for (let i = 0; i < LIMITS.recentEntries * 3; i++) record(full, transaction.parse({ ...JSON.parse(body), id: `TR_F${i}` }), 'callback');
let k = 0;
const tx = () => transaction.parse({ ...JSON.parse(body), id: `TR_N${k++}` });
line('wallet ledger: record into a full ledger vs an empty one', ['full', await rate(() => record(full, tx(), 'callback'))], ['empty', await rate(() => record(emptyLedger('WA_BENCH'), tx(), 'callback'))]);

// 3. Keep-alive connections in the provider client vs a new connection per call.
const sandbox = createSandbox({ apiKey: 'AK-BENCH', secretKey: secret });
const url = await sandbox.listen(0);
const auth = { kind: 'signature' as const, apiKey: 'AK-BENCH', secretKey: secret };
const pooled = new ProviderClient({ baseUrl: url, auth });
const w = await pooled.call(createWallet, { body: { name: 'bench' } });
const keepAlive = await rate(() => pooled.call(readWallet, { params: { walletId: w.id } }));
const fresh = await rate(async () => {
  const agent = new Agent({ pipelining: 0 });
  const c = new ProviderClient({ baseUrl: url, auth, dispatcher: agent });
  await c.call(readWallet, { params: { walletId: w.id } });
  await agent.close();
});
line('provider client: keep-alive pool vs a new connection per call (signed GET to the sandbox)', ['keep-alive', keepAlive], ['new connection', fresh]);
await pooled.close();
await sandbox.close();

// 4. The provider client's own cost: a signed, validated GET of a wallet vs bare undici.request
// reading the same JSON from the same tiny local server, each with its own keep-alive pool.
// Rounds alternate between the two (and which goes first), after a warm-up; the median of the
// per-round ratios is printed, so a noisy shared machine moves both sides alike.
{
  const walletJson = JSON.stringify({
    id: 'WA_BENCH00001', srn: 'wallet:WA_BENCH00001', name: 'bench', owner: 'account:AC_BENCH00001', type: 'DEFAULT', status: null, createdAt: 1_700_000_000_000,
    callbackUrl: 'https://shop.example/callbacks', notes: null, depositAddresses: { BTC: 'bc1qbench', ETH: '0xbench' }, balances: { BTC: 0.5 }, totalBalances: { BTC: 0.5 },
    availableBalances: { BTC: 0.5 }, realtimeChannel: 'bench', verificationData: {},
  });
  const tiny = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(walletJson) });
    res.end(walletJson);
  });
  await new Promise<void>((r) => tiny.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(tiny.address() as { port: number }).port}`;
  const bareAgent = new Agent({ keepAliveTimeout: 10_000 });
  const client = new ProviderClient({ baseUrl: base, auth });
  const walletUrl = `${base}/v2/wallet/WA_BENCH00001`;
  const bare = async () => {
    const res = await request(walletUrl, { method: 'GET', dispatcher: bareAgent });
    return res.body.json();
  };
  const signed = () => client.call(readWallet, { params: { walletId: 'WA_BENCH00001' } });
  const calls = async (fn: () => Promise<unknown>, n: number) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return n / ((performance.now() - start) / 1000);
  };
  await calls(bare, 2_000);
  await calls(signed, 2_000);
  const rounds = 15;
  const per = 600;
  const ratios: number[] = [];
  const rates = { bare: [] as number[], signed: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0;
    const a = first ? await calls(bare, per) : 0;
    const b = await calls(signed, per);
    const c = first ? a : await calls(bare, per);
    rates.bare.push(c);
    rates.signed.push(b);
    ratios.push(b / c);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log('provider client: signed GET of a wallet vs bare undici.request, same tiny local server (median of interleaved rounds)');
  console.table({
    'bare undici.request': { 'calls/s (median)': Math.round(median(rates.bare)) },
    'ProviderClient.call(readWallet)': { 'calls/s (median)': Math.round(median(rates.signed)) },
    'ratio client / bare (goal >= 0.90)': { 'calls/s (median)': Number(median(ratios).toFixed(2)) },
  });
  await client.close();
  await bareAgent.close();
  tiny.close();
}
