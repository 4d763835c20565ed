import { defineSignal } from '@temporalio/workflow';
import type { z } from 'zod';
import type {
  claimStoreFailedDetails,
  fieldFailureDetails,
  providerRefusedDetails,
  timing,
} from './messages.schema.js';
export * from './contract.js';

// What every process shares: claim references, timing, and the signal to look at the provider now.
// No zod at run time here, nor in any message module workflows import (schemas: *.schema.ts).

/** Documents and personal values travel by reference (src/claims/ref.ts). */
export type { ClaimRef } from '../../src/claims/ref.js';

export type Timing = z.infer<typeof timing>;
export type TimingInput = z.input<typeof timing>;

/** Look at the provider now (a backend that learnt something, or an operator in the UI). */
export const refreshSignal = defineSignal('refresh');

/** The details of InputRejected and NotDelivered: the field at fault. */
export type FieldFailureDetails = z.output<typeof fieldFailureDetails>;
export type ProviderRefusedDetails = z.output<typeof providerRefusedDetails>;
export type ClaimStoreFailedDetails = z.output<typeof claimStoreFailedDetails>;
