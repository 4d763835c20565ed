import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  CHECKOUT_ENDED,
  type CheckoutInput,
  type CheckoutOutcome,
  type CheckoutResult,
  type CheckoutState,
  checkoutStateQuery,
  checkoutWorkflowId,
  type CheckoutWorkflow,
  type HostedPage,
  hostedPageUpdate,
  type PurchaseRedirect,
  purchaseRedirectUpdate,
} from './messages.js';
import { checkoutInput, purchaseRedirect } from './messages.schema.js';
import { AlreadyFinishedError } from '../lib/client-errors.js';
import { ProcessClient, type WithTiming } from '../lib/process-client.js';

/** The checkout ended before there was a hosted page to show (over the limit, refused, not approved). */
export class CheckoutEndedError extends Error {
  override name = 'CheckoutEndedError';
  constructor(
    readonly workflowId: string,
    readonly outcome: CheckoutOutcome,
    readonly failureReason: string | null,
  ) {
    super(
      `checkout ${workflowId} ended ${outcome}${failureReason ? ` (${failureReason})` : ''}; there is no hosted page to show`,
    );
  }
}

/** A card-purchase checkout of one backend order, keyed `checkout:<orderRef>`. */
export class CheckoutClient extends ProcessClient<CheckoutState, CheckoutResult, WithTiming> {
  protected readonly contract = {
    workflowType: 'checkoutWorkflow',
    workflowId: checkoutWorkflowId,
    stateQuery: checkoutStateQuery,
  };

  /**
   * Starts the checkout (or attaches to the one of this orderRef: one per order, ever) and answers
   * with the hosted page as soon as the reservation exists, in one round trip (update-with-start).
   * A second call for the same order returns the same reservation.
   */
  async startAndGetPage(input: Omit<CheckoutInput, 'timing'>): Promise<HostedPage> {
    const args = this.check(checkoutInput, { ...input, timing: this.opts.timing ?? {} });
    const workflowId = checkoutWorkflowId(args.orderRef);
    const startWorkflowOperation = new WithStartWorkflowOperation<CheckoutWorkflow>(this.contract.workflowType, {
      workflowId,
      taskQueue: this.opts.taskQueue,
      args: [args],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
    try {
      return await this.client.workflow.executeUpdateWithStart(hostedPageUpdate, { startWorkflowOperation });
    } catch (err) {
      // A closed checkout under this key: REJECT_DUPLICATE keeps it closed.
      if (err instanceof WorkflowExecutionAlreadyStartedError) throw new AlreadyFinishedError(workflowId);
      if (
        err instanceof WorkflowUpdateFailedError &&
        err.cause instanceof ApplicationFailure &&
        err.cause.type === CHECKOUT_ENDED
      ) {
        const ended = (err.cause.details?.[0] ?? {}) as { outcome?: CheckoutOutcome; failureReason?: string | null };
        throw new CheckoutEndedError(workflowId, ended.outcome ?? 'FAILED', ended.failureReason ?? null);
      }
      throw err;
    }
  }

  /** What the backend's redirectUrl received: the checkout looks at the provider now and answers with its state. */
  async purchaseRedirect(orderRef: string, redirect: PurchaseRedirect): Promise<CheckoutState> {
    return this.update(checkoutWorkflowId(orderRef), purchaseRedirectUpdate, this.check(purchaseRedirect, redirect));
  }
}
