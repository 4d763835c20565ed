import { documentMimeTypes, MAX_DOCUMENT_BYTES } from '../../src/provider/documents.js';
import { PAYMENT_METHOD_PREFIXES } from '../../src/provider/ids.js';
import { int, object, oneOf } from '../lib/input-check.js';
import { claimRefFields, id, timing } from '../lib/shared-checks.js';

// What the ACH follow-up checks on its input and on a form: their one definition (zod: ./messages.schema.ts).

export const checkAchFollowupInput = object({
  paymentMethodId: id(PAYMENT_METHOD_PREFIXES, 'a payment method id'),
  /** The account the method belongs to: its individualSourceOfFunds follows the method. */
  accountId: id('AC', 'an account id'),
  timing,
});

/** The form: a photo (or scan) as described at the end of docs/provider-contract.md §3.2, kept in the claim store. */
export const checkAchForm = object({
  ...claimRefFields,
  contentType: oneOf(documentMimeTypes, `the form must be one of ${documentMimeTypes.join(', ')}`),
  size: int({ min: 1, max: MAX_DOCUMENT_BYTES, tooBig: 'the form is larger than 7.75 MB' }),
});
