import { z } from 'zod';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/documents.js';
import { accountId, paymentMethodId } from '../../src/provider/schemas/common.js';
import { documentMimeTypes } from '../../src/provider/schemas/document.js';
import { claimRef, timing } from '../lib/messages.schema.js';

// The ACH follow-up's messages as zod schemas, for its client; the workflow checks the same with
// workflows/ach-followup/checks.ts (see ./messages.schema.ts).

export const achFollowupInput = z.object({
  paymentMethodId,
  /** The account the method belongs to: its individualSourceOfFunds follows the method. */
  accountId,
  timing: timing.default(timing.parse({})),
});

/** The form: a photo (or scan) as described at the end of docs/provider-contract.md §3.2, kept in the claim store. */
export const achForm = claimRef.extend({
  contentType: z.enum(documentMimeTypes, { message: `the form must be one of ${documentMimeTypes.join(', ')}` }),
  size: z.number().int().positive().max(MAX_DOCUMENT_BYTES, 'the form is larger than 7.75 MB'),
});

// What the process answers: its state (query and the submitAchForm update) and its result.

export const achStage = z.enum(['CHECKING', 'WAITING_FOR_FORM', 'SUBMITTING', 'UNDER_REVIEW', 'DONE']);
export const achOutcome = z.enum(['APPROVED', 'ACTIVE', 'REJECTED', 'EXPIRED']);
/** The account's individualSourceOfFunds field while the method is it. */
export const sourceOfFunds = z.object({
  status: z.enum(['OPEN', 'PENDING', 'APPROVED']),
  note: z.string().nullable(),
});

export const achState = z.object({
  paymentMethodId,
  stage: achStage,
  paymentMethodStatus: z.string().nullable(),
  /** The account's individualSourceOfFunds while the method is it, and how it moved. */
  sourceOfFunds: sourceOfFunds.nullable(),
  sourceOfFundsHistory: z.array(sourceOfFunds),
  formsSubmitted: z.number().int().min(0),
  reminders: z.number().int().min(0),
  outcome: achOutcome.nullable(),
});

export const achResult = z.object({
  outcome: achOutcome,
  paymentMethodId,
  sourceOfFunds: sourceOfFunds.nullable(),
  rejectionMessage: z.string().nullable(),
});
