import {
  type Client,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { runningWalletWorkflow } from './follower-client.js';
import { openWalletInput } from './inputs.schema.js';
import {
  type OpenWalletResult,
  type OpenWalletWorkflow,
  openedUpdate,
  openWalletWorkflowId,
  type Reconciliation,
  reconcileUpdate,
  type WalletView,
  walletQuery,
  walletStartArgs,
  walletWorkflowId,
} from './messages.js';
import { ProcessNotFoundError, rejectInput } from '../lib/client-errors.js';

export interface WalletsClientOptions {
  taskQueue: string;
  /** How often a wallet's workflow polls the provider for transactions it missed. */
  pollIntervalMs: number;
  /** How often a wallet's workflow compares its ledger with the provider's balances. */
  reconcileIntervalMs?: number;
  /** The longest wait between polls of a quiet wallet. */
  pollMaxMs?: number;
}

/** How many wallets a client remembers the workflows of (the rest are looked up). */
const REMEMBERED_WALLETS = 10_000;

/** What a backend service uses to open wallets and read them. */
export class WalletsClient {
  constructor(
    private readonly client: Client,
    private readonly opts: WalletsClientOptions,
  ) {}

  /**
   * Opens a wallet for `name` (your unique identifier for the user), or finds the one already
   * opened under that name, and resolves when the provider has created it. The wallet is followed in
   * the same workflow, `walletWorkflowId` (`open-wallet:<name>`).
   */
  async open(input: {
    name: string;
    type?: 'DEFAULT' | 'ENTERPRISE' | 'SAVINGS';
    notes?: string;
  }): Promise<OpenWalletResult> {
    const parsed = openWalletInput.safeParse(walletStartArgs({ ...input, follower: 'this-workflow' }, this.opts));
    if (!parsed.success) throw rejectInput(parsed.error.issues);
    const workflowId = openWalletWorkflowId(parsed.data.name);
    const opening = new WithStartWorkflowOperation<OpenWalletWorkflow>('openWalletWorkflow', {
      workflowId,
      taskQueue: this.opts.taskQueue,
      args: [parsed.data],
      // A second open of the same name attaches to the first, running or completed; only a
      // failed attempt may be started again.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
    let opened: OpenWalletResult;
    try {
      opened = await this.client.workflow.executeUpdateWithStart(openedUpdate, { startWorkflowOperation: opening });
    } catch (err) {
      // The name was opened by a workflow that completed once it started a follower of its own (as
      // clients before one workflow per wallet opened it, and other languages' may), or it runs and
      // does not answer `opened`: its result says what it opened.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError || err instanceof WorkflowUpdateFailedError)) throw err;
      const result = await this.client.workflow.getHandle<OpenWalletWorkflow>(workflowId).result();
      if (!('srn' in result)) throw err;
      opened = result;
    }
    this.followedBy.set(opened.walletId, opened.walletWorkflowId);
    // The oldest goes first: a backend that opens millions keeps a bounded map.
    if (this.followedBy.size > REMEMBERED_WALLETS) this.followedBy.delete(this.followedBy.keys().next().value!);
    return opened;
  }

  /** Wallets this client opened lately, by id: their workflows, without asking visibility. */
  private readonly followedBy = new Map<string, string>();

  /**
   * The id of the workflow that follows a wallet, for the wallet's id (for a handle, or a link to
   * the Web UI): the one this client opened it with while it runs, or the running one (found
   * through visibility, which lags a just-opened wallet by moments), or else its follower
   * `wallet:<walletId>`, whose last run still answers queries once closed.
   */
  async workflowIdOf(walletId: string): Promise<string> {
    const opened = this.followedBy.get(walletId);
    // Asked of the run itself, not visibility: an operator may have ended it, and a callback since
    // started a follower by the wallet's id.
    if (opened !== undefined && (await this.runs(opened))) return opened;
    this.followedBy.delete(walletId);
    return (await runningWalletWorkflow(this.client, walletId)) ?? opened ?? walletWorkflowId(walletId);
  }

  private async runs(workflowId: string): Promise<boolean> {
    try {
      return (await this.client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  /**
   * Compares the wallet's ledger with the provider's own balances now, after a fresh poll, and
   * answers the drift found (none: an empty list), exactly: one wei apart is a drift. Amounts are
   * decimal strings. The ledger is never corrected from it.
   */
  async reconcile(walletId: string): Promise<Reconciliation> {
    const id = await this.workflowIdOf(walletId);
    try {
      return await this.client.workflow.getHandle(id).executeUpdate(reconcileUpdate);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ProcessNotFoundError(id);
      throw err;
    }
  }

  /**
   * Balances, recent transactions and counters of a wallet, as its workflow has recorded them.
   * Every amount is an exact decimal string (`"161176780.13"`, `"1.000000000000000001"`), not a
   * number: read it with a decimal library, not Number(), which loses digits past 15.
   */
  async state(walletId: string): Promise<WalletView> {
    const id = await this.workflowIdOf(walletId);
    try {
      return await this.client.workflow.getHandle(id).query(walletQuery);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ProcessNotFoundError(id);
      throw err;
    }
  }
}
