import type { PaymentMethod } from '../../provider/schemas/payment-method.js';
import { paymentMethodSrn } from '../../provider/srn.js';
import { paymentMethodFor } from '../access.js';
import type { SandboxContext } from '../context.js';
import { SandboxError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { deriveAccountStatus, newField } from '../kyc.js';
import type { ProviderRoute } from '../provider-route.js';
import {
  attachBlockchains,
  createPaymentMethod,
  listPaymentMethods,
  readPaymentMethod,
  submitFollowup,
} from '../../provider/endpoints.js';
import { saveDocument, uploadedFile } from '../documents.js';
import { followSourceOfFunds } from '../source-of-funds.js';
import { blockchainList, DEPOSIT_NETWORKS } from './wallets.js';

function addresses(method: PaymentMethod, list: string[]): void {
  method.blockchains ??= {};
  for (const currency of list) method.blockchains[currency] ??= DEPOSIT_NETWORKS[currency]!.address();
}

export function registerPaymentMethodRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;

  route(createPaymentMethod, ({ actor, body: req }) => {
    // docs/provider-contract.md §OP-5: a user's method names the user as owner and masquerades as the same user.
    if (req.owner && req.owner !== `user:${actor.userId}`)
      throw validationError('owner', `owner ${req.owner} needs masqueradeAs=${req.owner}`, req.owner);
    if (!req.owner && actor.userId)
      throw validationError('owner', `acting as user:${actor.userId}, send owner user:${actor.userId}`);
    const chains = req.attachBlockchains ? blockchainList(req.attachBlockchains, 'attachBlockchains') : [];
    const id = newId('PA');
    const local = req.paymentMethodType === 'LOCAL_TRANSFER';
    const last4 = req.accountNumber.slice(-4);
    const method: PaymentMethod = {
      id,
      srn: paymentMethodSrn(id),
      owner: req.owner ?? `account:${actor.accountId}`,
      createdAt: ctx.now(),
      name: `${local ? 'ACH' : 'Wire'} account ending in ${last4}`,
      defaultCurrency: req.currency,
      status: 'PENDING',
      statusMessage: null,
      waitingPrompts: [],
      // docs/provider-contract.md §2.2 rule 1.
      linkType: local ? 'LOCAL_TRANSFER' : 'INTERNATIONAL_TRANSFER',
      beneficiaryType: req.beneficiaryType,
      supportsDeposit: true,
      supportsPayment: true,
      disabled: false,
      nameOnMethod: req.nameOnMethod ?? null,
      last4Digits: last4,
      brand: null,
      expirationDisplay: null,
      countryCode: req.country,
      nickname: req.nickname ?? null,
      rejectionMessage: null,
      chargeableCurrencies: [req.currency],
      depositableCurrencies: [req.currency],
      chargeFeeSchedule: null,
      depositFeeSchedule: null,
      minCharge: null,
      maxCharge: null,
      minDeposit: null,
      maxDeposit: null,
      documents: [],
    };
    if (chains.length) addresses(method, chains);
    state.paymentMethods[id] = { method, accountId: actor.accountId };
    // An account's first bank method becomes its source of funds, under review.
    const account = state.accounts[actor.accountId]!.account;
    let sof = account.profileFields.find((f) => f.fieldId === 'individualSourceOfFunds');
    if (!actor.userId && local && (!sof || sof.value === null)) {
      sof ??=
        (account.profileFields.push(newField('individualSourceOfFunds', 'PAYMENT_METHOD', undefined)),
        account.profileFields.at(-1)!);
      Object.assign(sof, { value: id, status: 'PENDING', note: null });
      account.status = deriveAccountStatus(account);
    }
    return method;
  });

  route(listPaymentMethods, ({ actor }) => {
    const owner = actor.userId ? `user:${actor.userId}` : `account:${actor.accountId}`;
    return {
      data: Object.values(state.paymentMethods)
        .filter((r) => r.method.owner === owner)
        .map((r) => r.method),
    };
  });

  // 4.11 at the versioned path of docs/provider-contract.md §OP-5.
  route(readPaymentMethod, ({ actor, params }) => paymentMethodFor(ctx, actor, params.paymentMethodId!).method);

  // docs/provider-contract.md §OP-5.
  route(attachBlockchains, ({ actor, params, body: req }) => {
    const rec = paymentMethodFor(ctx, actor, params.paymentMethodId!);
    if (rec.method.status === 'REJECTED')
      throw new SandboxError('ValidationException', `payment method ${rec.method.id} is rejected`, {
        subType: 'PAYMENT_METHOD_INACTIVE',
        problematicField: 'paymentMethodId',
      });
    addresses(rec.method, blockchainList(req.blockchain, 'blockchain'));
    return rec.method;
  });

  // 4.9: the ACH authorization form, as raw bytes with their MIME type (docs/provider-contract.md §OP-5, least certain).
  route(submitFollowup, ({ req, actor, params, raw }) => {
    const rec = paymentMethodFor(ctx, actor, params.paymentMethodId!);
    const method = rec.method;
    if (method.status !== 'AWAITING_FOLLOWUP' || !method.waitingPrompts.some((p) => p.id === 'ACH_FORM')) {
      throw new SandboxError(
        'ValidationException',
        `payment method ${method.id} is ${method.status} and awaits no follow-up`,
        {
          subType: method.status === 'REJECTED' ? 'PAYMENT_METHOD_INACTIVE' : 'PAYMENT_METHOD_DOESNT_SUPPORT_FOLLOWUPS',
          problematicField: 'paymentMethodId',
        },
      );
    }
    const doc = saveDocument(ctx, { accountId: rec.accountId, fieldId: 'ACH_FORM', ...uploadedFile(req, raw) });
    // docs/provider-contract.md §3.1: under review; the prompt is answered; the source of funds is PENDING.
    method.waitingPrompts = [];
    method.documents = [...method.documents, doc.id];
    followSourceOfFunds(ctx, rec, 'PENDING', 'sourceOfFunds.underReview');
    return method;
  });
}
