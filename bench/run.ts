import { Agent } from 'undici';
import { ProviderClient } from '../src/provider/client.js';
import { createWallet, readWallet } from '../src/provider/endpoints.js';
import { callbackSignature, signatureMatches } from '../src/provider/signing.js';
import { transaction } from '../src/provider/schemas/transaction.js';
import { createSandbox } from '../src/sandbox/server.js';
import { emptyLedger, LIMITS, record } from '../workflows/wallet/ledger.js';
import { depositCallback } from './protocol.js';
import { clientFigures } from './client.js';
import { quick, runConcurrently } from './measure.js';
import { printTable, writeLedgerResults, writeResults } from './report.js';
import { stackFigures } from './stack.js';

// `npm run bench`: each line compares two ways measured side by side in this run, and prints
// their ratio. Absolute numbers depend on the machine; the ratios are what to watch. Every loop
// is bounded, and all traffic stays on loopback. `npm run bench -- --quick` runs each measured span a
// quarter as long and writes no results: a check that the bench runs.

async function rate(fn: () => unknown): Promise<number> {
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  return (await runConcurrently(async () => fn(), 1, 1_000)).rate;
}

function line(name: string, a: [string, number], b: [string, number]) {
  const fmt = (x: number) => `${Math.round(x).toLocaleString('en')}/s`;
  console.log(`${name}\n  ${a[0]}: ${fmt(a[1])}   ${b[0]}: ${fmt(b[1])}   ratio ${(a[1] / b[1]).toFixed(2)}`);
}

// `--scale [sizes]`: the scale run alone (bench/scale.ts), not the figures below.
const { runScale, scaleSizes } = await import('./scale.js');
const scale = scaleSizes(process.argv.slice(2));
if (scale) {
  await runScale(scale);
  process.exit(0);
}

/** A cached wallet's memory by ledger size (bench/ledger-memory.ts), printed, and written unless --quick. */
async function ledgerSizes(): Promise<void> {
  const { ledgerMemory, ledgerNotes } = await import('./ledger-memory.js');
  const { sizes, passes, figures } = await ledgerMemory((l) => console.log(`[bench] ${l}`), { quick });
  printTable('A cached wallet by its ledger:', figures);
  if (!quick) writeLedgerResults(figures, ledgerNotes(sizes, passes));
}
// `--ledger`: those figures alone.
if (process.argv.includes('--ledger')) {
  await ledgerSizes();
  process.exit(0);
}

// 1. What verifying and validating a callback costs next to merely parsing it.
const secret = 'SK-BENCH';
const body = depositCallback({ id: 'TR_BENCH1', walletId: 'WA_BENCH1', status: 'CONFIRMED' });
const sig = callbackSignature(secret, body);
const raw = Buffer.from(body);
line(
  'ingress: verify HMAC + zod-validate a callback, vs JSON.parse alone',
  [
    'verify+validate',
    await rate(() => signatureMatches(callbackSignature(secret, raw), sig) && transaction.parse(JSON.parse(body))),
  ],
  ['parse only', await rate(() => JSON.parse(body))],
);

// 2. The wallet ledger stays flat as it fills: recording into a full ledger vs an empty one.
const full = emptyLedger('WA_BENCH');
for (let i = 0; i < LIMITS.recentEntries * 3; i++)
  record(full, transaction.parse({ ...JSON.parse(body), id: `TR_F${i}` }), 'callback');
let k = 0;
const tx = () => transaction.parse({ ...JSON.parse(body), id: `TR_N${k++}` });
line(
  'wallet ledger: record into a full ledger vs an empty one',
  ['full', await rate(() => record(full, tx(), 'callback'))],
  ['empty', await rate(() => record(emptyLedger('WA_BENCH'), tx(), 'callback'))],
);

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
line(
  'provider client: keep-alive pool vs a new connection per call (signed GET to the sandbox)',
  ['keep-alive', keepAlive],
  ['new connection', fresh],
);
await pooled.close();
await sandbox.close();

// 4. The provider client's own cost next to bare undici (bench/client.ts).
const client = await clientFigures(quick ? 4 : 15);

// 5. The whole stack against Temporal itself on the same server: the ingress, a wallet flow,
// the memory of a cached wallet, and what an idle wallet costs a day. Written under bench/results/.
// With BENCH_TEMPORAL_ADDRESS (`npm run cluster`'s Temporal), the same figures on that server too.
const say = (l: string) => console.log(`[bench] ${l}`);
const stacks = [await stackFigures(say)];
if (process.env.BENCH_TEMPORAL_ADDRESS) stacks.push(await stackFigures(say, process.env.BENCH_TEMPORAL_ADDRESS));
// `--no-ledger`: the figures above without the ledger sizes (`--ledger` runs those alone).
const withLedger = !process.argv.includes('--no-ledger');
if (withLedger) await ledgerSizes();
printTable('Provider client:', client);
for (const { server, figures } of stacks) printTable(`On ${server}:`, figures);
if (quick) console.log('\n--quick: figures not written under bench/results/');
else {
  writeResults([
    { title: 'provider client', figures: client },
    ...stacks.map(({ server, figures }) => ({ title: server, figures })),
  ]);
  console.log(
    `\nwritten: bench/results/figures.md, bench/results/figures.svg${withLedger ? ', bench/results/ledger-memory.md' : ''}`,
  );
}
process.exit(0);
