import { z } from 'zod';
import { REVIEWER_NOTES, reviewerNoteKeys, type ReviewerNoteKey } from '../../provider/reviewer-notes.js';
import { DEBIT_CARD_L2 } from '../../provider/schemas/user.js';
import type { SandboxContext } from '../context.js';
import { validationError } from '../errors.js';
import { faultSchema } from '../faults.js';
import { lookup } from '../access.js';
import type { OperatorRoute } from '../operator-route.js';
import { followSourceOfFunds } from '../source-of-funds.js';
import { refreshStatus } from './accounts.js';

// Operator routes that play the provider's reviewers and its operator: profile field reviews,
// user approval for higher limits, account features, the ACH form flow, and fault knobs.

const rejectBody = z
  .object({
    note: z.enum(reviewerNoteKeys as [ReviewerNoteKey, ...ReviewerNoteKey[]], {
      message: `note must be one of ${reviewerNoteKeys.join(', ')}`,
    }),
  })
  .strict();
const featuresBody = z.object({ debitCardL2: z.boolean().optional(), userApi: z.boolean().optional() }).strict();
const rejectMethodBody = z
  .object({ message: z.string().min(1).default('The bank account could not be verified') })
  .strict();

export function registerKycOperatorRoutes(route: OperatorRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;
  const account = (id: string) => lookup(state.accounts, id, 'Account');
  const field = (accountId: string, fieldId: string) => {
    const rec = account(accountId);
    const found = rec.account.profileFields.find((p) => p.fieldId === fieldId);
    if (!found) throw validationError('fieldId', `account ${accountId} has no field ${fieldId}`, fieldId);
    return { rec, profileField: found };
  };

  // docs/provider-contract.md §3.2: PENDING → OPEN with a reviewer's note (also "a data point is wrong" on any field).
  route('POST', '/sandbox/accounts/:accountId/fields/:fieldId/reject', rejectBody, ({ accountId, fieldId }, body) => {
    const { rec, profileField } = field(accountId!, fieldId!);
    const note = REVIEWER_NOTES[body.note];
    if (note.field !== fieldId)
      throw validationError('note', `${body.note} is a note about ${note.field}, not ${fieldId}`, body.note);
    if (profileField.status === 'APPROVED') throw validationError('fieldId', `${fieldId} is already approved`, fieldId);
    Object.assign(profileField, { status: 'OPEN', note: note.text });
    refreshStatus(rec);
    return rec.account;
  });

  // docs/provider-contract.md §3.2: PENDING → APPROVED, note null.
  route('POST', '/sandbox/accounts/:accountId/fields/:fieldId/approve', undefined, ({ accountId, fieldId }) => {
    const { rec, profileField } = field(accountId!, fieldId!);
    if (profileField.status !== 'PENDING')
      throw validationError(
        'fieldId',
        `${fieldId} is ${profileField.status}; only a PENDING field can be approved`,
        profileField.status,
      );
    Object.assign(profileField, { status: 'APPROVED', note: null });
    refreshStatus(rec);
    return rec.account;
  });

  route('POST', '/sandbox/accounts/:accountId/close', undefined, ({ accountId }) => {
    const rec = account(accountId!);
    rec.account.status = 'CLOSED';
    return rec.account;
  });

  // docs/provider-contract.md §8 rules 2 and 3: the operator configures DEBIT_CARD_L2 and the User API per account.
  route('POST', '/sandbox/accounts/:accountId/features', featuresBody, ({ accountId }, body) => {
    const rec = account(accountId!);
    Object.assign(rec.features, body);
    return { accountId: rec.account.id, features: rec.features };
  });

  // The extra verification for higher limits: the user's onboarding is reviewed.
  route('POST', '/sandbox/users/:userId/approve', undefined, ({ userId }) => {
    const rec = lookup(state.users, userId!, 'User');
    if (rec.user.status === 'CLOSED') throw validationError('userId', `user ${userId} is closed`, userId);
    if (!rec.user.scopes?.includes(DEBIT_CARD_L2))
      throw validationError(
        'scopes',
        `user ${userId} was not created with ${DEBIT_CARD_L2}; higher limits need it`,
        rec.user.scopes,
      );
    rec.user.status = 'APPROVED';
    return rec.user;
  });

  route('POST', '/sandbox/users/:userId/reject', undefined, ({ userId }) => {
    const rec = lookup(state.users, userId!, 'User');
    if (rec.user.status === 'CLOSED') throw validationError('userId', `user ${userId} is closed`, userId);
    rec.user.status = 'OPEN';
    return rec.user;
  });

  const method = (id: string) => lookup(state.paymentMethods, id, 'Payment method');

  // docs/provider-contract.md §3.1: (any) → AWAITING_FOLLOWUP with the ACH_FORM prompt; source of funds OPEN.
  route('POST', '/sandbox/payment-methods/:paymentMethodId/request-ach-form', undefined, ({ paymentMethodId }) => {
    const rec = method(paymentMethodId!);
    if (rec.method.status === 'REJECTED')
      throw validationError('status', `payment method ${rec.method.id} is rejected`, 'REJECTED');
    rec.method.status = 'AWAITING_FOLLOWUP';
    rec.method.waitingPrompts = [
      {
        id: 'ACH_FORM',
        type: 'DOCUMENT',
        prompt:
          "Upload a photo of yourself holding a paper that shows the service name, today's date, the last four digits of your bank account number and your signature.",
      },
    ];
    followSourceOfFunds(ctx, rec, 'OPEN', 'sourceOfFunds.additionalInformation');
    return rec.method;
  });

  // docs/provider-contract.md §3.1: AWAITING_FOLLOWUP → APPROVED once the form is reviewed; source of funds APPROVED.
  route('POST', '/sandbox/payment-methods/:paymentMethodId/approve', undefined, ({ paymentMethodId }) => {
    const rec = method(paymentMethodId!);
    if (rec.method.status !== 'AWAITING_FOLLOWUP' || rec.method.waitingPrompts.length > 0) {
      throw validationError(
        'status',
        `payment method ${rec.method.id} is ${rec.method.status}${rec.method.waitingPrompts.length ? ' and still waits for its follow-up' : ''}; approve follows a submitted ACH form`,
        rec.method.status,
      );
    }
    rec.method.status = 'APPROVED';
    followSourceOfFunds(ctx, rec, 'APPROVED', null);
    return rec.method;
  });

  // PENDING or APPROVED → ACTIVE: ready for use (docs/provider-contract.md §3.1 lists ACTIVE; the transition is not shown).
  route('POST', '/sandbox/payment-methods/:paymentMethodId/activate', undefined, ({ paymentMethodId }) => {
    const rec = method(paymentMethodId!);
    if (!['PENDING', 'APPROVED'].includes(rec.method.status))
      throw validationError(
        'status',
        `payment method ${rec.method.id} is ${rec.method.status}; only PENDING or APPROVED can be activated`,
        rec.method.status,
      );
    rec.method.status = 'ACTIVE';
    followSourceOfFunds(ctx, rec, 'APPROVED', null);
    return rec.method;
  });

  route('POST', '/sandbox/payment-methods/:paymentMethodId/reject', rejectMethodBody, ({ paymentMethodId }, body) => {
    const rec = method(paymentMethodId!);
    if (rec.method.status === 'REJECTED')
      throw validationError('status', `payment method ${rec.method.id} is already rejected`, 'REJECTED');
    Object.assign(rec.method, {
      status: 'REJECTED',
      rejectionMessage: body.message,
      waitingPrompts: [],
      disabled: true,
    });
    followSourceOfFunds(ctx, rec, 'OPEN', 'sourceOfFunds.additionalInformation');
    return rec.method;
  });

  // Fault knobs per provider route.
  route('GET', '/sandbox/knobs/faults', undefined, () => ({ data: ctx.faults.list() }));
  route('PUT', '/sandbox/knobs/faults', faultSchema, (_p, body) => ctx.faults.set(body));
  route('DELETE', '/sandbox/knobs/faults', undefined, () => {
    ctx.faults.clear();
    return { data: [] };
  });
}
