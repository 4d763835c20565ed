import { documentFieldIds } from '../../provider/schemas/account.js';
import { accountFor } from '../access.js';
import type { SandboxContext } from '../context.js';
import { SandboxError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { deriveAccountStatus, fieldDefinition, newField, PROFILE_FIELDS } from '../kyc.js';
import type { ProviderRoute } from '../provider-route.js';
import { createAccount, readAccount, updateAccount, uploadDocument } from '../../provider/endpoints.js';
import { saveDocument, uploadedFile } from '../documents.js';
import type { AccountRecord } from '../store.js';
import { depositAddresses } from './wallets.js';

export function refreshStatus(rec: AccountRecord): void {
  rec.account.status = deriveAccountStatus(rec.account);
}

/** A profile field a request gives as text: a known one, of type STRING (documents are uploaded). */
function textField(requested: { fieldId: string; value?: unknown }, index: number) {
  const def = fieldDefinition(requested.fieldId);
  if (!def)
    throw validationError(
      `profileFields.${index}.fieldId`,
      `unknown profile field; known: ${PROFILE_FIELDS.map((d) => d.fieldId).join(', ')}`,
      requested.fieldId,
    );
  if (def.fieldType !== 'STRING')
    throw validationError(
      `profileFields.${index}.value`,
      `${requested.fieldId} takes a ${def.fieldType.toLowerCase()}: upload it with POST /v3/accounts/:accountId/${requested.fieldId}`,
      requested.value,
    );
  return def;
}

export function registerAccountRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;

  // docs/provider-contract.md §OP-3. A parent's keys create sub-accounts; a client-held token
  // creates its own account once and is bound to it (docs/provider-contract.md §5.3; a second creation fails, docs/provider-contract.md §7.1).
  route({ ...createAccount, unbound: true }, ({ cred, actor, body: req }) => {
    if (cred.kind === 'client-token' && cred.accountId !== null) {
      throw new SandboxError(
        'ValidationException',
        `This token is already bound to account ${cred.accountId}; a client-held token creates one account`,
      );
    }
    if (req.referrerAccountId && !state.accounts[req.referrerAccountId])
      throw validationError('referrerAccountId', `no account ${req.referrerAccountId}`, req.referrerAccountId);
    const given = new Map<string, unknown>();
    req.profileFields.forEach((requested, index) => {
      textField(requested, index);
      given.set(requested.fieldId, requested.value);
    });
    const id = newId('AC');
    const rec: AccountRecord = {
      account: {
        id,
        status: 'OPEN',
        type: req.type ?? 'INDIVIDUAL',
        country: req.country,
        createdAt: ctx.now(),
        depositAddresses: depositAddresses(),
        totalBalances: {},
        availableBalances: {},
        profileFields: PROFILE_FIELDS.filter((d) => d.required || given.has(d.fieldId)).map((d) =>
          newField(d.fieldId, d.fieldType, given.get(d.fieldId)),
        ),
      },
      parentId: cred.kind === 'client-token' ? null : actor.principalId,
      features: { debitCardL2: false, userApi: false },
    };
    refreshStatus(rec);
    state.accounts[id] = rec;
    if (cred.kind === 'client-token') cred.accountId = id;
    return rec.account;
  });

  // 4.4
  route(readAccount, ({ actor, params }) => accountFor(ctx, actor, params.accountId!).account);

  // Resubmitting data (not in the contract; the real service's "Update Account"): OPEN → PENDING.
  route(updateAccount, ({ actor, params, body: req }) => {
    const rec = accountFor(ctx, actor, params.accountId!);
    // Check every field first: a request with one bad field changes none.
    const changes = req.profileFields.map((requested, index) => {
      const def = textField(requested, index);
      if (requested.value === null || requested.value === undefined || requested.value === '')
        throw validationError(`profileFields.${index}.value`, 'a value is required', requested.value);
      const field = rec.account.profileFields.find((p) => p.fieldId === requested.fieldId);
      if (field?.status === 'APPROVED')
        throw validationError(
          `profileFields.${index}.fieldId`,
          `${requested.fieldId} is already approved`,
          requested.fieldId,
        );
      return { def, field, value: requested.value };
    });
    for (const change of changes) {
      if (change.field) Object.assign(change.field, { value: change.value, status: 'PENDING', note: null });
      else rec.account.profileFields.push(newField(change.def.fieldId, change.def.fieldType, change.value));
    }
    refreshStatus(rec);
    return rec.account;
  });

  // 4.10 with docs/provider-contract.md §OP-4: raw bytes, their MIME type, at most 7.75 MB.
  route(uploadDocument, ({ req, actor, params, raw, query }) => {
    const rec = accountFor(ctx, actor, params.accountId!);
    const fieldId = params.fieldId!;
    if (!(documentFieldIds as readonly string[]).includes(fieldId))
      throw validationError('fieldId', `documents go to ${documentFieldIds.join(', ')}`, fieldId);
    const file = uploadedFile(req, raw);
    if (query.documentSubType && !['FRONT', 'BACK'].includes(query.documentSubType))
      throw validationError('documentSubType', 'FRONT or BACK', query.documentSubType);
    let field = rec.account.profileFields.find((f) => f.fieldId === fieldId);
    if (field?.status === 'APPROVED') throw validationError('fieldId', `${fieldId} is already approved`, fieldId);
    const doc = saveDocument(ctx, {
      accountId: rec.account.id,
      fieldId,
      ...file,
      ...(query.documentType ? { documentType: query.documentType } : {}),
      ...(query.documentSubType ? { documentSubType: query.documentSubType } : {}),
    });
    if (!field) {
      field = newField(fieldId, 'DOCUMENT', undefined);
      rec.account.profileFields.push(field);
    }
    field.value = [...(Array.isArray(field.value) ? (field.value as string[]) : []), doc.id];
    field.status = 'PENDING';
    field.note = null;
    refreshStatus(rec);
    return rec.account;
  });
}
