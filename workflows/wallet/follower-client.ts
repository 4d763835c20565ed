import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Observation } from '../../src/provider/transaction-observation.js';
import type { WalletInputFields } from './inputs.schema.js';
import { WalletId } from '../../src/temporal/search-attributes.js';
import {
  openWalletWorkflowId,
  transactionSignal,
  type WalletInput,
  type WalletWorkflow,
  walletWorkflowId,
} from './messages.js';

// How a transaction reaches the workflow that follows its wallet, for whatever starts followers
// (the ingress). A wallet followed in its opening workflow is reached by the name its callback URL
// carries. Otherwise by its id: signalled to the running follower `wallet:<walletId>`, or to the
// opening workflow that follows it when it has none; when neither runs, a new follower is started,
// and when the last one ended UNKNOWN_WALLET the new one starts from the ledger it returned, so that
// what it counted stays counted.

/**
 * Signals the workflow that follows the wallet named `name` in its opening workflow. False when it
 * does not run (closed or never started): the caller routes the transaction by wallet id instead.
 */
export const signalWalletByName = (client: Client, name: string, tx: Observation): Promise<boolean> =>
  signalIfRunning(client, openWalletWorkflowId(name), tx);

/**
 * The id of the running workflow that follows a wallet: its follower `wallet:<walletId>`, or the
 * opening workflow that follows it. Undefined when none runs.
 */
export async function runningWalletWorkflow(client: Client, walletId: string): Promise<string | undefined> {
  const followerId = walletWorkflowId(walletId);
  const follower = await unlessNotFound(client.workflow.getHandle(followerId).describe());
  return follower?.status.name === 'RUNNING' ? followerId : openingThatFollows(client, walletId);
}

/**
 * The running opening workflow that follows a wallet, found by its WalletId search attribute.
 * Visibility lags a workflow by moments: a wallet opened this instant may not be found yet.
 */
async function openingThatFollows(client: Client, walletId: string): Promise<string | undefined> {
  // A keyword's value in a query: a wallet id is letters, digits and underscores, nothing to escape.
  if (!/^[A-Za-z0-9_]+$/.test(walletId)) return undefined;
  const query = `${WalletId.name} = '${walletId}' AND ExecutionStatus = 'Running'`;
  for await (const run of client.workflow.list({ query, pageSize: 1 })) return run.workflowId;
  return undefined;
}

/** Signals a workflow; false when it does not run. */
async function signalIfRunning(client: Client, workflowId: string, tx: Observation): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).signal(transactionSignal, tx);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

export interface SignalWalletOptions {
  taskQueue: string;
  /** The input of a follower this starts (walletId, timings). */
  input: WalletInputFields;
  tx: Observation;
}

/** Answers the id of the workflow that took the transaction. */
export async function signalWallet(client: Client, { taskQueue, input, tx }: SignalWalletOptions): Promise<string> {
  const workflowId = walletWorkflowId(input.walletId);
  if (await signalIfRunning(client, workflowId, tx)) return workflowId;
  // No follower: the wallet's opening workflow may follow it; otherwise a follower is started below.
  const opening = await openingThatFollows(client, input.walletId);
  if (opening !== undefined && (await signalIfRunning(client, opening, tx))) return opening;
  const carried = await leftByLastRun(client, input.walletId);
  // Two callbacks at once both come here: the first starts the run, and the second's start finds it
  // running and only signals it (USE_EXISTING), whatever it read.
  await client.workflow.signalWithStart<WalletWorkflow, [Observation]>('walletWorkflow', {
    workflowId,
    taskQueue,
    args: [{ ...input, ...carried }],
    signal: transactionSignal,
    signalArgs: [tx],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return workflowId;
}

/**
 * What the follower's last run left for the next: its ledger and unrecorded observations when it
 * ended UNKNOWN_WALLET (runs since it returns them); nothing when there was none, it was
 * terminated, or it ran on code from before.
 */
async function leftByLastRun(client: Client, walletId: string): Promise<Pick<WalletInput, 'carried' | 'inbox'>> {
  const workflowId = walletWorkflowId(walletId);
  const last = await unlessNotFound(client.workflow.getHandle(workflowId).describe());
  if (last?.status.name !== 'COMPLETED') return {};
  // That run's result only: a run started meanwhile is not waited for. Deleted by retention since
  // describe(), it left nothing that can still be read.
  const handle = client.workflow.getHandle<WalletWorkflow>(workflowId, last.runId, { followRuns: false });
  const result = await unlessNotFound(handle.result());
  if (result?.outcome !== 'UNKNOWN_WALLET' || result.ledger?.walletId !== walletId) return {};
  return { carried: result.ledger, ...(result.inbox?.length ? { inbox: result.inbox } : {}) };
}

/** What the call answers; undefined for a workflow that does not exist. */
async function unlessNotFound<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}
