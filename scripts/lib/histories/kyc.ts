import * as api from '../../../src/provider/endpoints.js';
import { KycClient } from '../../../workflows/kyc/client.js';
import type { TimingInput } from '../../../workflows/lib/messages.js';
import { accountWithProfile, type AccountShape, DOCUMENT_FIELDS, PNG_DOCUMENT } from '../../fixtures/account.js';
import { sleep, until } from '../child.js';
import { clients, expect, op, provider, quickClient, refusedOnce, sandbox, save, type Stories } from './context.js';

/** A KYC started on an account whose fields were all submitted; the reviewer rejects some and approves the rest. */
async function started(
  rejected: AccountShape['reject'],
  { timing, maxAttemptsPerField }: { timing?: TimingInput; maxAttemptsPerField?: number } = {},
) {
  const accountId = await accountWithProfile(sandbox, { reject: rejected });
  const kyc = quickClient(KycClient, timing, { maxAttemptsPerField });
  await kyc.start(accountId);
  return { accountId, kyc };
}

const awaitingInput = (kyc: KycClient, accountId: string, fieldId: string) =>
  until(
    `${fieldId} to await input`,
    () => kyc.state(accountId),
    (state) => state.fields.some((field) => field.fieldId === fieldId && field.awaiting),
  );

export const stories: Stories = {
  // The SSN sent back, resubmitted by reference, approved. The account has only its SSN
  // submitted, and that sent back; the rest comes while the process runs.
  async kyc() {
    const accountId = await accountWithProfile(sandbox, {
      submit: ['individualSsn'],
      reject: { individualSsn: 'ssn.invalid' },
    });
    await clients.kyc.start(accountId);
    await until(
      'a field to await input',
      () => clients.kyc.state(accountId),
      (state) => state.fields.some((field) => field.awaiting),
    );
    await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
    await sleep(500);
    const { profileFields } = await provider.call(api.readAccount, {
      params: { accountId },
      masqueradeAs: accountId,
    });
    for (const field of profileFields.filter((f) => f.status === 'PENDING'))
      await op('POST', `/sandbox/accounts/${accountId}/fields/${field.fieldId}/approve`);
    for (const fieldId of DOCUMENT_FIELDS)
      await provider.call(api.uploadDocument, {
        params: { accountId, fieldId },
        body: PNG_DOCUMENT,
        masqueradeAs: accountId,
      });
    const valueFields = ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress'];
    for (const fieldId of valueFields) {
      await provider.call(api.updateAccount, {
        params: { accountId },
        body: { profileFields: [{ fieldId, value: 'x' }] },
        masqueradeAs: accountId,
      });
    }
    for (const fieldId of [...valueFields, ...DOCUMENT_FIELDS])
      await op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/approve`);
    await clients.kyc.result(accountId);
    save('kyc', 'kyc', `kyc:${accountId}`);
  },

  // Nobody answers: reminders after the quiet time, then EXPIRED at the deadline.
  async 'kyc-reminders-expired'() {
    const { accountId, kyc } = await started(
      { individualSsn: 'ssn.invalid' },
      { timing: { reminderAfterMs: 300, deadlineMs: 2_500 } },
    );
    expect('outcome', (await kyc.result(accountId)).outcome, 'EXPIRED');
    if ((await kyc.state(accountId)).reminders < 2) throw new Error('fewer than two reminders');
    save('kyc', 'kyc-reminders-expired', `kyc:${accountId}`);
  },

  // The provider refuses a submission (a 500 it calls not transient): the update fails, no
  // attempt is used up, the end user sends again and the field is approved.
  async 'kyc-refused'() {
    const { accountId, kyc } = await started({ individualSsn: 'ssn.invalid' });
    await awaitingInput(kyc, accountId, 'individualSsn');
    const refused = await refusedOnce('POST /v3/accounts/:accountId', () =>
      kyc.submitValue(accountId, 'individualSsn', '123-45-6789'),
    );
    if (!refused) throw new Error('the submission was not refused');
    await awaitingInput(kyc, accountId, 'individualSsn');
    expect(
      'status after sending again',
      (await kyc.submitValue(accountId, 'individualSsn', '123-45-6789')).status,
      'PENDING',
    );
    await op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
    expect('outcome', (await kyc.result(accountId)).outcome, 'APPROVED');
    save('kyc', 'kyc-refused', `kyc:${accountId}`);
  },

  // A document rejected after each of its two allowed attempts: ATTEMPTS_EXHAUSTED.
  async 'kyc-attempts-exhausted'() {
    const { accountId, kyc } = await started({ individualGovernmentId: 'identity.blurry' }, { maxAttemptsPerField: 2 });
    for (const note of ['identity.fourCorners', 'identity.expired']) {
      await awaitingInput(kyc, accountId, 'individualGovernmentId');
      await kyc.submitDocument(accountId, 'individualGovernmentId', {
        ...PNG_DOCUMENT,
        documentType: 'PASSPORT',
        documentSubType: 'FRONT',
      });
      await op('POST', `/sandbox/accounts/${accountId}/fields/individualGovernmentId/reject`, { note });
    }
    expect('outcome', (await kyc.result(accountId)).outcome, 'ATTEMPTS_EXHAUSTED');
    save('kyc', 'kyc-attempts-exhausted', `kyc:${accountId}`);
  },

  // The provider closes the account while the end user owes input: CLOSED.
  async 'kyc-closed'() {
    const { accountId, kyc } = await started({ individualSsn: 'ssn.invalid' });
    await awaitingInput(kyc, accountId, 'individualSsn');
    await op('POST', `/sandbox/accounts/${accountId}/close`);
    expect('outcome', (await kyc.result(accountId)).outcome, 'CLOSED');
    save('kyc', 'kyc-closed', `kyc:${accountId}`);
  },
};
