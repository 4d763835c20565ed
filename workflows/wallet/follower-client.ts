import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Observation } from '../../src/provider/transaction-observation.js';
import type { WalletInputFields } from './inputs.schema.js';
import { transactionSignal, type WalletInput, type WalletWorkflow, walletWorkflowId } from './messages.js';

// How a transaction reaches the workflow that follows its wallet, for whatever starts followers
// (the ingress): signalled to the running follower; when none runs, a new one is started, and when
// the last one ended UNKNOWN_WALLET the new one starts from the ledger it returned, so that what it
// counted stays counted.

export interface SignalWalletOptions {
  taskQueue: string;
  /** The input of a follower this starts (walletId, timings). */
  input: WalletInputFields;
  tx: Observation;
}

export async function signalWallet(client: Client, { taskQueue, input, tx }: SignalWalletOptions): Promise<void> {
  const workflowId = walletWorkflowId(input.walletId);
  try {
    await client.workflow.getHandle(workflowId).signal(transactionSignal, tx);
    return;
  } catch (err) {
    // Never started, or closed: start one below.
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
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
