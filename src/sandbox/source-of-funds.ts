import { REVIEWER_NOTES, type ReviewerNoteKey } from '../provider/reviewer-notes.js';
import type { PaymentMethodRecord } from './store.js';
import type { SandboxContext } from './context.js';
import { deriveAccountStatus } from './kyc.js';

// docs/provider-contract.md §3.1: the account's individualSourceOfFunds follows a payment method only when that method
// is the source of funds.
export function followSourceOfFunds(
  ctx: SandboxContext,
  pm: PaymentMethodRecord,
  status: 'OPEN' | 'PENDING' | 'APPROVED',
  note: ReviewerNoteKey | null,
): void {
  const rec = ctx.store.state.accounts[pm.accountId];
  const field = rec?.account.profileFields.find((f) => f.fieldId === 'individualSourceOfFunds');
  if (!rec || !field || field.value !== pm.method.id) return;
  field.status = status;
  field.note = note ? REVIEWER_NOTES[note].text : null;
  rec.account.status = deriveAccountStatus(rec.account);
}
