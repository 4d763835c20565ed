import assert from 'node:assert/strict';
import type { Payload } from '@temporalio/common';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { after, before, describe, it } from 'node:test';
import type { TimingInput } from '../../workflows/messages/common.js';
import { refreshSignal } from '../../workflows/messages/common.js';
import type { KycState } from '../../workflows/messages/kyc.js';
import { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from '../../src/client/errors.js';
import { KycClient } from '../../src/client/kyc.js';
import * as api from '../../src/provider/endpoints.js';
import type { ReviewerNoteKey } from '../../src/provider/reviewer-notes.js';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
const PDF = Buffer.from('%PDF-1.4 statement');
const REQUIRED = ['individualLegalName', 'individualDateOfBirth', 'individualSsn', 'individualResidenceAddress', 'individualGovernmentId', 'individualProofOfAddress'];

describe('KYC resubmission (spec 3.2)', () => {
  let stack: Stack;
  let kyc: KycClient;
  before(async () => {
    stack = await startStack();
    kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
  });
  after(async () => stack?.stop());

  const client = (opts: { timing?: Partial<TimingInput>; maxAttemptsPerField?: number }) =>
    new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: { ...stack.timing, ...opts.timing }, maxAttemptsPerField: opts.maxAttemptsPerField });
  const sandboxAccount = (accountId: string) => stack.sandbox.ctx.store.state.accounts[accountId]!.account;
  const sandboxField = (accountId: string, fieldId: string) => sandboxAccount(accountId).profileFields.find((f) => f.fieldId === fieldId)!;
  const reject = (accountId: string, fieldId: string, note: ReviewerNoteKey) => stack.op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/reject`, { note });
  const approve = (accountId: string, fieldId: string) => stack.op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/approve`);
  const awaiting = (s: KycState) => s.fields.filter((f) => f.awaiting).map((f) => f.fieldId).sort();
  const searchAttribute = async (workflowId: string, name: string) =>
    (await stack.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.getAll().find((p) => p.key.name === name)?.value;

  /**
   * An account whose data and documents were all submitted; then the reviewer rejects some
   * fields with a note, and approves every other field except those kept pending.
   */
  async function account(opts: { reject?: Partial<Record<string, ReviewerNoteKey>>; pending?: string[] } = {}): Promise<string> {
    const a = await stack.provider.call(api.createAccount, {
      body: {
        country: 'US',
        profileFields: [
          { fieldId: 'individualLegalName', value: 'Ada Lovelace' },
          { fieldId: 'individualDateOfBirth', value: '1990-12-10' },
          { fieldId: 'individualSsn', value: '000-00-0000' },
          { fieldId: 'individualResidenceAddress', value: '1 Main St, Springfield' },
        ],
      },
    });
    for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
      await stack.provider.call(api.uploadDocument, { params: { accountId: a.id, fieldId }, body: { bytes: JPEG, contentType: 'image/jpeg' }, masqueradeAs: a.id });
    }
    const rejected = opts.reject ?? {};
    for (const [fieldId, note] of Object.entries(rejected)) await reject(a.id, fieldId, note!);
    for (const fieldId of REQUIRED) if (!(fieldId in rejected) && !opts.pending?.includes(fieldId)) await approve(a.id, fieldId);
    return a.id;
  }

  it('asks for what the reviewer rejected, with reasons, sends it, and ends APPROVED', async () => {
    const accountId = await account({ reject: { individualSsn: 'ssn.invalid', individualGovernmentId: 'identity.blurry' } });
    const id = await kyc.start(accountId);
    assert.equal(id, `kyc:${accountId}`);
    assert.equal(await kyc.start(accountId), id, 'a second start attaches');

    const waiting = await eventually(async () => {
      const s = await kyc.state(accountId);
      assert.deepEqual(awaiting(s), ['individualGovernmentId', 'individualSsn']);
      return s;
    });
    assert.equal(waiting.stage, 'WAITING_FOR_END_USER');
    const ssn = waiting.fields.find((f) => f.fieldId === 'individualSsn')!;
    assert.deepEqual([ssn.fieldType, ssn.status, ssn.note, ssn.reason?.code, ssn.reason?.provide, ssn.attempts], ['STRING', 'OPEN', 'A valid social security number is required', 'ssn.invalid', 'value', 0]);
    const governmentId = waiting.fields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assert.deepEqual(governmentId.reason, { code: 'identity.blurry', message: 'Take a new photo in good light; the text must be sharp', provide: 'document' });
    assert.ok(waiting.fields.filter((f) => !f.awaiting).every((f) => f.status === 'APPROVED'));
    await eventually(async () => {
      assert.equal(await searchAttribute(id, 'AccountId'), accountId);
      assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), true);
      assert.equal(await searchAttribute(id, 'ProcessStatus'), 'WAITING_FOR_END_USER');
    });

    const sentSsn = await kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
    assert.deepEqual([sentSsn.status, sentSsn.attempts, sentSsn.awaiting], ['PENDING', 1, false]);
    assert.deepEqual([sandboxField(accountId, 'individualSsn').status, sandboxField(accountId, 'individualSsn').value], ['PENDING', '123-45-6789'], 'the provider got the value from the claim store');
    const sentId = await kyc.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/jpeg', documentType: 'PASSPORT', documentSubType: 'FRONT' });
    assert.deepEqual([sentId.status, sentId.attempts], ['PENDING', 1]);
    assert.equal((sandboxField(accountId, 'individualGovernmentId').value as string[]).length, 2, 'the initial upload and the new one');
    await eventually(async () => assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), false));
    assert.equal((await kyc.state(accountId)).stage, 'UNDER_REVIEW');

    await approve(accountId, 'individualSsn');
    await approve(accountId, 'individualGovernmentId');
    const result = await kyc.result(accountId);
    assert.equal(result.outcome, 'APPROVED');
    assert.ok(result.fields.every((f) => f.status === 'APPROVED' && !f.awaiting));
    assert.deepEqual(result.submissions, { individualSsn: 1, individualGovernmentId: 1 });
    assert.equal(await searchAttribute(id, 'ProcessStatus'), 'APPROVED');

    // A later round may run; on an approved account it ends at once.
    await kyc.start(accountId);
    assert.equal((await kyc.result(accountId)).outcome, 'APPROVED');
    await assert.rejects(kyc.submitValue(accountId, 'individualSsn', '123-45-6789'), AlreadyFinishedError);
  });

  it('asks again when a resubmission is rejected, counts attempts, and gives up after the last one', async () => {
    const accountId = await account({ reject: { individualGovernmentId: 'identity.blurry' } });
    const twice = client({ maxAttemptsPerField: 2 });
    await twice.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await twice.state(accountId)), ['individualGovernmentId']));
    await twice.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/jpeg' });

    await reject(accountId, 'individualGovernmentId', 'identity.fourCorners');
    const again = await eventually(async () => {
      const f = (await twice.state(accountId)).fields.find((x) => x.fieldId === 'individualGovernmentId')!;
      assert.equal(f.awaiting, true);
      return f;
    });
    assert.deepEqual([again.status, again.note, again.reason?.code, again.attempts], ['OPEN', 'All four corners must be shown', 'identity.fourCorners', 1]);
    const second = await twice.submitDocument(accountId, 'individualGovernmentId', { bytes: PDF, contentType: 'application/pdf' });
    assert.deepEqual([second.status, second.attempts], ['PENDING', 2]);
    assert.equal((sandboxField(accountId, 'individualGovernmentId').value as string[]).length, 3);

    await reject(accountId, 'individualGovernmentId', 'identity.expired');
    const result = await twice.result(accountId);
    assert.equal(result.outcome, 'ATTEMPTS_EXHAUSTED');
    const spent = result.fields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assert.deepEqual([spent.exhausted, spent.attempts, spent.reason?.code], [true, 2, 'identity.expired']);

    // A new round (support's decision) has idempotency keys of its own (they carry its run
    // chain's id): a key of the earlier round would replay the earlier answer, and the provider
    // would not get the new file.
    await kyc.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await kyc.state(accountId)), ['individualGovernmentId']));
    const third = await kyc.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/jpeg' });
    assert.deepEqual([third.status, third.attempts], ['PENDING', 1]);
    assert.equal((sandboxField(accountId, 'individualGovernmentId').value as string[]).length, 4, 'the provider got the new round\'s file');
    assert.equal((await kyc.state(accountId)).submissions.individualGovernmentId, 1, 'the round counts its own submissions');
    await stack.client.workflow.getHandle(`kyc:${accountId}`).terminate('test done');
  });

  it('reminds the end user after a quiet time, and ends EXPIRED at the deadline', async () => {
    const accountId = await account({ reject: { individualSsn: 'ssn.invalid' } });
    const short = client({ timing: { reminderAfterMs: 300, deadlineMs: 2_500 } });
    await short.start(accountId);
    const result = await short.result(accountId);
    assert.equal(result.outcome, 'EXPIRED');
    const mine = stack.reminders.filter((r) => r.workflowId === `kyc:${accountId}`);
    assert.ok(mine.length >= 2, `reminders were sent (${mine.length})`);
    assert.ok(mine.every((r) => r.process === 'kyc' && r.waitingFor.join() === 'individualSsn'));
    assert.deepEqual(mine.map((r) => r.count), mine.map((_, i) => i + 1));
    // The last reminder may still have been on its way when the run closed.
    const counted = (await short.state(accountId)).reminders;
    assert.ok(counted >= mine.length && counted <= mine.length + 1, `${counted} reminders counted, ${mine.length} sent`);
    assert.equal(sandboxField(accountId, 'individualSsn').status, 'OPEN', 'nothing was sent');
  });

  it('notices an approval at once when signalled to refresh (the provider sends no KYC callbacks)', async () => {
    const accountId = await account({ pending: ['individualSsn'] });
    const slow = client({ timing: { pollInitialMs: 60_000, pollMaxMs: 60_000 } });
    await slow.start(accountId);
    await eventually(async () => assert.equal((await slow.state(accountId)).stage, 'UNDER_REVIEW'));
    await approve(accountId, 'individualSsn');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal((await slow.state(accountId)).stage, 'UNDER_REVIEW', 'a minute between polls: not yet seen');

    const signalled = Date.now();
    await stack.client.workflow.getHandle(`kyc:${accountId}`).signal(refreshSignal);
    assert.equal((await slow.result(accountId)).outcome, 'APPROVED');
    assert.ok(Date.now() - signalled < 10_000, `seen ${Date.now() - signalled} ms after the signal`);
  });

  it('refuses bad input to start and to every update, and changes nothing', async () => {
    const accountId = await account({ reject: { individualSsn: 'ssn.invalid', individualGovernmentId: 'identity.blurry' }, pending: ['individualLegalName'] });
    // No reminders during this test: state must stay as it was.
    const once = client({ timing: { reminderAfterMs: 600_000 }, maxAttemptsPerField: 1 });
    const refused = (field: string, pattern?: RegExp) => (e: unknown) => {
      assert.ok(e instanceof InputRejectedError, String(e));
      assert.equal(e.field, field, e.message);
      if (pattern) assert.match(e.message, pattern);
      return true;
    };

    await assert.rejects(once.start('PA_1'), refused('accountId', /AC_/));
    await assert.rejects(client({ maxAttemptsPerField: 0 }).start(accountId), refused('maxAttemptsPerField'));
    await assert.rejects(once.state(accountId), ProcessNotFoundError, 'a refused start starts nothing');

    await once.start(accountId);
    const before = await eventually(async () => {
      const s = await once.state(accountId);
      assert.deepEqual(awaiting(s), ['individualGovernmentId', 'individualSsn']);
      return s;
    });
    const provider = structuredClone(sandboxAccount(accountId));

    await assert.rejects(once.submitValue(accountId, 'individualGovernmentId', '123'), refused('fieldId', /individualGovernmentId is a DOCUMENT field.*submitDocument/));
    await assert.rejects(once.submitDocument(accountId, 'individualSsn', { bytes: JPEG, contentType: 'image/jpeg' }), refused('fieldId', /individualSsn is a STRING field.*submitValue/));
    await assert.rejects(once.submitValue(accountId, 'individualLegalName', 'Ada King'), refused('fieldId', /not awaiting input: it is PENDING/));
    await assert.rejects(once.submitValue(accountId, 'individualShoeSize', '42'), refused('fieldId', /no profile field individualShoeSize/));
    await assert.rejects(once.submitValue(accountId, 'Bad Field', '42'), refused('fieldId'));
    await assert.rejects(once.submitValue(accountId, 'individualSsn', '  '), refused('value', /required/));
    await assert.rejects(once.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/gif' }), refused('document.contentType', /image\/jpeg/));
    await assert.rejects(once.submitDocument(accountId, 'individualGovernmentId', { bytes: Buffer.alloc(MAX_DOCUMENT_BYTES + 1), contentType: 'image/png' }), refused('document.size', /7\.75 MB/));
    await assert.rejects(once.submitDocument(accountId, 'individualGovernmentId', { bytes: JPEG, contentType: 'image/jpeg', documentSubType: 'SIDE' as 'FRONT' }), refused('documentSubType'));
    await assert.rejects(once.submitValue('AC_NOSUCHTHING', 'individualSsn', '123-45-6789'), ProcessNotFoundError);

    // Past the client's own checks, the workflow's validators are the authority.
    const handle = stack.client.workflow.getHandle(`kyc:${accountId}`);
    const raw = (name: string, arg: unknown) => handle.executeUpdate(name, { args: [arg] });
    const causeIs = (pattern: RegExp) => (e: Error) => pattern.test((e.cause as Error)?.message ?? '');
    const ref = { ref: 'local:abc', sha256: '0'.repeat(64), size: 10 };
    await assert.rejects(raw('submitValue', { fieldId: 'individualSsn', value: { ...ref, contentType: 'image/png' } }), causeIs(/^value\.contentType: /));
    await assert.rejects(raw('submitValue', { fieldId: 'individualSsn', value: { ...ref, contentType: 'text/plain', sha256: 'nothex' } }), causeIs(/^value\.sha256: /));
    await assert.rejects(raw('submitDocument', { fieldId: 'individualGovernmentId', document: { ...ref, contentType: 'image/png', size: MAX_DOCUMENT_BYTES + 1 } }), causeIs(/^document\.size: /));
    await assert.rejects(raw('submitDocument', { fieldId: 'individualGovernmentId' }), causeIs(/^document: /));

    assert.deepEqual(await once.state(accountId), before, 'the process did not move');
    assert.deepEqual(sandboxAccount(accountId), provider, 'the provider got nothing');

    // With one attempt per field, a second submission of the same field is refused.
    await once.submitValue(accountId, 'individualSsn', '123-45-6789');
    await assert.rejects(once.submitValue(accountId, 'individualSsn', '123-45-6789'), refused('fieldId', /already submitted 1 time/));
    await handle.terminate('test done');
  });

  it('keeps the SSN out of workflow history: only a claim reference travels', async () => {
    const accountId = await account({ reject: { individualSsn: 'ssn.invalid' } });
    await kyc.start(accountId);
    await eventually(async () => assert.deepEqual(awaiting(await kyc.state(accountId)), ['individualSsn']));
    const secret = '078-05-1120';
    await kyc.submitValue(accountId, 'individualSsn', secret);
    assert.equal(sandboxField(accountId, 'individualSsn').value, secret);
    await approve(accountId, 'individualSsn');
    assert.equal((await kyc.result(accountId)).outcome, 'APPROVED');

    const history = await stack.client.workflow.getHandle(`kyc:${accountId}`).fetchHistory();
    // As stored, every payload is ciphertext: not even the claim reference shows.
    assert.doesNotMatch(historyText(history), /"ref":"local:/);
    // Decrypted with the payload key and decoded, the search below finds what is there.
    const text = historyText(await decrypted(history, new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64'))));
    assert.match(text, /"fieldId":"individualSsn","value":\{"ref":"local:[0-9a-f]{64}"/, 'the update carried a claim reference');
    assert.ok(!text.includes(secret), 'the SSN is not in history');
    assert.ok(!text.includes(secret.replace(/-/g, '')), 'nor its digits');
  });
});

/** The history with every encrypted payload replaced by what it holds. */
async function decrypted<T>(history: T, codec: EncryptionCodec): Promise<T> {
  const found: Payload[] = [];
  const find = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(find);
    if (!v || typeof v !== 'object' || v instanceof Uint8Array) return;
    const p = v as Payload;
    if (p.metadata?.encoding instanceof Uint8Array && Buffer.from(p.metadata.encoding).toString() === 'binary/encrypted') found.push(p);
    else Object.values(v).forEach(find);
  };
  find(history);
  for (const p of found) Object.assign(p, (await codec.decode([p]))[0]);
  return history;
}

/** The history as text, with every payload's bytes decoded (JSON in UTF-8, parsed in place). */
function historyText(history: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v instanceof Uint8Array) {
      const text = Buffer.from(v).toString('utf8');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(history));
}
