import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { AchFollowupClient } from '../../workflows/ach-followup/client.js';
import { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from '../../workflows/lib/client-errors.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { type ClaimStore, LocalClaimStore, type PutOptions, putValue } from '../../src/claims/store.js';
import { ensureClaimRetentionSchedule } from '../../src/claims/schedule.js';
import { generateClientSecret } from '../../src/provider/client-token.js';
import * as api from '../../src/provider/endpoints.js';
import { accountWithProfile, PNG_DOCUMENT } from '../../scripts/fixtures/account.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { explainedBy } from '../helpers/run-report.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import { provisioningWorkflowId } from '../../workflows/provisioning/messages.js';

// Personal data that leaves no trace: a claim is deleted once its process is done with it, a
// Temporal Schedule sweeps what outlived CLAIM_RETENTION, and an operator erases one person's
// claims on request.

/** Claim files in the store (their metadata files and the store's keys aside). */
const claimFiles = (dir: string) => readdirSync(dir).filter((f) => /^[0-9a-f]{64}$/.test(f));

describe('claims: deleted after use, swept after retention, erased on request', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  /** Until the KYC run asks for the SSN; if it never does, what the run was doing joins the failure. */
  const untilSsnAwaited = (kyc: KycClient, accountId: string) =>
    explainedBy(
      stack.client.workflow.getHandle(kycWorkflowId(accountId)),
      eventually(async () =>
        assert.ok(
          (await kyc.state(accountId)).fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting),
          'the SSN is awaited',
        ),
      ),
    );

  it('KYC keeps a value through a claim store failure that passes, and sends it once the store answers', async () => {
    // The client stores the SSN; then, before the worker reads it, the disk fails for a while (a
    // directory where the file was: EISDIR, not "no such file"). Taken for a refusal, the value
    // would be deleted and the person asked again; retried, it reaches the provider.
    const restored: Array<Promise<void>> = [];
    const failing: ClaimStore = Object.assign(Object.create(stack.claims) as ClaimStore, {
      put: async (bytes: Uint8Array, contentType: string, opts?: PutOptions) => {
        const ref = await stack.claims.put(bytes, contentType, opts);
        const file = join(stack.claimsDir, ref.ref.slice('local:'.length));
        renameSync(file, `${file}.aside`);
        mkdirSync(file);
        restored.push(
          new Promise((resolve) =>
            setTimeout(() => {
              rmdirSync(file);
              renameSync(`${file}.aside`, file);
              resolve();
            }, 2_500),
          ),
        );
        return ref;
      },
    });
    const kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: failing, timing: stack.timing });
    const accountId = await accountWithProfile(stack, {
      submit: ['individualSsn'],
      reject: { individualSsn: 'ssn.invalid' },
    });
    await kyc.start(accountId);
    await untilSsnAwaited(kyc, accountId);
    const stored = new Set(claimFiles(stack.claimsDir));
    try {
      const field = await kyc.submitValue(accountId, 'individualSsn', '078-05-1120');
      assert.equal(field.error, null, 'the submission was not taken for a refusal');
      assert.notEqual(field.status, 'OPEN');
      assert.equal(field.attempts, 1);
      const account = await stack.provider.call(api.readAccount, { params: { accountId }, masqueradeAs: accountId });
      assert.equal(
        account.profileFields.find((f) => f.fieldId === 'individualSsn')?.value,
        '078-05-1120',
        'the provider got the value',
      );
      assert.deepEqual(
        claimFiles(stack.claimsDir).filter((f) => !stored.has(f)),
        [],
        'deleted once sent, not before',
      );
    } finally {
      await Promise.all(restored);
      await stack.client.workflow
        .getHandle(`kyc:${accountId}`)
        .terminate('test done')
        .catch(() => {});
    }
  });

  it('provisioning deletes the client secret it kept once the account exists', async () => {
    const provisioning = new ProvisioningClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims });
    const clientRef = `claims-${randomUUID()}`;
    const before = claimFiles(stack.claimsDir).length;
    await provisioning.start({ clientRef, country: 'FR', secret: generateClientSecret() });
    assert.equal(
      (await resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef))).outcome,
      'CREATED',
    );
    assert.equal(claimFiles(stack.claimsDir).length, before, 'the secret is no longer in the store');
  });

  it('KYC deletes a value once the provider has taken it', async () => {
    const kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
    const accountId = await accountWithProfile(stack, {
      submit: ['individualSsn'],
      reject: { individualSsn: 'ssn.invalid' },
    });
    await kyc.start(accountId);
    await untilSsnAwaited(kyc, accountId);
    const stored = new Set(claimFiles(stack.claimsDir));
    await kyc.submitValue(accountId, 'individualSsn', '078-05-1120');
    const left = claimFiles(stack.claimsDir).filter((f) => !stored.has(f));
    assert.deepEqual(left, [], 'the SSN was deleted from the claim store once submitted');
    await stack.client.workflow
      .getHandle(`kyc:${accountId}`)
      .terminate('test done')
      .catch(() => {});
  });

  it('a value or form whose update is refused is deleted at once: refused by the validator, for a process that is done, or for none', async () => {
    const kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
    const ach = new AchFollowupClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims });
    // Every file of a claim, its metadata included.
    const files = () => new Set(readdirSync(stack.claimsDir).filter((f) => /^[0-9a-f]{64}/.test(f)));
    const accountId = await accountWithProfile(stack, {
      submit: ['individualSsn', 'individualLegalName', 'individualGovernmentId'],
      reject: { individualSsn: 'ssn.invalid' },
    });
    await kyc.start(accountId);
    await untilSsnAwaited(kyc, accountId);
    try {
      const stored = files();
      // The validator refuses a field that asks for nothing.
      await assert.rejects(kyc.submitValue(accountId, 'individualLegalName', 'Ada King'), InputRejectedError);
      assert.deepEqual(
        [...files()].filter((f) => !stored.has(f)),
        [],
        'the refused value is not kept',
      );
      await assert.rejects(kyc.submitDocument(accountId, 'individualGovernmentId', PNG_DOCUMENT), InputRejectedError);
      assert.deepEqual(
        [...files()].filter((f) => !stored.has(f)),
        [],
        'nor the refused document',
      );
      // No process under that key, or one that has ended.
      await assert.rejects(kyc.submitValue(`AC_${randomUUID()}`, 'individualSsn', '078-05-1120'), ProcessNotFoundError);
      await assert.rejects(ach.submitForm(`PA_${randomUUID()}`, PNG_DOCUMENT), ProcessNotFoundError);
      await stack.client.workflow.getHandle(`kyc:${accountId}`).terminate('test: a process that is done');
      await assert.rejects(kyc.submitValue(accountId, 'individualSsn', '078-05-1120'), AlreadyFinishedError);
      assert.deepEqual(
        [...files()].filter((f) => !stored.has(f)),
        [],
        'no refused input is kept',
      );
    } finally {
      await stack.client.workflow
        .getHandle(`kyc:${accountId}`)
        .terminate('test done')
        .catch(() => {});
    }
  });

  it('a Schedule sweeps claims older than the retention; newer ones stay', async () => {
    const old = await putValue(stack.claims, '111-22-3333', 'AC_OLD');
    const recent = await putValue(stack.claims, '444-55-6666', 'AC_RECENT');
    // Stored 31 days ago, as far as the store can tell.
    const meta = join(stack.claimsDir, `${old.ref.slice('local:'.length)}.meta`);
    writeFileSync(
      meta,
      JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), createdAt: Date.now() - 31 * 86_400_000 }),
    );
    const config = { ...stack.config, temporal: { ...stack.config.temporal, taskQueue: stack.taskQueue } };
    const scheduleId = await ensureClaimRetentionSchedule(stack.client, config);
    assert.equal(await ensureClaimRetentionSchedule(stack.client, config), scheduleId, 'made once, updated after');
    const handle = stack.client.schedule.getHandle(scheduleId);
    const described = await handle.describe();
    assert.equal(described.action.type, 'startWorkflow');
    await handle.trigger();
    await eventually(
      async () => {
        await assert.rejects(stack.claims.get(old), /not in the claim store/);
      },
      30_000,
      300,
    );
    assert.equal((await stack.claims.get(recent)).toString(), '444-55-6666');
    await handle.delete();
  });

  it("`npm run claims:erase -- <subject>` erases one person's claims and no one else's; without a subject it changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-erase-'));
    const key = randomBytes(32);
    const store = new LocalClaimStore(dir, { key });
    const mine = [
      await putValue(store, '123-45-6789', 'AC_ERASE1'),
      await store.put(Buffer.from('passport'), 'image/jpeg', { subject: 'AC_ERASE1' }),
    ];
    const theirs = await putValue(store, '987-65-4321', 'AC_OTHER');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      CLAIM_STORE_DIR: dir,
      CLAIM_ENCRYPTION_KEY: key.toString('base64'),
    };
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/erase-claims.ts', ...args], {
        env,
        encoding: 'utf8',
      });
    await assert.rejects(
      run([]),
      (err: { code?: number; stderr?: string }) => err.code === 2 && /usage/.test(err.stderr ?? ''),
    );
    assert.equal(claimFiles(dir).length, 3, 'nothing was erased');
    const { stdout } = await run(['AC_ERASE1']);
    assert.match(stdout, /erased 2 claims of AC_ERASE1/);
    for (const ref of mine) await assert.rejects(store.get(ref), /not in the claim store/);
    assert.equal((await store.get(theirs)).toString(), '987-65-4321');
    // Pointed at a real deployment without the claim key, it refuses instead of guessing one.
    await assert.rejects(
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/erase-claims.ts', 'AC_OTHER'], {
        env: { ...env, CLAIM_ENCRYPTION_KEY: '', CLAIM_STORE_DIR: mkdtempSync(join(tmpdir(), 'payflows-erase-')) },
        encoding: 'utf8',
      }),
      (err: { code?: number; stderr?: string }) => err.code === 78 && /CLAIM_ENCRYPTION_KEY/.test(err.stderr ?? ''),
    );
  });
});
