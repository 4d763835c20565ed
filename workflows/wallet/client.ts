import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { openWalletInput } from './inputs.schema.js';
import {
  type OpenWalletResult,
  type OpenWalletWorkflow,
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

/** What a backend service uses to open wallets and read them. */
export class WalletsClient {
  constructor(
    private readonly client: Client,
    private readonly opts: WalletsClientOptions,
  ) {}

  /**
   * Opens a wallet for `name` (your unique identifier for the user), or finds the one already
   * opened under that name, and resolves when the provider has created it.
   */
  async open(input: {
    name: string;
    type?: 'DEFAULT' | 'ENTERPRISE' | 'SAVINGS';
    notes?: string;
  }): Promise<OpenWalletResult> {
    const parsed = openWalletInput.safeParse(walletStartArgs(input, this.opts));
    if (!parsed.success) throw rejectInput(parsed.error.issues);
    const workflowId = openWalletWorkflowId(parsed.data.name);
    try {
      const handle = await this.client.workflow.start<OpenWalletWorkflow>('openWalletWorkflow', {
        workflowId,
        taskQueue: this.opts.taskQueue,
        args: [parsed.data],
        // A second open of the same name attaches to the first, running or completed; only a
        // failed attempt may be started again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      });
      return await handle.result();
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return this.client.workflow.getHandle<OpenWalletWorkflow>(workflowId).result();
    }
  }

  /**
   * Compares the wallet's ledger with the provider's own balances now, after a fresh poll, and
   * answers the drift found (none: an empty list), exactly: one wei apart is a drift. Amounts are
   * decimal strings. The ledger is never corrected from it.
   */
  async reconcile(walletId: string): Promise<Reconciliation> {
    const id = walletWorkflowId(walletId);
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
    const id = walletWorkflowId(walletId);
    try {
      return await this.client.workflow.getHandle(id).query(walletQuery);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ProcessNotFoundError(id);
      throw err;
    }
  }
}
