import type { z } from 'zod';
import type * as workflows from '../../workflows/index.js';
import * as ach from '../../workflows/ach-followup/messages.schema.js';
import * as checkout from '../../workflows/checkout/messages.schema.js';
import * as common from '../../workflows/lib/messages.schema.js';
import * as kyc from '../../workflows/kyc/messages.schema.js';
import * as onboarding from '../../workflows/onboarding/messages.schema.js';
import * as provisioning from '../../workflows/provisioning/messages.schema.js';
import * as wallet from '../../workflows/wallet/messages.schema.js';
import { achFollowupWorkflowId, achStateQuery, submitAchFormUpdate } from '../../workflows/ach-followup/messages.js';
import {
  CHECKOUT_ENDED,
  checkoutStateQuery,
  checkoutWorkflowId,
  hostedPageUpdate,
  purchaseRedirectUpdate,
} from '../../workflows/checkout/messages.js';
import { kycStateQuery, kycWorkflowId, submitDocumentUpdate, submitValueUpdate } from '../../workflows/kyc/messages.js';
import {
  CLAIM_STORE_FAILED,
  INPUT_REJECTED,
  NOT_DELIVERED,
  PROVIDER_REFUSED,
  refreshSignal,
} from '../../workflows/lib/messages.js';
import {
  onboardingLinkUpdate,
  onboardingStateQuery,
  onboardingWorkflowId,
} from '../../workflows/onboarding/messages.js';
import { provisioningStateQuery, provisioningWorkflowId } from '../../workflows/provisioning/messages.js';
import {
  openedUpdate,
  openWalletWorkflowId,
  reconcileUpdate,
  transactionSignal,
  walletQuery,
  walletWorkflowId,
} from '../../workflows/wallet/messages.js';

// Every process as another language sees it (schemas/messages/<process>.json, written by
// scripts/message-schemas.ts): the zod schemas of what a caller sends and of what the workflows
// answer, and the workflows' types, ids, queries, updates, signals and failures. Names come from
// the definitions and the workflow functions themselves, so that they cannot drift.

/** A workflow function's name, as workflows/index.ts exports it: the workflow type. */
export type WorkflowType = keyof typeof workflows;
type Named = { name: string };

export interface Failure {
  type: string;
  when: string;
  /** The $defs name of its details (the first of ApplicationFailure.details), if it has any. */
  details?: string;
}

export interface WorkflowDescription {
  type: WorkflowType;
  /** The workflow id from its key: called with `{<idField>}` it gives the template. */
  workflowId: (key: string) => string;
  /** The input field the id is made of. */
  idField: string;
  input: string;
  result: string;
  queries?: Array<{ definition: Named; answer: string }>;
  updates?: Array<{ definition: Named; args: string[]; answer: string }>;
  signals?: Array<{ definition: Named; args: string[] }>;
  failures: Failure[];
}

export interface ProcessDescription {
  process: string;
  title: string;
  description: string;
  /** What a caller sends (zod's input side: defaults may be left out), by $defs name. */
  inputs: Record<string, z.ZodType>;
  /** What the workflows answer and return (zod's output side), by $defs name. */
  outputs: Record<string, z.ZodType>;
  /** Other names of a $def, for readers who look for them. */
  aliases?: Record<string, string>;
  workflows: WorkflowDescription[];
}

const rejected = (what: string): Failure => ({
  type: INPUT_REJECTED,
  when: `${what} failed the workflow's check, or is not possible now; nothing changed. The message names the field and what to do.`,
  details: 'FieldFailureDetails',
});
// Raised by pollProvider (workflows/lib/process.ts), a literal there to keep the workflow bundle as it is.
const stalled: Failure = {
  type: 'ProviderStalled',
  when: 'the run failed: the provider did not move on for timing.stallAfterMs; ask the provider, then start the process again.',
};
const submissionFailures: Failure[] = [
  {
    type: NOT_DELIVERED,
    when: 'an update: the provider or the claim store did not answer before the retries gave up; nothing changed, hand the same input in again later.',
    details: 'FieldFailureDetails',
  },
  {
    type: PROVIDER_REFUSED,
    when: "an update: the provider refused the input; the details carry the provider's error type, code and HTTP status (never its message).",
    details: 'ProviderRefusedDetails',
  },
  {
    type: CLAIM_STORE_FAILED,
    when: 'an update: our own claim store could not give back what was handed in; nothing was sent or used up; an operator fixes the store or its keys.',
    details: 'ClaimStoreFailedDetails',
  },
];
const refresh = { definition: refreshSignal, args: [] };

/** Schemas under their $defs names: each export's name with a capital (kycInput: KycInput). */
function defs<M extends object>(module: M, ...names: Array<keyof M & string>): Record<string, z.ZodType> {
  return Object.fromEntries(names.map((name) => [name[0]!.toUpperCase() + name.slice(1), module[name] as z.ZodType]));
}

export const PROCESSES: ProcessDescription[] = [
  {
    process: 'kyc',
    title: 'KYC resubmission',
    description:
      "An account's profile fields that the provider's review sent back (docs/provider-contract.md §3.2): the end user hands in values and documents by claim reference until the review approves them.",
    inputs: {
      ...defs(kyc, 'kycInput', 'valueSubmission', 'documentSubmission', 'valueRef', 'documentRef'),
      ...defs(common, 'timing'),
    },
    outputs: {
      ...defs(kyc, 'kycState', 'kycField', 'kycReason', 'kycResult'),
      ...defs(common, 'fieldFailureDetails', 'providerRefusedDetails', 'claimStoreFailedDetails'),
    },
    workflows: [
      {
        type: 'kycWorkflow',
        workflowId: kycWorkflowId,
        idField: 'accountId',
        input: 'KycInput',
        result: 'KycResult',
        queries: [{ definition: kycStateQuery, answer: 'KycState' }],
        updates: [
          { definition: submitValueUpdate, args: ['ValueSubmission'], answer: 'KycField' },
          { definition: submitDocumentUpdate, args: ['DocumentSubmission'], answer: 'KycField' },
        ],
        signals: [refresh],
        failures: [rejected('the start input or a submission'), ...submissionFailures, stalled],
      },
    ],
  },
  {
    process: 'ach-followup',
    title: 'ACH authorization follow-up',
    description:
      "A payment method's ACH authorization (docs/provider-contract.md §3.1): the process waits for the signed form, hands it to the provider by claim reference and follows the review.",
    inputs: { ...defs(ach, 'achFollowupInput', 'achForm'), ...defs(common, 'timing') },
    outputs: {
      ...defs(ach, 'achState', 'achResult', 'sourceOfFunds'),
      ...defs(common, 'fieldFailureDetails', 'providerRefusedDetails', 'claimStoreFailedDetails'),
    },
    workflows: [
      {
        type: 'achFollowupWorkflow',
        workflowId: achFollowupWorkflowId,
        idField: 'paymentMethodId',
        input: 'AchFollowupInput',
        result: 'AchResult',
        queries: [{ definition: achStateQuery, answer: 'AchState' }],
        updates: [{ definition: submitAchFormUpdate, args: ['AchForm'], answer: 'AchState' }],
        signals: [refresh],
        failures: [rejected('the start input or the form'), ...submissionFailures, stalled],
      },
    ],
  },
  {
    process: 'onboarding',
    title: 'Onboarding for higher limits',
    description:
      'A user onboarded for higher card-purchase limits (docs/provider-contract.md §2.7, §2.8, §4.5 to 4.7, §8): the process creates the user, hands out onboarding links and confirms the limits once approved.',
    inputs: { ...defs(onboarding, 'onboardingInput', 'onboardingLinkRequest'), ...defs(common, 'timing') },
    outputs: {
      ...defs(onboarding, 'onboardingState', 'onboardingLink', 'onboardingResult'),
      ...defs(common, 'fieldFailureDetails'),
      Limits: common.limitsAnswer,
    },
    workflows: [
      {
        type: 'onboardingWorkflow',
        workflowId: onboardingWorkflowId,
        idField: 'userRef',
        input: 'OnboardingInput',
        result: 'OnboardingResult',
        queries: [{ definition: onboardingStateQuery, answer: 'OnboardingState' }],
        updates: [{ definition: onboardingLinkUpdate, args: ['OnboardingLinkRequest'], answer: 'OnboardingLink' }],
        signals: [refresh],
        failures: [rejected('the start input or a link request'), stalled],
      },
    ],
  },
  {
    process: 'checkout',
    title: 'Reservation checkout',
    description:
      "A purchase through the provider's hosted page (docs/provider-contract.md §2.6, §4.3, §OP-8): the process checks the limits, reserves, hands out the hosted page and follows the order. The buyer's personal data is collected by the hosted page: the input refuses it by name. requireHigherLimits needs userId.",
    inputs: { ...defs(checkout, 'checkoutInput', 'purchaseRedirect'), ...defs(common, 'timing') },
    outputs: {
      ...defs(checkout, 'checkoutState', 'hostedPage', 'checkoutResult', 'checkoutEndedDetails'),
      ...defs(common, 'fieldFailureDetails'),
      Limits: common.limitsAnswer,
    },
    aliases: { CheckoutStatus: 'CheckoutState' },
    workflows: [
      {
        type: 'checkoutWorkflow',
        workflowId: checkoutWorkflowId,
        idField: 'orderRef',
        input: 'CheckoutInput',
        result: 'CheckoutResult',
        queries: [{ definition: checkoutStateQuery, answer: 'CheckoutState' }],
        updates: [
          { definition: hostedPageUpdate, args: [], answer: 'HostedPage' },
          { definition: purchaseRedirectUpdate, args: ['PurchaseRedirect'], answer: 'CheckoutState' },
        ],
        signals: [refresh],
        failures: [
          rejected('the start input or a redirect'),
          {
            type: CHECKOUT_ENDED,
            when: 'the hostedPage update: the checkout ended without a hosted page (OVER_LIMIT, NOT_APPROVED...).',
            details: 'CheckoutEndedDetails',
          },
          stalled,
        ],
      },
    ],
  },
  {
    process: 'provisioning',
    title: 'Account provisioning for client-held tokens',
    description:
      "A client's token registered and its account created (docs/provider-contract.md §5.3); the client's secret travels by claim reference.",
    inputs: { ...defs(provisioning, 'provisioningInput'), ...defs(common, 'claimRef') },
    outputs: {
      ...defs(provisioning, 'provisioningState', 'provisioningResult'),
      ...defs(common, 'fieldFailureDetails'),
    },
    workflows: [
      {
        type: 'provisioningWorkflow',
        workflowId: provisioningWorkflowId,
        idField: 'clientRef',
        input: 'ProvisioningInput',
        result: 'ProvisioningResult',
        queries: [{ definition: provisioningStateQuery, answer: 'ProvisioningState' }],
        failures: [rejected('the start input')],
      },
    ],
  },
  {
    process: 'wallet',
    title: 'Wallets',
    description:
      "openWalletWorkflow creates a wallet at the provider and follows it: with follower \"this-workflow\" in the same workflow (start it with the opened update, as an update-with-start: the workflow answers it once the wallet is created and never completes to give a result; it continues as new as walletWorkflow under the same id), otherwise by starting its follower, walletWorkflow, wallet:{walletId}, as a child, and completing with OpenWalletResult. The follower counts the wallet's transactions exactly (callbacks as the transaction signal, and polls) and compares them with the provider's balances. A follower's other input fields (carried, inbox...) are the workflow's own, carried across continue-as-new.",
    inputs: { ...defs(wallet, 'openWalletInput', 'walletInput', 'observation') },
    outputs: {
      ...defs(
        wallet,
        'openWalletResult',
        'walletResult',
        'walletView',
        'walletBalances',
        'balance',
        'entry',
        'ledgerStats',
        'ledgerState',
        'reconciliation',
        'drift',
      ),
      ...defs(common, 'fieldFailureDetails'),
    },
    workflows: [
      {
        type: 'openWalletWorkflow',
        workflowId: openWalletWorkflowId,
        idField: 'name',
        input: 'OpenWalletInput',
        result: 'OpenWalletResult',
        // With follower "this-workflow", the wallet's own messages too.
        queries: [{ definition: walletQuery, answer: 'WalletView' }],
        updates: [
          { definition: openedUpdate, args: [], answer: 'OpenWalletResult' },
          { definition: reconcileUpdate, args: [], answer: 'Reconciliation' },
        ],
        signals: [{ definition: transactionSignal, args: ['Observation'] }],
        failures: [rejected('the start input')],
      },
      {
        type: 'walletWorkflow',
        workflowId: walletWorkflowId,
        idField: 'walletId',
        input: 'WalletInput',
        result: 'WalletResult',
        queries: [{ definition: walletQuery, answer: 'WalletView' }],
        updates: [{ definition: reconcileUpdate, args: [], answer: 'Reconciliation' }],
        signals: [{ definition: transactionSignal, args: ['Observation'] }],
        failures: [rejected('the start input')],
      },
    ],
  },
];

/**
 * Workflows that no backend starts: claimRetentionWorkflow runs from a Temporal Schedule
 * (src/claims/schedule.ts) and takes no input.
 */
export const INTERNAL_WORKFLOWS: WorkflowType[] = ['claimRetentionWorkflow'];
