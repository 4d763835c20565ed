import type { z } from 'zod';
import { documentMimeTypes, MAX_DOCUMENT_BYTES } from '../../src/provider/documents.js';
import { PAYMENT_METHOD_PREFIXES } from '../../src/provider/ids.js';
import type { achFollowupInput, achForm } from './messages.schema.js';
import { type Check, int, object, oneOf } from '../lib/input-check.js';
import { claimRefFields, id, timing } from '../lib/shared-checks.js';

// What the ACH follow-up checks on its input and on a form handed in (workflows/ach-followup/messages.schema.ts in zod).

export const checkAchFollowupInput: Check<z.output<typeof achFollowupInput>> = object({
  paymentMethodId: id(PAYMENT_METHOD_PREFIXES, 'a payment method id'),
  accountId: id('AC', 'an account id'),
  timing,
});

export const checkAchForm: Check<z.output<typeof achForm>> = object({
  ...claimRefFields,
  size: int({ min: 1, max: MAX_DOCUMENT_BYTES, tooBig: 'the form is larger than 7.75 MB' }),
  contentType: oneOf(documentMimeTypes, `the form must be one of ${documentMimeTypes.join(', ')}`),
});
