import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WalletsClient, createClients } from '../src/client/index.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { startupConfig } from '../src/required-settings.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { walletWorkflowId } from '../workflows/wallet/contract.js';
import { kycWorkflowId } from '../workflows/kyc/contract.js';
import { checkoutWorkflowId } from '../workflows/checkout/contract.js';
import { operatorCalls } from './fixtures/operator.js';
import { giveUp, reachClaimStore, reachSandbox, reachTemporal } from './lib/reach.js';
import { drillPlot } from './lib/drill/plot.js';
import { drillProcesses } from './lib/drill/processes.js';
import { DrillRecord } from './lib/drill/record.js';
import { progress, report } from './lib/drill/report.js';
import { settle, watchCounted } from './lib/drill/settle.js';
import { chaos, FAULTS, setFaults, traffic } from './lib/drill/traffic.js';

// `npm run drill -- --wallets N --minutes M [--chaos "<command>" --every S]`: against the stack the
// client environment names (docs/operations.md, "The drill"), opens N wallets, moves money among
// them through the sandbox while it fails provider calls, drops and repeats callbacks and runs the
// chaos command; runs KYC and checkout processes; then checks that every wallet's ledger holds
// exactly what the provider holds. Exit 0 only when everything is exact. It refuses a provider
// that is not the sandbox: it moves money.

const USAGE =
  'usage: npm run drill -- --wallets N (2 or more) --minutes M [--chaos "<command>" --every S] [--settle S] [--svg drill.svg]';
const { values: args } = parseArgs({
  options: {
    wallets: { type: 'string' },
    minutes: { type: 'string' },
    chaos: { type: 'string' },
    every: { type: 'string', default: '30' },
    svg: { type: 'string', default: 'drill.svg' },
    settle: { type: 'string', default: '120' },
  },
});
const wallets = Number(args.wallets);
const minutes = Number(args.minutes);
const everySeconds = Number(args.every);
if (!(Number.isInteger(wallets) && wallets >= 2 && minutes > 0 && everySeconds > 0)) giveUp(USAGE);

/**
 * The drill's wallets poll the provider every 2 s, and a quiet one at least every 10 s, so that a
 * dropped callback is found within the drill's minutes; a deployment's wallets keep WALLET_POLL_INTERVAL.
 */
const DRILL_WALLET_TIMING = { pollIntervalMs: 2_000, pollMaxMs: 10_000 };

const config = startupConfig('client');
const baseUrl = config.provider.baseUrl;
const { operator, op } = operatorCalls(baseUrl);
const say = (line: string) => console.log(`[drill] ${line}`);
await reachSandbox(config, 'the drill (it moves money)');

const connection = await reachTemporal(config);
const claims = claimStoreFromConfig(config);
await reachClaimStore(claims, config);
const client = clientFor(connection, config);
const clients = createClients(client, config, claims, { pollInitialMs: 300, pollMaxMs: 2_000 });
const walletsClient = new WalletsClient(client, { taskQueue: config.temporal.taskQueue, ...DRILL_WALLET_TIMING });
const provider = providerFromConfig(config);
const run = `drill-${randomUUID().slice(0, 8)}`;
const record = new DrillRecord();
const processes = drillProcesses(clients, { provider, op }, record);
/** The provider calls the sandbox has failed so far. */
const injected = async () => (await op<{ injected: number }>('GET', '/sandbox/knobs/faults/injected')).injected;
const trafficEnds = record.startedAt + minutes * 60_000;
const show = progress(record, trafficEnds);

say(`${run}: opening ${wallets} wallets (named ${run}-<n>) against ${baseUrl}`);
const opened = await Promise.all(
  Array.from({ length: wallets }, (_, i) => walletsClient.open({ name: `${run}-${i + 1}` })),
);
const walletIds = opened.map((w) => w.walletId);
say(`wallets: ${walletIds.join(' ')}`);
// One KYC and one checkout for every five wallets; their accounts made before any fault is on.
const runs = Math.max(1, Math.floor(wallets / 5));
const accounts = await Promise.all(Array.from({ length: runs }, () => processes.kycAccount()));

const workflowIds = [
  ...walletIds.map(walletWorkflowId),
  ...accounts.map(kycWorkflowId),
  ...accounts.map((_, i) => checkoutWorkflowId(`${run}-order-${i + 1}`)),
];
/** Ends what the drill started and puts the knobs back; the wallets stay at the provider, named by the run. */
async function cleanUp(): Promise<void> {
  await setFaults(op, { on: false }).catch(() => {});
  await Promise.all(
    workflowIds.map((id) =>
      client.workflow
        .getHandle(id)
        .terminate(`${run} ended`)
        .catch(() => {}),
    ),
  );
  await provider.close();
  await connection.close();
}
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

let verdict: ReturnType<typeof report>;
try {
  await setFaults(op, { on: true });
  const injectedBefore = await injected();
  say(
    `traffic for ${minutes} min: ${FAULTS.providerErrorRate * 100}% of provider calls fail, every ${FAULTS.dropEvery}th callback dropped, callbacks repeated every other ${FAULTS.repeatWindowMs / 1000} s${args.chaos ? `, \`${args.chaos}\` every ${everySeconds} s` : ''}`,
  );
  const watching = new AbortController();
  const watcher = watchCounted(walletsClient, record, watching.signal);
  const ticker = setInterval(() => show('traffic'), 200);
  // Recorded as they go; settle() waits for them to be done.
  accounts.forEach((accountId, i) => {
    void processes.kyc(accountId);
    void processes.checkout(`${run}-order-${i + 1}`, walletIds[i % walletIds.length]!);
  });
  await Promise.all([
    traffic(operator, walletIds, record, trafficEnds),
    args.chaos ? chaos(args.chaos, everySeconds * 1000, record, trafficEnds, say) : undefined,
  ]);
  const providerErrors = (await injected()) - injectedBefore;
  await setFaults(op, { on: false });
  clearInterval(ticker);
  show('traffic', { final: true });
  say(`faults off; waiting up to ${args.settle} s for every wallet and process to settle`);
  const settled = await settle(walletsClient, provider, walletIds, record, Date.now() + Number(args.settle) * 1000);
  watching.abort();
  await watcher;
  verdict = report(record, settled, providerErrors, wallets);
  writeFileSync(args.svg, drillPlot(record, `${run}: ${wallets} wallets, ${minutes} min`));
  say(`latency plot: ${args.svg}`);
} finally {
  await cleanUp();
}
for (const line of verdict.lines) console.log(line);
process.exit(verdict.exact ? 0 : 1);
