import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { DefaultLogger, type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createAccountActivities } from '../../activities/accounts.js';
import { type ClaimStore, LocalClaimStore } from '../../src/claims/store.js';
import { ClaimStoreError, NotDeliveredError, ProviderRefusedError } from '../../workflows/lib/client-errors.js';
import { ProviderError } from '../../src/provider/errors.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { loadConfig } from '../../src/config.js';
import { codecFromConfig, encryptingDataConverter } from '../../src/temporal/codec.js';
import { startTracing, workerTracingOptions } from '../../src/telemetry/tracing.js';
import { clientFor } from '../../src/temporal/connection.js';
import { achStateQuery, submitAchFormUpdate } from '../../workflows/ach-followup/messages.js';
import { type ClaimRef, INPUT_REJECTED, NOT_DELIVERED } from '../../workflows/lib/messages.js';
import { kycStateQuery, submitValueUpdate } from '../../workflows/kyc/messages.js';
import { onboardingStateQuery } from '../../workflows/onboarding/messages.js';
import { reconcileUpdate, transactionSignal, walletQuery } from '../../workflows/wallet/messages.js';
import { temporalConnections } from '../helpers/stack.js';
import { bundleWorkflows } from '../../scripts/lib/workflow-bundle.js';
import { unversionedWorkflowsPath, workflowInterceptorModules } from '../../worker/create-worker.js';
import { resultWithin } from '../helpers/result.js';
import { idempotencyKey } from '../../workflows/lib/idempotency.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import { depositCallback } from '../helpers/callback.js';
import { createIngress } from '../../src/ingress/server.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { request } from 'undici';

// The branches of the processes that need a worker but no provider: every activity is a mock, so
// each test gives exactly the answers its branch needs, including failures the sandbox cannot give
// on demand (a call whose retries all fail). The tests against the sandbox remain the proof of the
// whole; these prove the workflows' own decisions.

type Mock = (...args: never[]) => Promise<unknown>;

const quick = { pollInitialMs: 50, pollMaxMs: 200, reminderAfterMs: 60_000, deadlineMs: 60_000, stallAfterMs: 600_000 };
const value: ClaimRef = {
  ref: 'local:value1',
  size: 9,
  contentType: 'text/plain',
  sha256: 'a'.repeat(64),
  keyed: true,
};
const form: ClaimRef = { ref: 'local:form1', size: 2048, contentType: 'image/png', sha256: 'b'.repeat(64) };
const shortId = () => randomUUID().replaceAll('-', '').slice(0, 10);

// A claim store (or provider) that stays away: retryable failures, retried at once until the
// activity's retry policy gives up (20 attempts for a submission).
const unreachable = () =>
  ApplicationFailure.create({ type: 'S3Error', message: 'the claim store answered 503', nextRetryDelay: '5ms' });
// A refusal as activities/provider-failure.ts reports the provider's error body.
const refusal = (type: string, errorCode: string, problematicField = '') =>
  ApplicationFailure.create({
    type,
    message: `failed with 400 ${type}`,
    nonRetryable: true,
    details: [{ status: 400, type, errorCode, problematicField }],
  });

let client: Client;
let connection: NativeConnection;
let config: ReturnType<typeof loadConfig>;
// These workers are not versioned (Worker.create with no deployment options): they run the bundle of
// workflows/unversioned, as a worker with WORKER_VERSIONING=off does; the run's shared bundle is versioned.
let unversionedBundle: string;

/** Runs `body` against a worker whose activities are `mocks`, on a task queue of its own. */
async function withWorker<T>(mocks: Record<string, Mock>, body: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = `branches-${randomUUID()}`;
  const worker = await Worker.create({
    connection,
    taskQueue,
    activities: mocks,
    workflowBundle: { code: unversionedBundle },
    dataConverter: encryptingDataConverter(codecFromConfig(config.payloads)),
    // The run's bundle has the tracing interceptors: they need their sinks (exporting nothing here).
    sinks: workerTracingOptions(startTracing({ service: 'worker' })).sinks,
  });
  return worker.runUntil(body(taskQueue));
}

async function waitFor<T>(look: () => Promise<T>, done: (seen: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    const seen = await look();
    if (done(seen)) return seen;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The message an update failed with (the validator's or the handler's); fails the test if it succeeded. */
async function updateRefusal(update: Promise<unknown>): Promise<string> {
  try {
    await update;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as Error | undefined)?.message ?? '';
    throw err;
  }
  throw new Error('the update succeeded; it should have failed');
}

before(async () => {
  // The failures provoked on purpose are logged as warnings; keep errors only.
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  config = loadConfig({ PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  const connections = await temporalConnections();
  connection = connections.native;
  client = clientFor(connections.connection, config);
  unversionedBundle = await bundleWorkflows(workflowInterceptorModules, unversionedWorkflowsPath);
});

after(async () => {
  await connection.close();
  await client.connection.close();
});

describe('KYC, activities mocked', () => {
  it('a value not delivered is no refusal: NotDeliveredError, no attempt used up, its claim deleted; handed in again, it is sent under a key of its own', async () => {
    const accountId = `AC_${shortId()}`;
    let ssnStatus = 'OPEN';
    let outage = true;
    const keysTried = new Set<string>();
    const sent: string[] = [];
    const deleted: string[] = [];
    const mocks = {
      readProfile: async () => ({
        status: 'OPEN',
        fields: [{ fieldId: 'individualSsn', fieldType: 'STRING', status: ssnStatus, note: 'does not match' }],
      }),
      submitProfileValue: async (input: { idempotencyKey: string }) => {
        keysTried.add(input.idempotencyKey);
        if (outage) throw unreachable();
        sent.push(input.idempotencyKey);
        ssnStatus = 'APPROVED';
        return { status: 'PENDING' };
      },
      deleteClaims: async (refs: ClaimRef[]) => void deleted.push(...refs.map((ref) => ref.ref)),
      sendReminder: async () => undefined,
    };
    const claimsDir = mkdtempSync(join(tmpdir(), 'branches-claims-'));
    try {
      const result = await withWorker(mocks, async (taskQueue) => {
        // One attempt per field: had the lost submission used it up, the second would be refused.
        const kyc = new KycClient(client, {
          taskQueue,
          claims: new LocalClaimStore(claimsDir),
          timing: quick,
          maxAttemptsPerField: 1,
        });
        await kyc.start(accountId);
        await waitFor(
          () => kyc.state(accountId),
          (state) => state.stage === 'WAITING_FOR_END_USER',
          'the field to await input',
        );

        const lost = await kyc.submitValue(accountId, 'individualSsn', '123-45-6789').then(
          () => assert.fail('the value cannot have been delivered'),
          (err: unknown) => err,
        );
        assert.ok(lost instanceof NotDeliveredError, `a NotDeliveredError, not ${String(lost)}`);
        assert.equal(lost.field, 'individualSsn');
        assert.match(
          lost.message,
          /did not answer before the retries gave up \(last failure: S3Error\); nothing was used up: hand it in again later$/,
        );
        const ssn = (await kyc.state(accountId)).fields.find((field) => field.fieldId === 'individualSsn');
        assert.deepEqual({ attempts: ssn?.attempts, awaiting: ssn?.awaiting }, { attempts: 0, awaiting: true });
        assert.equal(deleted.length, 1, 'personal data is kept no longer than the submission needs it');

        outage = false;
        const field = await kyc.submitValue(accountId, 'individualSsn', '123-45-6780');
        assert.equal(field.status, 'PENDING');
        return resultWithin(kyc.result(accountId), kycWorkflowId(accountId));
      });
      assert.equal(result.outcome, 'APPROVED');
      assert.equal(sent.length, 1);
      assert.equal(keysTried.size, 2, 'another value under the attempt number given back has a key of its own');
      assert.equal(deleted.length, 2, 'deleted again once the provider took it');
    } finally {
      rmSync(claimsDir, { recursive: true, force: true });
    }
  });

  it('a submission the provider refuses deletes its claim and tells the end user why, by type and code', async () => {
    const accountId = `AC_${shortId()}`;
    const deleted: string[] = [];
    const mocks = {
      readProfile: async () => ({
        status: 'OPEN',
        fields: [{ fieldId: 'individualSsn', fieldType: 'STRING', status: 'OPEN', note: null }],
      }),
      submitProfileValue: async () => {
        throw refusal('ValidationException', 'ssn.format', 'value');
      },
      deleteClaims: async (refs: ClaimRef[]) => void deleted.push(...refs.map((ref) => ref.ref)),
      sendReminder: async () => undefined,
    };
    await withWorker(mocks, async (taskQueue) => {
      const handle = await client.workflow.start('kycWorkflow', {
        taskQueue,
        workflowId: `kyc:${accountId}`,
        args: [{ accountId, timing: quick }],
      });
      await waitFor(
        () => handle.query(kycStateQuery),
        (state) => state.stage === 'WAITING_FOR_END_USER',
        'the field to await input',
      );
      const refused = await updateRefusal(
        handle.executeUpdate(submitValueUpdate, { args: [{ fieldId: 'individualSsn', value }] }),
      );
      assert.equal(refused, 'individualSsn: the provider refused the submission: ValidationException (ssn.format)');
      assert.deepEqual(deleted, [value.ref]);
      await handle.terminate('test over');
    });
  });
  it("whose failure it is: our claim store's (gone, changed, key missing) is never the provider's refusal, and each is an error of its own", async () => {
    const accountId = `AC_${shortId()}`;
    const dirs = [mkdtempSync(join(tmpdir(), 'branches-client-')), mkdtempSync(join(tmpdir(), 'branches-worker-'))];
    const [clientDir, workerDir] = dirs as [string, string];
    const key = randomBytes(32);
    const clientStore = new LocalClaimStore(clientDir, { key });
    // The worker's claim store and provider, changed from case to case; the activity is the real one.
    let workerClaims: ClaimStore = clientStore;
    let providerRefuses = false;
    const provider = {
      call: async () => {
        if (!providerRefuses) throw new Error('this test sends nothing to the provider');
        throw new ProviderError('PATCH /v2/accounts/{id} (update account)', 400, {
          language: 'en',
          exceptionId: 'e1',
          type: 'ValidationException',
          errorCode: 'ssn.format',
          message: 'the SSN 123-45-6789 is not valid',
          transient: false,
        });
      },
    } as unknown as ProviderClient;
    const deleted: string[] = [];
    const mocks = {
      readProfile: async () => ({
        status: 'OPEN',
        fields: [{ fieldId: 'individualSsn', fieldType: 'STRING', status: 'OPEN', note: null }],
      }),
      submitProfileValue: async (
        input: Parameters<ReturnType<typeof createAccountActivities>['submitProfileValue']>[0],
      ) => {
        try {
          return await createAccountActivities({ provider, claims: workerClaims }).submitProfileValue(input);
        } catch (err) {
          if (err instanceof ApplicationFailure) throw err;
          // A retryable failure (a key the worker lacks), retried at once until the policy gives up.
          throw ApplicationFailure.create({
            type: (err as Error).name,
            message: (err as Error).message,
            nextRetryDelay: '5ms',
          });
        }
      },
      deleteClaims: async (refs: ClaimRef[]) => void deleted.push(...refs.map((ref) => ref.ref)),
      sendReminder: async () => undefined,
    };
    try {
      await withWorker(mocks, async (taskQueue) => {
        // A store that hands out a wrong digest: what the worker reads is not what was referenced.
        let misreference = false;
        const claims: ClaimStore = Object.assign(Object.create(clientStore) as ClaimStore, {
          put: async (...args: Parameters<ClaimStore['put']>) => {
            const ref = await clientStore.put(...args);
            return misreference ? { ...ref, sha256: 'f'.repeat(64) } : ref;
          },
        });
        // One attempt per field: had any failure used it up, the next submission would be refused.
        const kyc = new KycClient(client, { taskQueue, claims, timing: quick, maxAttemptsPerField: 1 });
        await kyc.start(accountId);
        await waitFor(
          () => kyc.state(accountId),
          (state) => state.stage === 'WAITING_FOR_END_USER',
          'the field to await input',
        );
        const submitted = () =>
          kyc.submitValue(accountId, 'individualSsn', '123-45-6789').then(
            () => assert.fail('the value cannot have been sent'),
            (err: unknown) => err,
          );
        const ours = async (reason: string, type: string) => {
          const err = await submitted();
          assert.ok(err instanceof ClaimStoreError, `a ClaimStoreError for ${reason}, not ${String(err)}`);
          assert.equal(err.reason, reason);
          assert.equal(err.field, 'individualSsn');
          assert.match(err.message, new RegExp(`^individualSsn: our claim store could not give it back \\(${type}\\)`));
          assert.doesNotMatch(err.message, /provider/);
          const ssn = (await kyc.state(accountId)).fields.find((field) => field.fieldId === 'individualSsn');
          assert.deepEqual(
            { attempts: ssn?.attempts, awaiting: ssn?.awaiting, error: ssn?.error },
            { attempts: 0, awaiting: true, error: `claim store: ${type}` },
          );
        };

        // The cluster's case before client.env: the client stored it where the worker does not read.
        workerClaims = new LocalClaimStore(workerDir, { key });
        await ours('gone', 'ClaimGoneError');
        workerClaims = clientStore;
        misreference = true;
        await ours('integrity', 'ClaimIntegrityError');
        misreference = false;
        workerClaims = new LocalClaimStore(clientDir, { key: randomBytes(32) });
        await ours('key-missing', 'ClaimKeyMissingError');

        workerClaims = clientStore;
        providerRefuses = true;
        const refused = await submitted();
        assert.ok(refused instanceof ProviderRefusedError, `a ProviderRefusedError, not ${String(refused)}`);
        assert.deepEqual(refused.refusal, { type: 'ValidationException', errorCode: 'ssn.format', status: 400 });
        assert.equal(
          refused.message,
          'individualSsn: the provider refused the submission: ValidationException (ssn.format)',
        );
        assert.doesNotMatch(
          refused.message,
          /123-45-6789/,
          "the provider's message, which quotes the value, stays out",
        );
        assert.equal(deleted.length, 4, 'each claim deleted once its submission was handled');
        await client.workflow.getHandle(`kyc:${accountId}`).terminate('test over');
      });
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ACH follow-up, activities mocked', () => {
  it('a form not delivered or refused fails the update, is deleted, and the process waits for another', async () => {
    const paymentMethodId = `PM_${shortId()}`;
    const accountId = `AC_${shortId()}`;
    let status = 'AWAITING_FOLLOWUP';
    let forms = 0;
    let outage = true;
    const deleted: string[] = [];
    const mocks = {
      readPaymentMethodState: async () => ({
        status,
        waitingFor: status === 'AWAITING_FOLLOWUP' ? ['ACH_FORM'] : [],
        rejectionMessage: null,
        sourceOfFunds: null,
      }),
      submitAchForm: async () => {
        if (outage) throw unreachable();
        forms += 1;
        if (forms === 1) throw refusal('ValidationException', 'paymentMethod.invalidStatus');
        status = 'APPROVED';
        return {};
      },
      deleteClaims: async (refs: ClaimRef[]) => void deleted.push(...refs.map((ref) => ref.ref)),
      sendReminder: async () => undefined,
    };
    const result = await withWorker(mocks, async (taskQueue) => {
      const handle = await client.workflow.start('achFollowupWorkflow', {
        taskQueue,
        workflowId: `ach-followup:${paymentMethodId}`,
        args: [{ paymentMethodId, accountId, timing: quick }],
      });
      const awaitingForm = () =>
        waitFor(
          () => handle.query(achStateQuery),
          (state) => state.stage === 'WAITING_FOR_FORM',
          'the form to be awaited',
        );
      await awaitingForm();
      const lost = await handle.executeUpdate(submitAchFormUpdate, { args: [form] }).then(
        () => assert.fail('the form cannot have been delivered'),
        (err: unknown) => (err as WorkflowUpdateFailedError).cause as ApplicationFailure,
      );
      assert.deepEqual(
        { type: lost.type, message: lost.message },
        {
          type: NOT_DELIVERED,
          message:
            'form: it could not be delivered: the provider or the claim store did not answer before the retries gave up (last failure: S3Error); hand it in again later',
        },
      );
      assert.equal((await awaitingForm()).formsSubmitted, 0);
      await waitFor(
        async () => deleted.length,
        (count) => count === 1,
        'the undelivered form to be deleted',
      );
      outage = false;

      const refused = await updateRefusal(handle.executeUpdate(submitAchFormUpdate, { args: [form] }));
      assert.match(
        refused,
        /^form: the provider refused it: ValidationException \(paymentMethod.invalidStatus\); check that the payment method still asks for the form/,
      );
      // The update answers first; the form is deleted right after.
      await waitFor(
        async () => deleted.length,
        (count) => count === 2,
        'the refused form to be deleted',
      );
      const afterRefusal = await awaitingForm();
      assert.equal(afterRefusal.formsSubmitted, 0, 'a refused form is not counted');

      const taken = await handle.executeUpdate(submitAchFormUpdate, { args: [form] });
      assert.equal(taken.formsSubmitted, 1);
      return resultWithin(handle.result(), handle.workflowId);
    });
    assert.equal(result.outcome, 'APPROVED');
  });
});

describe('onboarding, activities mocked', () => {
  it('reminds only while the user owes the verification, and ends LIMITS_NOT_RAISED when the calculation shows the old limits', async () => {
    const userRef = `user-${shortId()}`;
    const userId = `US_${shortId()}`;
    let status = 'OPEN';
    const reminders: string[] = [];
    const low = {
      dailyTotal: 100,
      weeklyTotal: 500,
      yearlyTotal: 5_000,
      dailyTotalSpent: 0,
      weeklyTotalSpent: 0,
      yearlyTotalSpent: 0,
      dailyRemaining: 100,
      weeklyRemaining: 500,
      yearlyRemaining: 5_000,
    };
    const mocks = {
      createHigherLimitsUser: async () => ({ userId, status: 'OPEN' }),
      readUserStatus: async () => ({ status }),
      calculateUserLimits: async () => low,
      fetchOnboardingLink: async () => ({ url: 'https://verify.example/1' }),
      sendReminder: async (reminder: { waitingFor: string[] }) => void reminders.push(reminder.waitingFor.join()),
    };
    const result = await withWorker(mocks, async (taskQueue) => {
      const timing = { ...quick, reminderAfterMs: 300 };
      const handle = await client.workflow.start('onboardingWorkflow', {
        taskQueue,
        workflowId: `onboarding:${userRef}`,
        args: [{ userRef, country: 'US', timing }],
      });
      await waitFor(
        () => handle.query(onboardingStateQuery),
        (state) => state.reminders >= 2,
        'two reminders while the user owes the verification',
      );
      status = 'PENDING';
      const underReview = await waitFor(
        () => handle.query(onboardingStateQuery),
        (state) => state.stage === 'UNDER_REVIEW',
        'the review',
      );
      // Three quiet times under review: no reminder, the user owes nothing.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.equal((await handle.query(onboardingStateQuery)).reminders, underReview.reminders);
      status = 'APPROVED';
      return resultWithin(handle.result(), handle.workflowId);
    });
    assert.equal(result.outcome, 'LIMITS_NOT_RAISED');
    assert.ok(
      reminders.length >= 2 && reminders.every((waitingFor) => waitingFor === 'ONBOARDING'),
      `reminders: ${reminders.join(' | ')}`,
    );
  });
});

describe('checkout and provisioning, activities mocked', () => {
  it('a reservation the provider refuses ends the checkout FAILED with the refusal', async () => {
    const orderRef = `order-${shortId()}`;
    const mocks = {
      reserve: async () => {
        throw refusal('ValidationException', 'reservation.invalidAmount', 'sourceAmount');
      },
    };
    const result = await withWorker(mocks, async (taskQueue) => {
      const input = {
        orderRef,
        sourceAmount: 10,
        sourceCurrency: 'USD',
        destCurrency: 'USD',
        dest: `wallet:WA_${shortId()}`,
        timing: quick,
      };
      const handle = await client.workflow.start('checkoutWorkflow', {
        taskQueue,
        workflowId: `checkout:${orderRef}`,
        args: [input],
      });
      return resultWithin(handle.result(), handle.workflowId);
    });
    assert.deepEqual(
      { outcome: result.outcome, failureReason: result.failureReason },
      { outcome: 'FAILED', failureReason: 'failed with 400 ValidationException' },
    );
  });

  it('a second account creation (400 ValidationException, no field at fault) ends ALREADY_BOUND; another refusal fails the run', async () => {
    const secret: ClaimRef = {
      ref: 'local:secret1',
      size: 36,
      contentType: 'text/plain',
      sha256: 'c'.repeat(64),
      keyed: true,
    };
    const run = (creationRefusal: ApplicationFailure) =>
      withWorker(
        {
          registerClientToken: async () => ({ apiKey: 'AK-1' }),
          createAccountWithToken: async () => {
            throw creationRefusal;
          },
          deleteClaims: async () => undefined,
        },
        async (taskQueue) => {
          const clientRef = `client-${shortId()}`;
          const handle = await client.workflow.start('provisioningWorkflow', {
            taskQueue,
            workflowId: `provisioning:${clientRef}`,
            args: [{ clientRef, secret, country: 'US' }],
          });
          return resultWithin(handle.result(), handle.workflowId);
        },
      );
    const bound = await run(refusal('ValidationException', 'anything'));
    assert.deepEqual(
      { outcome: bound.outcome, accountId: bound.accountId },
      { outcome: 'ALREADY_BOUND', accountId: null },
    );
    await assert.rejects(run(refusal('ValidationException', 'country.invalid', 'country')), WorkflowFailedError);
  });
});

describe('wallet, activities mocked', () => {
  it('a wallet workflow started with bad input, bypassing the client, fails as the other processes do: INPUT_REJECTED, naming the field, nothing called', async () => {
    let calls = 0;
    const counted = async () => {
      calls += 1;
      throw new Error('not to be called');
    };
    const mocks = { createWallet: counted, pollWalletTransactions: counted, watchWalletTransactions: counted };
    await withWorker(mocks, async (taskQueue) => {
      for (const [workflow, input, field] of [
        ['walletWorkflow', { walletId: 'AC_1', pollIntervalMs: 1_000 }, 'walletId'],
        ['walletWorkflow', { walletId: `WA_${shortId()}`, pollIntervalMs: 0 }, 'pollIntervalMs'],
        ['openWalletWorkflow', { name: '   ', pollIntervalMs: 1_000 }, 'name'],
      ] as const) {
        const handle = await client.workflow.start(workflow, {
          taskQueue,
          workflowId: `bad-${randomUUID()}`,
          args: [input],
        });
        const failure = await resultWithin(handle.result(), handle.workflowId).then(
          () => assert.fail(`${workflow} took ${JSON.stringify(input)}`),
          (err: unknown) => err,
        );
        assert.ok(failure instanceof WorkflowFailedError, String(failure));
        const cause = failure.cause as ApplicationFailure;
        assert.equal(cause.type, INPUT_REJECTED, `${workflow}: ${cause.message}`);
        assert.match(cause.message, new RegExp(`^${field}: `));
      }
    });
    assert.equal(calls, 0, 'no activity ran');
  });

  /**
   * Opens a wallet on a worker whose provider is down for `failures` attempts of the create, then
   * creates it: the keys the attempts carried, and the opening's history.
   */
  async function openThroughOutage(failures: number) {
    const keys: string[] = [];
    const walletId = `WA_${shortId()}`;
    const mocks = {
      createWallet: async (input: { idempotencyKey: string }) => {
        keys.push(input.idempotencyKey);
        if (keys.length <= failures) throw new Error('provider unavailable (503)');
        return { id: walletId, srn: `wallet:${walletId}`, depositAddresses: { BTC: 'bc1q-open' } };
      },
      watchWalletTransactions: async () => new Promise<never>(() => {}),
    };
    const name = `opened-${shortId()}`;
    const events = await withWorker(mocks, async (taskQueue) => {
      const handle = await client.workflow.start('openWalletWorkflow', {
        taskQueue,
        workflowId: `open-wallet:${name}`,
        args: [{ name, pollIntervalMs: 3_600_000 }],
      });
      const opened = (await resultWithin(handle.result(), handle.workflowId)) as { walletId: string };
      assert.equal(opened.walletId, walletId);
      await client.workflow.getHandle(`wallet:${walletId}`).terminate('test done');
      return (await handle.fetchHistory()).events!;
    });
    return { keys, events, key: idempotencyKey(`open-wallet:${name}`, 'create-wallet') };
  }

  it('opening a wallet creates it in its own workflow task (a local activity), retried under one idempotency key until the provider answers', async () => {
    const { keys, events, key } = await openThroughOutage(2);
    assert.ok(!events.some((e) => e.activityTaskScheduledEventAttributes), 'no activity task was scheduled');
    assert.equal(events.filter((e) => e.workflowTaskCompletedEventAttributes).length, 2, 'two workflow tasks');
    assert.equal(keys.length, 3, 'three attempts');
    assert.deepEqual(new Set(keys), new Set([key]), 'one idempotency key');
  });

  it("opening a wallet waits out the create's longer retries as timers in its history, not in one held task", async () => {
    // Waits of 1 and 2 s in the task, then one of 4 s as a timer.
    const { keys, events } = await openThroughOutage(3);
    assert.equal(keys.length, 4, 'four attempts');
    assert.equal(events.filter((e) => e.timerStartedEventAttributes).length, 1, 'one wait was a timer');
  });

  it('a reconciliation that wants a poll while the wallet is due to continue-as-new gets it, and the wallet then continues', async () => {
    const walletId = `WA_${shortId()}`;
    let balanceReads = 0;
    let polls = 0;
    let releaseFirstRead!: () => void;
    const firstRead = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    const mocks = {
      // The provider holds 5 BTC the ledger never heard of: the comparison wants a poll.
      readWalletBalances: async () => {
        balanceReads += 1;
        if (balanceReads === 1) await firstRead;
        return { available: { BTC: 5 }, total: { BTC: 5 }, checkedAt: Date.now() };
      },
      pollWalletTransactions: async (_walletId: string, cursor: { since: number; seen: string[] }) => {
        polls += 1;
        return { changed: [], cursor: { since: cursor.since, seen: cursor.seen } };
      },
      watchWalletTransactions: async () => {
        throw ApplicationFailure.create({
          type: 'NothingNewYet',
          message: 'nothing new',
          category: ApplicationFailureCategory.BENIGN,
        });
      },
      readTransferSummary: async () => ({ id: 'TF_1', source: 'wallet:WA_other', status: 'COMPLETED' }),
    };
    await withWorker(mocks, async (taskQueue) => {
      // Every pass of the loop is past the history limit: the wallet wants to continue-as-new at once.
      const input = { walletId, pollIntervalMs: 3_600_000, maxHistoryEvents: 1, opened: true };
      const handle = await client.workflow.start('walletWorkflow', {
        taskQueue,
        workflowId: `wallet:${walletId}`,
        args: [input],
      });
      const reconciled = handle.executeUpdate(reconcileUpdate);
      await waitFor(
        async () => balanceReads,
        (reads) => reads === 1,
        'the reconciliation to read the balances',
      );
      // A callback while the reconciliation waits on the provider: the loop records it and stops
      // at continue-as-new, which waits for the update.
      const tx = {
        id: 'TR_1',
        createdAt: Date.now(),
        source: 'bitcoin:EXTERNAL',
        dest: `wallet:${walletId}`,
        currency: 'BTC',
        amount: 1,
        status: 'PENDING',
      };
      await handle.signal(transactionSignal, tx as never);
      await waitFor(
        () => handle.query(walletQuery),
        (view) => view.stats.callbacks === 1 && view.queued === 0,
        'the callback to be recorded',
      );
      releaseFirstRead();
      const deadlock = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the reconciliation never finished: deadlock')), 20_000),
      );
      const reconciliation = await Promise.race([reconciled, deadlock]);
      assert.deepEqual(reconciliation.drift, [{ currency: 'BTC', ledger: '0', provider: '5' }]);
      assert.equal(polls, 1, 'the poll the reconciliation asked for was made');
      const latest = await waitFor(
        () => client.workflow.getHandle(`wallet:${walletId}`).describe(),
        (run) => run.runId !== handle.firstExecutionRunId,
        'the wallet to continue-as-new',
      );
      assert.equal(latest.status.name, 'RUNNING');
      await client.workflow.getHandle(`wallet:${walletId}`).terminate('test over');
    });
  });

  it('a follower that ended UNKNOWN_WALLET hands its ledger to the run a later callback starts: what it counted stays counted', async () => {
    const walletId = `WA_${shortId()}`;
    // The provider answers not-found until it knows the wallet (as for one it has not yet made
    // visible); then it lists nothing new.
    let known = false;
    const mocks = {
      pollWalletTransactions: async (_walletId: string, cursor: { since: number; seen: string[] }) =>
        known ? { changed: [], cursor: { since: cursor.since, seen: cursor.seen } } : { notFound: true },
      watchWalletTransactions: async () => {
        if (!known) return { notFound: true };
        throw ApplicationFailure.create({
          type: 'NothingNewYet',
          message: 'nothing new',
          category: ApplicationFailureCategory.BENIGN,
        });
      },
      readWalletBalances: async () => ({ available: {}, total: {}, checkedAt: Date.now() }),
      readTransferSummary: async () => ({ id: 'TF_1', source: 'wallet:WA_other', status: 'COMPLETED' }),
    };
    const secretKey = 'test-callback-secret';
    await withWorker(mocks, async (taskQueue) => {
      const app = createIngress({
        client,
        taskQueue,
        secretKey,
        maxBodyBytes: 16 * 1024,
        walletTimings: { pollIntervalMs: 100 },
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const send = async (id: string, amount: string) => {
        const body = depositCallback(walletId, { id, amount, createdAt: Date.now() });
        const res = await request(`${url}/callbacks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(secretKey, body) },
          body,
        });
        assert.equal(res.statusCode, 200, await res.body.text());
      };
      const handle = client.workflow.getHandle(`wallet:${walletId}`);
      try {
        await send('TR_FIRST1', '0.5');
        const ended = (await resultWithin(handle.result(), handle.workflowId)) as {
          outcome: string;
          callbacks: number;
        };
        assert.equal(ended.outcome, 'UNKNOWN_WALLET');
        assert.equal(ended.callbacks, 1, 'the first deposit was counted before the follower ended');
        known = true;
        // Two callbacks at once start one run between them (the second signals the first's run).
        await Promise.all([send('TR_SECOND1', '0.25'), send('TR_THIRD1', '0.125')]);
        const view = await waitFor(
          () => handle.query(walletQuery),
          (seen) =>
            seen.queued === 0 &&
            ['TR_SECOND1', 'TR_THIRD1'].every((id) => seen.recentTransactions.some((e) => e.id === id)),
          'the later callbacks to be recorded',
        );
        assert.deepEqual(view.balances.BTC, { confirmed: '0.875', pending: '0' });
        assert.deepEqual(view.recentTransactions.map((entry) => entry.id).sort(), [
          'TR_FIRST1',
          'TR_SECOND1',
          'TR_THIRD1',
        ]);
      } finally {
        await app.close();
        await handle.terminate('test over').catch(() => {});
      }
    });
  });
});
