import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createClients } from '../src/client/index.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { startupConfig } from '../src/required-settings.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { operatorCalls } from './fixtures/operator.js';
import { giveUp, reachClaimStore, reachSandbox, reachTemporal } from './lib/reach.js';
import { drillPlot } from './lib/drill/plot.js';
import type { Verdict } from './lib/drill/report.js';
import { openDrill } from './lib/drill/run.js';
import { chaos } from './lib/drill/traffic.js';

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

const config = startupConfig('client');
const sandbox = operatorCalls(config.provider.baseUrl);
const say = (line: string) => console.log(`[drill] ${line}`);
await reachSandbox(config, 'the drill (it moves money)');

const connection = await reachTemporal(config);
const claims = claimStoreFromConfig(config);
await reachClaimStore(claims, config);
const client = clientFor(connection, config);
const clients = createClients(client, config, claims, { pollInitialMs: 300, pollMaxMs: 2_000 });
const provider = providerFromConfig(config);
const run = `drill-${randomUUID().slice(0, 8)}`;
const drill = await openDrill(
  { client, clients, taskQueue: config.temporal.taskQueue, provider, sandbox, say },
  {
    run,
    wallets,
    trafficMs: minutes * 60_000,
    settleMs: Number(args.settle) * 1000,
    providerErrors: 'on',
    // One KYC and one checkout for every five wallets.
    kinds: ['kyc', 'checkout'],
    rounds: Math.max(1, Math.floor(wallets / 5)),
  },
);
/** Ends what the drill started and puts the knobs back; the wallets stay at the provider, named by the run. */
async function cleanUp(): Promise<void> {
  await drill.cleanUp();
  await provider.close();
  await connection.close();
}
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

let verdict: Verdict;
try {
  const command = args.chaos;
  const outcome = await drill.run(
    command
      ? {
          label: `\`${command}\` every ${everySeconds} s`,
          run: ({ record, until }) => chaos(command, everySeconds * 1000, record, until, say),
        }
      : undefined,
  );
  verdict = outcome.verdict;
  writeFileSync(args.svg, drillPlot(outcome.record, `${run}: ${wallets} wallets, ${minutes} min`));
  say(`latency plot: ${args.svg}`);
} finally {
  await cleanUp();
}
for (const line of verdict.lines) console.log(line);
process.exit(verdict.exact ? 0 : 1);
