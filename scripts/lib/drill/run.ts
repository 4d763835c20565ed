import type { Client } from '@temporalio/client';
import { WalletsClient, type Clients } from '../../../src/client/index.js';
import type { ProviderClient } from '../../../src/provider/client.js';
import { checkoutWorkflowId } from '../../../workflows/checkout/contract.js';
import { kycWorkflowId } from '../../../workflows/kyc/contract.js';
import { onboardingWorkflowId } from '../../../workflows/onboarding/contract.js';
import type { operatorCalls } from '../../fixtures/operator.js';
import { drillProcesses, type ProcessKind } from './processes.js';
import { terminateRuns } from './cleanup.js';
import { DrillRecord } from './record.js';
import { progress, report, type Verdict } from './report.js';
import { settle, type Settled, watchCounted } from './settle.js';
import { FAULTS, setFaults, traffic } from './traffic.js';

// One drill from its wallets to its verdict, for `npm run drill` and the cluster's fault test:
// open the wallets, start the process runs, move money while something runs beside the traffic
// (the chaos command; a test's faults), then wait for every wallet and run to settle and judge.

/**
 * The drill's wallets poll the provider every 2 s, and a quiet one at least every 10 s, so that a
 * dropped callback is found within the drill's minutes; a deployment's wallets keep WALLET_POLL_INTERVAL.
 */
const DRILL_WALLET_TIMING = { pollIntervalMs: 2_000, pollMaxMs: 10_000 };

/** What the drill drives: a Temporal client and the process clients on its task queue, and the sandbox. */
export interface DrillParts {
  client: Client;
  clients: Clients;
  taskQueue: string;
  provider: ProviderClient;
  sandbox: ReturnType<typeof operatorCalls>;
  say: (line: string) => void;
}

export interface DrillPlan {
  /** Names the wallets (`<run>-<n>`), orders and users. */
  run: string;
  wallets: number;
  trafficMs: number;
  /** How long, after the traffic, every wallet and run may take to settle. */
  settleMs: number;
  /** Whether a share of provider calls fail during the traffic; callbacks are dropped and repeated either way. */
  providerErrors: 'on' | 'off';
  /** The runs of a round: one of each kind. */
  kinds: readonly ProcessKind[];
  /** The rounds started with the traffic; more may be started beside it. */
  rounds: number;
}

/** The drill under way, as what runs beside its traffic sees it. */
export interface DrillUnderWay {
  record: DrillRecord;
  walletIds: string[];
  /** When the traffic ends (epoch ms). */
  until: number;
  /** Starts one more round of runs; resolves once they are started (not done). */
  startRound(): Promise<void>;
}

/** Something that runs beside the traffic, until it ends; `label` says what, in the drill's opening line. */
export interface Beside {
  label: string;
  run(drill: DrillUnderWay): Promise<void>;
}

export interface DrillOutcome {
  record: DrillRecord;
  settled: Settled;
  verdict: Verdict;
  walletIds: string[];
  /** When the traffic ended (epoch ms). */
  trafficEndedAt: number;
}

/**
 * Opens the plan's wallets and makes the first rounds' KYC accounts (before any fault is on: the
 * drill's own provider calls are not retried). `run` then drives the drill; `cleanUp` ends every
 * workflow it started and puts the sandbox's knobs back (the wallets stay at the provider).
 */
export async function openDrill(parts: DrillParts, plan: DrillPlan) {
  const { client, clients, sandbox, say } = parts;
  const { op, operator } = sandbox;
  const record = new DrillRecord();
  const wallets = new WalletsClient(client, { taskQueue: parts.taskQueue, ...DRILL_WALLET_TIMING });
  const processes = drillProcesses(clients, { provider: parts.provider, op }, record);
  const workflowIds: string[] = [];

  say(`${plan.run}: opening ${plan.wallets} wallets (named ${plan.run}-<n>) against ${parts.provider.baseUrl}`);
  const opened = await Promise.all(
    Array.from({ length: plan.wallets }, (_, i) => wallets.open({ name: `${plan.run}-${i + 1}` })),
  );
  const walletIds = opened.map((w) => w.walletId);
  workflowIds.push(...opened.map((w) => w.walletWorkflowId));
  say(`wallets: ${walletIds.join(' ')}`);

  let rounds = 0;
  /** A round's KYC account, if it has a KYC run. */
  const account = () => (plan.kinds.includes('kyc') ? processes.kycAccount() : Promise.resolve(undefined));
  /** Starts a round's runs (not awaited: each is recorded, and settle waits for them). */
  const start = (accountId: string | undefined) => {
    rounds += 1;
    const orderRef = `${plan.run}-order-${rounds}`;
    const userRef = `${plan.run}-user-${rounds}`;
    if (accountId) {
      workflowIds.push(kycWorkflowId(accountId));
      void processes.kyc(accountId);
    }
    if (plan.kinds.includes('checkout')) {
      workflowIds.push(checkoutWorkflowId(orderRef));
      void processes.checkout(orderRef, walletIds[(rounds - 1) % walletIds.length]!);
    }
    if (plan.kinds.includes('onboarding')) {
      workflowIds.push(onboardingWorkflowId(userRef));
      void processes.onboarding(userRef);
    }
  };
  const firstAccounts = await Promise.all(Array.from({ length: plan.rounds }, account));

  async function run(beside?: Beside): Promise<DrillOutcome> {
    const until = Date.now() + plan.trafficMs;
    const show = progress(record, until);
    /** The provider calls the sandbox has failed so far. */
    const injected = async () => (await op<{ injected: number }>('GET', '/sandbox/knobs/faults/injected')).injected;
    await setFaults(op, { on: plan.providerErrors === 'on' });
    const injectedBefore = await injected();
    const errors = plan.providerErrors === 'on' ? `${FAULTS.providerErrorRate * 100}% of provider calls fail, ` : '';
    say(
      `traffic for ${Number((plan.trafficMs / 60_000).toFixed(2))} min: ${errors}every ${FAULTS.dropEvery}th callback dropped, callbacks repeated every other ${FAULTS.repeatWindowMs / 1000} s${beside ? `, ${beside.label}` : ''}`,
    );
    const watching = new AbortController();
    const watcher = watchCounted(wallets, record, watching.signal);
    const ticker = setInterval(() => show('traffic'), 200);
    firstAccounts.forEach(start);
    const underWay: DrillUnderWay = { record, walletIds, until, startRound: async () => start(await account()) };
    await Promise.all([traffic(operator, walletIds, record, until), beside?.run(underWay)]);
    const trafficEndedAt = Date.now();
    const providerErrors = (await injected()) - injectedBefore;
    await setFaults(op, { on: false });
    clearInterval(ticker);
    show('traffic', { final: true });
    say(`faults off; waiting up to ${plan.settleMs / 1000} s for every wallet and process to settle`);
    const settled = await settle(wallets, parts.provider, walletIds, record, Date.now() + plan.settleMs);
    watching.abort();
    await watcher;
    return {
      record,
      settled,
      verdict: report(record, settled, providerErrors, plan.wallets),
      walletIds,
      trafficEndedAt,
    };
  }

  async function cleanUp(): Promise<void> {
    await setFaults(op, { on: false }).catch(() => {});
    const refused = await terminateRuns(client, workflowIds, `${plan.run} ended`);
    if (refused.length > 0)
      say(
        `cleanup: ${refused.length} runs not terminated (${refused[0]!.workflowId}: ${refused[0]!.message}); terminate them with an admin's credentials, or leave them to end`,
      );
  }

  return { walletIds, run, cleanUp };
}
