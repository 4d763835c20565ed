import assert from 'node:assert/strict';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { after, before, describe, it } from 'node:test';
import type { TimingInput } from '../../workflows/lib/messages.js';
import { refreshSignal } from '../../workflows/lib/messages.js';
import type { KycState } from '../../workflows/kyc/messages.js';
import { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from '../../workflows/lib/client-errors.js';
import { KycClient } from '../../workflows/kyc/client.js';
import type { ReviewerNoteKey } from '../../src/provider/reviewer-notes.js';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';
import { accountWithProfile } from '../../scripts/fixtures/account.js';
import { assertFields } from '../helpers/assert.js';
import { decrypted, historyText } from '../helpers/history.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
const PDF = Buffer.from('%PDF-1.4 statement');

describe('KYC resubmission (docs/provider-contract.md §3.2)', () => {
  let stack: Stack;
  let kyc: KycClient;
  before(async () => {
    stack = await startStack();
    kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
  });
  after(async () => stack?.stop());

  const client = (opts: { timing?: Partial<TimingInput>; maxAttemptsPerField?: number }) =>
    new KycClient(stack.client, {
      taskQueue: stack.taskQueue,
      claims: stack.claims,
      timing: { ...stack.timing, ...opts.timing },
      maxAttemptsPerField: opts.maxAttemptsPerField,
    });
  const sandboxAccount = (accountId: string) => stack.sandbox.ctx.store.state.accounts[accountId]!.account;
  const sandboxField = (accountId: string, fieldId: string) =>
    sandboxAccount(accountId).profileFields.find((f) => f.fieldId === fieldId)!;
  const reject = (accountId: string, fieldId: string, note: ReviewerNoteKey) =>
    stack.op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/reject`, { note });
  const approve = (accountId: string, fieldId: string) =>
    stack.op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/approve`);
  const awaiting = (s: KycState) =>
    s.fields
      .filter((f) => f.awaiting)
      .map((f) => f.fieldId)
      .sort();
  const searchAttribute = async (workflowId: string, name: string) =>
    (await stack.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes
      .getAll()
      .find((p) => p.key.name === name)?.value;

  it('asks for what the reviewer rejected, with reasons, sends it, and ends APPROVED', async () => {
    const accountId = await accountWithProfile(stack, {
      reject: { individualSsn: 'ssn.invalid', individualGovernmentId: 'identity.blurry' },
    });
    const id = await kyc.start(accountId);
    assert.equal(id, `kyc:${accountId}`);
    assert.equal(await kyc.start(accountId), id, 'a second start attaches');

    const waiting = await eventually(async () => {
      const state = await kyc.state(accountId);
      assert.deepEqual(awaiting(state), ['individualGovernmentId', 'individualSsn']);
      return state;
    });
    assert.equal(waiting.stage, 'WAITING_FOR_END_USER');
    const ssn = waiting.fields.find((f) => f.fieldId === 'individualSsn')!;
    assertFields(ssn, {
      fieldType: 'STRING',
      status: 'OPEN',
      note: 'A valid social security number is required',
      reason: { code: 'ssn.invalid', provide: 'value' },
      attempts: 0,
    });
    const governmentId = waiting.fields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assert.deepEqual(governmentId.reason, {
      code: 'identity.blurry',
      message: 'Take a new photo in good light; the text must be sharp',
      provide: 'document',
    });
    assert.ok(waiting.fields.filter((f) => !f.awaiting).every((f) => f.status === 'APPROVED'));
    await eventually(async () => {
      assert.equal(await searchAttribute(id, 'AccountId'), accountId);
      assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), true);
      assert.equal(await searchAttribute(id, 'ProcessStatus'), 'WAITING_FOR_END_USER');
    });

    const sentSsn = await kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
    assertFields(sentSsn, { status: 'PENDING', attempts: 1, awaiting: false });
    assertFields(
      sandboxField(accountId, 'individualSsn'),
      { status: 'PENDING', value: '123-45-6789' },
      'the provider got the value from the claim store',
    );
    const sentId = await kyc.submitDocument(accountId, 'individualGovernmentId', {
      bytes: JPEG,
      contentType: 'image/jpeg',
      documentType: 'PASSPORT',
      documentSubType: 'FRONT',
    });
    assertFields(sentId, { status: 'PENDING', attempts: 1 });
    assert.equal(
      (sandboxField(accountId, 'individualGovernmentId').value as string[]).length,
      2,
      'the initial upload and the new one',
    );
    await eventually(async () => assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), false));
    assert.equal((await kyc.state(accountId)).stage, 'UNDER_REVIEW');

    await approve(accountId, 'individualSsn');
    await approve(accountId, 'individualGovernmentId');
    const result = await resultWithin(kyc.result(accountId), kycWorkflowId(accountId));
    assert.equal(result.outcome, 'APPROVED');
    assert.ok(result.fields.every((f) => f.status === 'APPROVED' && !f.awaiting));
    assert.deepEqual(result.submissions, { individualSsn: 1, individualGovernmentId: 1 });
    assert.equal(await searchAttribute(id, 'ProcessStatus'), 'APPROVED');

    // A later round may run; on an approved account it ends at once.
    await kyc.start(accountId);
    assert.equal((await resultWithin(kyc.result(accountId), kycWorkflowId(accountId))).outcome, 'APPROVED');
    await assert.rejects(kyc.submitValue(accountId, 'individualSsn', '123-45-6789'), AlreadyFinishedError);
  });

  it('asks again when a resubmission is rejected, counts attempts, and gives up after the last one', async () => {
    const accountId = await accountWithProfile(stack, { reject: { individualGovernmentId: 'identity.blurry' } });
    const twice = client({ maxAttemptsPerField: 2 });
    await twice.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await twice.state(accountId)), ['individualGovernmentId']));
    await twice.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/jpeg' });

    await reject(accountId, 'individualGovernmentId', 'identity.fourCorners');
    const again = await eventually(async () => {
      const field = (await twice.state(accountId)).fields.find((f) => f.fieldId === 'individualGovernmentId')!;
      assert.equal(field.awaiting, true);
      return field;
    });
    assertFields(again, {
      status: 'OPEN',
      note: 'All four corners must be shown',
      reason: { code: 'identity.fourCorners' },
      attempts: 1,
    });
    const second = await twice.submitDocument(accountId, 'individualGovernmentId', {
      bytes: PDF,
      contentType: 'application/pdf',
    });
    assertFields(second, { status: 'PENDING', attempts: 2 });
    assert.equal((sandboxField(accountId, 'individualGovernmentId').value as string[]).length, 3);

    await reject(accountId, 'individualGovernmentId', 'identity.expired');
    const result = await resultWithin(twice.result(accountId), kycWorkflowId(accountId));
    assert.equal(result.outcome, 'ATTEMPTS_EXHAUSTED');
    const spent = result.fields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assertFields(spent, { exhausted: true, attempts: 2, reason: { code: 'identity.expired' } });

    // A new round (support's decision) has idempotency keys of its own (they carry its run
    // chain's id): a key of the earlier round would replay the earlier answer, and the provider
    // would not get the new file.
    await kyc.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await kyc.state(accountId)), ['individualGovernmentId']));
    const third = await kyc.submitDocument(accountId, 'individualGovernmentId', {
      bytes: JPEG,
      contentType: 'image/jpeg',
    });
    assertFields(third, { status: 'PENDING', attempts: 1 });
    assert.equal(
      (sandboxField(accountId, 'individualGovernmentId').value as string[]).length,
      4,
      "the provider got the new round's file",
    );
    assert.equal(
      (await kyc.state(accountId)).submissions.individualGovernmentId,
      1,
      'the round counts its own submissions',
    );
    await stack.client.workflow.getHandle(`kyc:${accountId}`).terminate('test done');
  });

  it('reminds the end user after a quiet time, and ends EXPIRED at the deadline', async () => {
    const accountId = await accountWithProfile(stack, { reject: { individualSsn: 'ssn.invalid' } });
    // Room for two reminders under CI's load, each a timer, an activity and workflow tasks.
    const short = client({ timing: { reminderAfterMs: 300, deadlineMs: 8_000 } });
    await short.start(accountId);
    const result = await resultWithin(short.result(accountId), kycWorkflowId(accountId));
    assert.equal(result.outcome, 'EXPIRED');
    const mine = stack.reminders.filter((r) => r.workflowId === `kyc:${accountId}`);
    assert.ok(mine.length >= 2, `reminders were sent (${mine.length})`);
    assert.ok(mine.every((r) => r.process === 'kyc' && r.waitingFor.join() === 'individualSsn'));
    assert.deepEqual(
      mine.map((r) => r.count),
      mine.map((_, i) => i + 1),
    );
    // The last reminder may still have been on its way when the run closed.
    const counted = (await short.state(accountId)).reminders;
    assert.ok(
      counted >= mine.length && counted <= mine.length + 1,
      `${counted} reminders counted, ${mine.length} sent`,
    );
    assert.equal(sandboxField(accountId, 'individualSsn').status, 'OPEN', 'nothing was sent');
  });

  it('notices an approval at once when signalled to refresh (the provider sends no KYC callbacks)', async () => {
    const accountId = await accountWithProfile(stack, { pending: ['individualSsn'] });
    const slow = client({ timing: { pollInitialMs: 60_000, pollMaxMs: 60_000 } });
    await slow.start(accountId);
    await eventually(async () => assert.equal((await slow.state(accountId)).stage, 'UNDER_REVIEW'));
    await approve(accountId, 'individualSsn');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal((await slow.state(accountId)).stage, 'UNDER_REVIEW', 'a minute between polls: not yet seen');

    const signalled = Date.now();
    await stack.client.workflow.getHandle(`kyc:${accountId}`).signal(refreshSignal);
    assert.equal((await resultWithin(slow.result(accountId), kycWorkflowId(accountId))).outcome, 'APPROVED');
    assert.ok(Date.now() - signalled < 10_000, `seen ${Date.now() - signalled} ms after the signal`);
  });

  it('refuses bad input to start and to every update, and changes nothing', async () => {
    const accountId = await accountWithProfile(stack, {
      reject: { individualSsn: 'ssn.invalid', individualGovernmentId: 'identity.blurry' },
      pending: ['individualLegalName'],
    });
    // No reminders during this test: state must stay as it was.
    const once = client({ timing: { reminderAfterMs: 600_000 }, maxAttemptsPerField: 1 });
    const refused = (field: string, pattern?: RegExp) => (err: unknown) => {
      assert.ok(err instanceof InputRejectedError, String(err));
      assert.equal(err.field, field, err.message);
      if (pattern) assert.match(err.message, pattern);
      return true;
    };

    await assert.rejects(once.start('PA_1'), refused('accountId', /AC_/));
    await assert.rejects(client({ maxAttemptsPerField: 0 }).start(accountId), refused('maxAttemptsPerField'));
    await assert.rejects(once.state(accountId), ProcessNotFoundError, 'a refused start starts nothing');

    await once.start(accountId);
    const before = await eventually(async () => {
      const state = await once.state(accountId);
      assert.deepEqual(awaiting(state), ['individualGovernmentId', 'individualSsn']);
      return state;
    });
    const provider = structuredClone(sandboxAccount(accountId));

    await assert.rejects(
      once.submitValue(accountId, 'individualGovernmentId', '123'),
      refused('fieldId', /individualGovernmentId is a DOCUMENT field.*submitDocument/),
    );
    await assert.rejects(
      once.submitDocument(accountId, 'individualSsn', { bytes: JPEG, contentType: 'image/jpeg' }),
      refused('fieldId', /individualSsn is a STRING field.*submitValue/),
    );
    await assert.rejects(
      once.submitValue(accountId, 'individualLegalName', 'Ada King'),
      refused('fieldId', /not awaiting input: it is PENDING/),
    );
    await assert.rejects(
      once.submitValue(accountId, 'individualShoeSize', '42'),
      refused('fieldId', /no profile field individualShoeSize/),
    );
    await assert.rejects(once.submitValue(accountId, 'Bad Field', '42'), refused('fieldId'));
    await assert.rejects(once.submitValue(accountId, 'individualSsn', '  '), refused('value', /required/));
    await assert.rejects(
      once.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/gif' }),
      refused('document.contentType', /image\/jpeg/),
    );
    await assert.rejects(
      once.submitDocument(accountId, 'individualGovernmentId', {
        bytes: Buffer.alloc(MAX_DOCUMENT_BYTES + 1),
        contentType: 'image/png',
      }),
      refused('document.size', /7\.75 MB/),
    );
    await assert.rejects(
      once.submitDocument(accountId, 'individualGovernmentId', {
        bytes: JPEG,
        contentType: 'image/jpeg',
        documentSubType: 'SIDE' as 'FRONT',
      }),
      refused('documentSubType'),
    );
    await assert.rejects(once.submitValue('AC_NOSUCHTHING', 'individualSsn', '123-45-6789'), ProcessNotFoundError);

    // Past the client's own checks, the workflow's validators are the authority.
    const handle = stack.client.workflow.getHandle(`kyc:${accountId}`);
    const raw = (name: string, arg: unknown) => handle.executeUpdate(name, { args: [arg] });
    const causeIs = (pattern: RegExp) => (e: Error) => pattern.test((e.cause as Error)?.message ?? '');
    const ref = { ref: 'local:abc', sha256: '0'.repeat(64), size: 10 };
    await assert.rejects(
      raw('submitValue', { fieldId: 'individualSsn', value: { ...ref, contentType: 'image/png' } }),
      causeIs(/^value\.contentType: /),
    );
    await assert.rejects(
      raw('submitValue', { fieldId: 'individualSsn', value: { ...ref, contentType: 'text/plain', sha256: 'nothex' } }),
      causeIs(/^value\.sha256: /),
    );
    await assert.rejects(
      raw('submitDocument', {
        fieldId: 'individualGovernmentId',
        document: { ...ref, contentType: 'image/png', size: MAX_DOCUMENT_BYTES + 1 },
      }),
      causeIs(/^document\.size: /),
    );
    await assert.rejects(raw('submitDocument', { fieldId: 'individualGovernmentId' }), causeIs(/^document: /));

    assert.deepEqual(await once.state(accountId), before, 'the process did not move');
    assert.deepEqual(sandboxAccount(accountId), provider, 'the provider got nothing');

    // With one attempt per field, a second submission of the same field is refused.
    await once.submitValue(accountId, 'individualSsn', '123-45-6789');
    await assert.rejects(
      once.submitValue(accountId, 'individualSsn', '123-45-6789'),
      refused('fieldId', /already submitted 1 time/),
    );
    await handle.terminate('test done');
  });

  it('keeps the SSN out of workflow history: only a claim reference travels', async () => {
    const accountId = await accountWithProfile(stack, { reject: { individualSsn: 'ssn.invalid' } });
    await kyc.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await kyc.state(accountId)), ['individualSsn']));
    const secret = '078-05-1120';
    await kyc.submitValue(accountId, 'individualSsn', secret);
    assert.equal(sandboxField(accountId, 'individualSsn').value, secret);
    await approve(accountId, 'individualSsn');
    assert.equal((await resultWithin(kyc.result(accountId), kycWorkflowId(accountId))).outcome, 'APPROVED');

    const history = await stack.client.workflow.getHandle(`kyc:${accountId}`).fetchHistory();
    // As stored, every payload is ciphertext: not even the claim reference shows.
    assert.doesNotMatch(historyText(history), /"ref":"local:/);
    // Decrypted with the payload key and decoded, the search below finds what is there.
    const text = historyText(await decrypted(history, new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64'))));
    assert.match(
      text,
      /"fieldId":"individualSsn","value":\{"ref":"local:[0-9a-f]{64}"/,
      'the update carried a claim reference',
    );
    assert.ok(!text.includes(secret), 'the SSN is not in history');
    assert.ok(!text.includes(secret.replace(/-/g, '')), 'nor its digits');
  });
});
