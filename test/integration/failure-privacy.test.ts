import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Payload } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import { Agent, MockAgent } from 'undici';
import { KycClient } from '../../src/client/kyc.js';
import { ProviderClient } from '../../src/provider/client.js';
import * as api from '../../src/provider/endpoints.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import type { KycState } from '../../workflows/messages/kyc.js';
import { createWorker } from '../../worker/create-worker.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// A failed process leaves no personal value in history: neither as stored (failure messages and
// stack traces are encrypted like payloads) nor decrypted (no failure quotes the input or the
// provider's message, which may quote the input).

const SSN = '078-05-1120';

describe('failures keep personal data out of history', () => {
  let stack: Stack;
  let worker: Worker;
  let running: Promise<void>;
  let echoing: ProviderClient;
  const taskQueue = `echo-${Date.now()}`;
  before(async () => {
    stack = await startStack();
    // The sandbox behind a provider that refuses resubmitted values with a message that quotes
    // them, as real services do ("... 078-05-1120 is not a valid SSN"): every other call goes
    // through to the sandbox unchanged.
    const agent = new MockAgent({ agent: new Agent() });
    agent.enableNetConnect();
    agent
      .get(stack.sandboxUrl)
      .intercept({ path: (p) => /^\/v3\/accounts\/AC_[A-Za-z0-9]+\?/.test(p), method: 'POST' })
      .reply((opts) => {
        const { profileFields } = JSON.parse(String(opts.body)) as { profileFields: Array<{ fieldId: string; value: string }> };
        const { fieldId, value } = profileFields[0]!;
        return {
          statusCode: 400,
          data: { language: 'en', exceptionId: 'test_ECHO1', type: 'ValidationException', message: `${fieldId}: "${value}" is not a valid social security number`, transient: false, errorCode: 'validation.invalidValue', subType: 'INVALID_VALUE', problematicField: 'profileFields.0.value', problematicValue: value },
        };
      })
      .persist();
    echoing = new ProviderClient({ baseUrl: stack.sandboxUrl, auth: { kind: 'signature', apiKey: stack.apiKey, secretKey: stack.secretKey }, dispatcher: agent });
    ({ worker } = await createWorker({ config: stack.config, provider: echoing, claims: stack.claims, taskQueue, workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE }));
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await echoing?.close();
    await stack?.stop();
  });

  it('a KYC submission refused with a message quoting the SSN: the SSN is in history neither raw nor decrypted', { timeout: 120_000 }, async () => {
    const kyc = new KycClient(stack.client, { taskQueue, claims: stack.claims, timing: stack.timing });
    const a = await stack.provider.call(api.createAccount, { body: { country: 'US', profileFields: [{ fieldId: 'individualSsn', value: '000-00-0000' }] } });
    await stack.op('POST', `/sandbox/accounts/${a.id}/fields/individualSsn/reject`, { note: 'ssn.invalid' });
    await kyc.start(a.id);
    const awaitsSsn = (s: KycState) => s.fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting);
    await eventually(async () => assert.ok(awaitsSsn(await kyc.state(a.id))));
    await assert.rejects(kyc.submitValue(a.id, 'individualSsn', SSN), (e: Error) => {
      const text = `${e.message} ${(e.cause as Error)?.message}`;
      assert.match(text, /refused the submission: ValidationException \(validation\.invalidValue\)/);
      assert.ok(!text.includes(SSN), 'nor in what the backend is told');
      return true;
    });
    const handle = stack.client.workflow.getHandle(`kyc:${a.id}`);
    await handle.terminate('test done');

    const history = await handle.fetchHistory();
    const raw = historyText(history);
    assert.ok(!raw.includes(SSN) && !raw.includes(SSN.replace(/-/g, '')), 'not in the history as stored');
    // Failure messages are stored encrypted: the activity's, and the workflow's answer to the update.
    assert.match(raw, /Encoded failure/);
    assert.doesNotMatch(raw, /failed with 400|refused the submission|at async /, 'no failure message or stack trace in plain text');

    const codec = new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64'));
    const decoded = historyText(await decrypted(structuredClone(history), codec));
    assert.match(decoded, /failed with 400 ValidationException \(validation\.invalidValue\): INVALID_VALUE field profileFields\.0\.value \[exceptionId test_ECHO1\]/, 'decrypted, the failure says what happened');
    assert.match(decoded, /"ref":"local:[0-9a-f]{64}"/, 'the value travelled as a claim reference');
    assert.ok(!decoded.includes(SSN) && !decoded.includes(SSN.replace(/-/g, '')), 'not in the history decrypted either');

    // The Web UI decodes failures through the codec server: their encoded attributes decode there too.
    const failed = history.events!.find((e) => e.activityTaskFailedEventAttributes)!.activityTaskFailedEventAttributes!.failure!;
    assert.equal(failed.message, 'Encoded failure');
    const server = createCodecServer(codec, { allowedOrigins: [], allowedHosts: ['codec.test:4030'], token: 'failure-test-token-0123' });
    const p = failed.encodedAttributes!;
    const res = await server.inject({
      method: 'POST',
      url: '/decode',
      headers: { host: 'codec.test:4030', authorization: 'Bearer failure-test-token-0123' },
      payload: { payloads: [{ metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')])), data: Buffer.from(p.data!).toString('base64') }] },
    });
    assert.equal(res.statusCode, 200);
    const attrs = JSON.parse(Buffer.from((res.json() as { payloads: Array<{ data: string }> }).payloads[0]!.data, 'base64').toString()) as { message: string; stack_trace: string };
    assert.match(attrs.message, /POST \/v3\/accounts\/:accountId \(.*\) failed with 400 ValidationException/);
    await server.close();
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
