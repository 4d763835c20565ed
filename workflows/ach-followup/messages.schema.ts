import { z } from 'zod';
import { paymentMethodId } from '../../src/provider/schemas/common.js';
import { checkAchFollowupInput, checkAchForm } from './checks.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// The ACH follow-up's messages as zod schemas, for its client; what the workflow checks is built from ./checks.ts.

export const achFollowupInput = zodFrom(checkAchFollowupInput);
export const achForm = zodFrom(checkAchForm);

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
