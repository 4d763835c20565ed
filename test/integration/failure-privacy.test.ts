import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Worker } from '@temporalio/worker';
import { Agent, MockAgent } from 'undici';
import { ProviderRefusedError } from '../../workflows/lib/client-errors.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { generateClientSecret } from '../../src/provider/client-token.js';
import { ProviderClient } from '../../src/provider/client.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import type { KycState } from '../../workflows/kyc/messages.js';
import { createWorker } from '../../worker/create-worker.js';
import { accountWithProfile } from '../../scripts/fixtures/account.js';
import { decrypted, historyText } from '../helpers/history.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { provisioningWorkflowId } from '../../workflows/provisioning/messages.js';

// A failed process leaves no personal value in history: neither as stored (failure messages and
// stack traces are encrypted like payloads) nor decrypted (no failure quotes the input or the
// provider's message, which may quote the input).

const SSN = '078-05-1120';

describe('failures keep personal data out of history', () => {
  let stack: Stack;
  let worker: Worker;
  let running: Promise<void>;
  let echoing: ProviderClient;
  let agent: MockAgent;
  const taskQueue = `echo-${Date.now()}`;
  before(async () => {
    stack = await startStack();
    // The sandbox behind a provider that refuses resubmitted values with a message that quotes
    // them, as real services do ("... 078-05-1120 is not a valid SSN"): every other call goes
    // through to the sandbox unchanged.
    agent = new MockAgent({ agent: new Agent() });
    agent.enableNetConnect();
    agent
      .get(stack.sandboxUrl)
      .intercept({ path: (p) => /^\/v3\/accounts\/AC_[A-Za-z0-9]+\?/.test(p), method: 'POST' })
      .reply((opts) => {
        const { profileFields } = JSON.parse(String(opts.body)) as {
          profileFields: Array<{ fieldId: string; value: string }>;
        };
        const { fieldId, value } = profileFields[0]!;
        return {
          statusCode: 400,
          data: {
            language: 'en',
            exceptionId: 'test_ECHO1',
            type: 'ValidationException',
            message: `${fieldId}: "${value}" is not a valid social security number`,
            transient: false,
            errorCode: 'validation.invalidValue',
            subType: 'INVALID_VALUE',
            problematicField: 'profileFields.0.value',
            problematicValue: value,
          },
        };
      })
      .persist();
    echoing = new ProviderClient({
      baseUrl: stack.sandboxUrl,
      auth: { kind: 'signature', apiKey: stack.apiKey, secretKey: stack.secretKey },
      dispatcher: agent,
    });
    ({ worker } = await createWorker({
      config: stack.config,
      provider: echoing,
      claims: stack.claims,
      taskQueue,
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    }));
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await echoing?.close();
    await stack?.stop();
  });

  /** A KYC process (on the echoing worker) whose account's SSN was rejected, awaiting a new one. */
  const kycAwaitingSsn = async () => {
    const kyc = new KycClient(stack.client, { taskQueue, claims: stack.claims, timing: stack.timing });
    const accountId = await accountWithProfile(stack, {
      submit: ['individualSsn'],
      reject: { individualSsn: 'ssn.invalid' },
    });
    await kyc.start(accountId);
    const awaitsSsn = (s: KycState) => s.fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting);
    // A message of its own: without one, node words a failed assert.ok by parsing this file's
    // compiled source (one long line under tsx), which blocked this process, and so the worker in
    // it, for over a minute.
    await eventually(async () => assert.ok(awaitsSsn(await kyc.state(accountId)), 'the SSN is awaited'));
    return { kyc, accountId };
  };

  // A run that FAILS: its failure (WorkflowExecutionFailed) carries the whole chain, from the
  // workflow down to the provider's refusal, each with message and stack trace.
  it(
    'a KYC process that fails on a refused account read after a refused SSN: the SSN is in no part of its history',
    { timeout: 120_000 },
    async () => {
      const { kyc, accountId } = await kycAwaitingSsn();
      await assert.rejects(
        kyc.submitValue(accountId, 'individualSsn', SSN),
        (e: Error) => e instanceof ProviderRefusedError && /refused the submission/.test(e.message),
      );
      // The account is gone at the provider, whose refusal quotes the holder's SSN: the next read of
      // the profile fails for good (not retried), and with it the process.
      agent
        .get(stack.sandboxUrl)
        .intercept({ path: (p) => p.startsWith(`/v3/accounts/${accountId}`), method: 'GET' })
        .reply(404, {
          language: 'en',
          exceptionId: 'test_GONE1',
          type: 'NotFoundException',
          message: `no account ${accountId} for the holder with SSN ${SSN}`,
          transient: false,
          errorCode: 'notFound',
          problematicField: 'accountId',
          problematicValue: SSN,
        })
        .persist();
      const handle = stack.client.workflow.getHandle(`kyc:${accountId}`);
      await assert.rejects(resultWithin(handle.result(), handle.workflowId), (err: Error) => {
        assert.equal(err.name, 'WorkflowFailedError');
        assert.ok(
          !`${err.message} ${(err.cause as Error)?.message} ${(err.cause as Error)?.cause}`.includes(SSN),
          'nor in what the backend is told',
        );
        return true;
      });

      const history = await handle.fetchHistory();
      const failed = history.events!.find((e) => e.workflowExecutionFailedEventAttributes)
        ?.workflowExecutionFailedEventAttributes?.failure;
      assert.ok(failed, 'the run ended failed');
      assert.equal(failed.message, 'Encoded failure');
      const decoded = await assertAbsent(history, [SSN, SSN.replace(/-/g, '')]);
      assert.match(
        decoded,
        /GET \/v3\/accounts\/:accountId \(.*\) failed with 404 NotFoundException \(notFound\): field accountId \[exceptionId test_GONE1\]/,
        'decrypted, the failure says what happened',
      );
      assert.match(decoded, /"ref":"local:[0-9a-f]{64}"/, 'the value travelled as a claim reference');
    },
  );

  it(
    'a provisioning process whose token the provider refuses fails: the client secret is in no part of its history',
    { timeout: 120_000 },
    async () => {
      const provisioning = new ProvisioningClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims });
      const secret = generateClientSecret();
      // The secret is already another account's API secret: the provider refuses to register it
      // (400, not transient), so registering fails for good, and the process with it.
      stack.sandbox.ctx.store.state.credentials.push({
        apiKey: `AK-TAKEN-${Date.now()}`,
        secretKey: secret,
        accountId: null,
        kind: 'account',
      });
      const clientRef = `refused-${Date.now()}`;
      await provisioning.start({ clientRef, country: 'US', secret });
      await assert.rejects(
        resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef)),
        (err: Error) => {
          assert.equal(err.name, 'WorkflowFailedError');
          return true;
        },
      );

      const history = await stack.client.workflow.getHandle(`provision:${clientRef}`).fetchHistory();
      assert.ok(
        history.events!.some((e) => e.workflowExecutionFailedEventAttributes),
        'the run ended failed',
      );
      const decoded = await assertAbsent(history, [secret]);
      assert.match(
        decoded,
        /POST \/v2\/sessions\/auth\/key \(register client token\) failed with 400 ValidationException \(validation\.invalidValue\): INVALID_VALUE field secretKey/,
        'decrypted, the failure says what happened',
      );
    },
  );

  it(
    'a KYC submission refused with a message quoting the SSN: the SSN is in history neither raw nor decrypted',
    { timeout: 120_000 },
    async () => {
      const { kyc, accountId } = await kycAwaitingSsn();
      await assert.rejects(kyc.submitValue(accountId, 'individualSsn', SSN), (err: Error) => {
        const text = `${err.message} ${(err.cause as Error)?.message}`;
        assert.match(text, /refused the submission: ValidationException \(validation\.invalidValue\)/);
        assert.ok(!text.includes(SSN), 'nor in what the backend is told');
        return true;
      });
      const handle = stack.client.workflow.getHandle(`kyc:${accountId}`);
      await handle.terminate('test done');

      const history = await handle.fetchHistory();
      const raw = historyText(history);
      assert.ok(!raw.includes(SSN) && !raw.includes(SSN.replace(/-/g, '')), 'not in the history as stored');
      // Failure messages are stored encrypted: the activity's, and the workflow's answer to the update.
      assert.match(raw, /Encoded failure/);
      assert.doesNotMatch(
        raw,
        /failed with 400|refused the submission|at async /,
        'no failure message or stack trace in plain text',
      );

      const codec = new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64'));
      const decoded = historyText(await decrypted(structuredClone(history), codec));
      assert.match(
        decoded,
        /failed with 400 ValidationException \(validation\.invalidValue\): INVALID_VALUE field profileFields\.0\.value \[exceptionId test_ECHO1\]/,
        'decrypted, the failure says what happened',
      );
      assert.match(decoded, /"ref":"local:[0-9a-f]{64}"/, 'the value travelled as a claim reference');
      assert.ok(
        !decoded.includes(SSN) && !decoded.includes(SSN.replace(/-/g, '')),
        'not in the history decrypted either',
      );

      // The Web UI decodes failures through the codec server: their encoded attributes decode there too.
      const failed = history.events!.find((e) => e.activityTaskFailedEventAttributes)!
        .activityTaskFailedEventAttributes!.failure!;
      assert.equal(failed.message, 'Encoded failure');
      const server = createCodecServer(codec, {
        allowedOrigins: [],
        allowedHosts: ['codec.test:4030'],
        token: 'failure-test-token-0123',
      });
      const attributes = failed.encodedAttributes!;
      const res = await server.inject({
        method: 'POST',
        url: '/decode',
        headers: { host: 'codec.test:4030', authorization: 'Bearer failure-test-token-0123' },
        payload: {
          payloads: [
            {
              metadata: Object.fromEntries(
                Object.entries(attributes.metadata!).map(([key, value]) => [
                  key,
                  Buffer.from(value!).toString('base64'),
                ]),
              ),
              data: Buffer.from(attributes.data!).toString('base64'),
            },
          ],
        },
      });
      assert.equal(res.statusCode, 200);
      const attrs = JSON.parse(
        Buffer.from((res.json() as { payloads: Array<{ data: string }> }).payloads[0]!.data, 'base64').toString(),
      ) as { message: string; stack_trace: string };
      assert.match(attrs.message, /POST \/v3\/accounts\/:accountId \(.*\) failed with 400 ValidationException/);
      await server.close();
    },
  );
  /**
   * None of `values` in the history as stored (failure messages and stack traces encrypted like
   * payloads) nor decrypted with the stack's codec. Answers the decrypted history as text.
   */
  async function assertAbsent(history: object, values: string[]): Promise<string> {
    const raw = historyText(history);
    for (const value of values) assert.ok(!raw.includes(value), `${value.slice(0, 3)}… not in the history as stored`);
    assert.match(raw, /Encoded failure/);
    assert.doesNotMatch(raw, /failed with 40|at async /, 'no failure message or stack trace in plain text');
    const decoded = historyText(
      await decrypted(structuredClone(history), new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64'))),
    );
    for (const value of values)
      assert.ok(!decoded.includes(value), `${value.slice(0, 3)}… not in the history decrypted either`);
    assert.match(
      decoded,
      /"stack_?[tT]race":"[^"]*at /,
      'decrypted, failures keep their stack traces (the scan covers them)',
    );
    return decoded;
  }
});
