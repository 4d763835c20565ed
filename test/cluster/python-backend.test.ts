import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { LocalClaimStore } from '../../src/claims/store.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { OnboardingClient } from '../../workflows/onboarding/client.js';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import type { ProviderClient } from '../../src/provider/client.js';
import * as api from '../../src/provider/endpoints.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { accountWithProfile } from '../../scripts/fixtures/account.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';
import { ensurePythonBackend, PYTHON_BACKEND_DIR } from '../../scripts/lib/python-backend.js';
import {
  type ClusterDescription,
  clusterClient,
  clusterDescription,
  clusterProvider,
  backendTemporalEnv,
} from '../helpers/cluster.js';
import { eventually } from '../helpers/stack.js';

// A backend in Python (examples/python-backend: Temporal's Python SDK from PyPI, a payload codec
// written from docs/payload-format.md with `cryptography`) against the cluster's server, workers,
// sandbox and codec server: its codec proves itself on the vectors and agrees with the TypeScript
// one both ways; it starts an onboarding and reads its state; it hands a personal value in by
// claim reference (POST /claims) and the KYC process sends it to the provider. Every message it
// sends or reads is checked against schemas/messages with jsonschema. It reaches Temporal, which
// authorizes, over TLS with a service token (TEMPORAL_API_KEY).

type Report = Record<string, unknown> & { ok: boolean };

describe('a Python backend against the PostgreSQL cluster', () => {
  let cluster: ClusterDescription;
  let client: Client;
  let python: string;
  let provider: ProviderClient;
  let tmp: string;
  let sandboxOp: ReturnType<typeof operatorCalls>['op'];
  /** TLS and a service token for its commands: fetched once, before a synchronous child holds this process's event loop. */
  let temporalEnv: Record<string, string>;

  before(async () => {
    cluster = clusterDescription();
    client = await clusterClient(cluster);
    temporalEnv = await backendTemporalEnv(cluster);
    python = ensurePythonBackend((line) => console.log(`[python-backend] ${line}`));
    provider = clusterProvider(cluster);
    sandboxOp = operatorCalls(cluster.sandboxUrl).op;
    tmp = mkdtempSync(join(tmpdir(), 'payflows-python-'));
  });
  after(async () => {
    await provider?.close();
    await client?.connection.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** `python -m payflows_backend ...args` with the cluster's settings: its exit code and JSON report. */
  async function py(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
    const child = spawn(python, ['-m', 'payflows_backend', ...args], {
      cwd: PYTHON_BACKEND_DIR,
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1',
        ...temporalEnv,
        TEMPORAL_NAMESPACE: cluster.temporal.namespace,
        TEMPORAL_TASK_QUEUE: cluster.taskQueue,
        PAYLOAD_ENCRYPTION_KEY: cluster.payloadKey,
        CODEC_SERVER_URL: cluster.codecUrl,
        CODEC_SERVER_TOKEN: cluster.codecToken,
        ...opts.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    let report: Report;
    try {
      report = JSON.parse(stdout) as Report;
    } catch {
      throw new Error(
        `payflows_backend ${args.join(' ')} printed no JSON report (exit ${code}):\n${stdout}\n${stderr}`,
      );
    }
    return { code, signal, report, stdout, stderr };
  }

  const wire = (p: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }) => ({
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  });
  const fromWire = (p: { metadata: Record<string, string>; data: string }) => ({
    metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(p.data, 'base64'),
  });

  it('its codec, written from docs/payload-format.md, passes the test vectors, and fails where a vector is wrong', async () => {
    const { code, report } = await py(['vectors']);
    assert.equal(code, 0, JSON.stringify(report, null, 2));
    const checks = report.checks as Array<{ name: string; ok: boolean }>;
    assert.ok(checks.every((c) => c.ok));
    for (const refusal of [
      'one bit of the ciphertext altered',
      'a key id no key given has',
      'data shorter than a nonce and a tag',
    ])
      assert.ok(
        checks.some((c) => c.name === `refuses: ${refusal}` && c.ok),
        refusal,
      );
    assert.ok(checks.some((c) => c.name === 'decrypts: written under the previous key, read after a rotation'));

    // The check can fail: a vector whose plain payload is not what its ciphertext holds.
    const vectors = JSON.parse(readFileSync('schemas/payload-vectors.json', 'utf8')) as {
      vectors: Array<{ plain: { data: string } }>;
    };
    vectors.vectors[0]!.plain.data = Buffer.from('{"amount":"0.12345679"}').toString('base64');
    const wrong = join(tmp, 'wrong-vectors.json');
    writeFileSync(wrong, JSON.stringify(vectors));
    const failed = await py(['vectors', wrong]);
    assert.equal(failed.code, 1);
    const failing = (failed.report.checks as Array<{ name: string; ok: boolean }>).filter((c) => !c.ok);
    assert.ok(
      failing.some((c) => c.name === 'decrypts: a JSON value (a wallet deposit)'),
      JSON.stringify(failing),
    );
  });

  it('passes its own tests (python -m unittest): each refusal of the vectors, and no plaintext or token in clear off this machine', () => {
    const out = spawnSync(python, ['-m', 'unittest', 'discover', '-s', 'tests'], {
      cwd: PYTHON_BACKEND_DIR,
      env: { PATH: process.env.PATH ?? '', PYTHONDONTWRITEBYTECODE: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stderr, /^OK$/m);
  });

  it('refuses plaintext to a Temporal off this machine before it connects, naming the variable', async () => {
    // Neither TLS nor a token given, so that nothing else secures the connection.
    const plaintext = { TEMPORAL_API_KEY: '', TEMPORAL_TLS_SERVER_CA_CERT_PATH: '', TEMPORAL_TLS_SERVER_NAME: '' };
    const { code, report } = await py(['check'], { env: { ...plaintext, TEMPORAL_ADDRESS: '192.0.2.1:7233' } });
    assert.equal(code, 1);
    assert.match(String(report.error), /^SettingsError: TEMPORAL_ADDRESS is not on this machine.*TEMPORAL_TLS=false/);
    assert.doesNotMatch(String(report.error), /192\.0\.2\.1/);
  });

  it('reads what the TypeScript codec wrote, and the TypeScript codec reads what it wrote', async () => {
    const key = randomBytes(32);
    const ts = new EncryptionCodec(key);
    const env = { PAYLOAD_ENCRYPTION_KEY: key.toString('base64') };
    const deposit = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"amount":"0.12345678"}') };

    const [fromTs] = await ts.encode([deposit]);
    const decoded = await py(['decode'], { stdin: JSON.stringify({ payloads: [wire(fromTs!)] }), env });
    assert.equal(decoded.code, 0, decoded.stdout);
    assert.deepEqual(decoded.report.payloads, [wire(deposit)], 'Python decrypts a TypeScript payload');

    const fromPython = await py(['encode'], { stdin: JSON.stringify({ payloads: [wire(deposit)] }), env });
    assert.equal(fromPython.code, 0, fromPython.stdout);
    const [sealed] = fromPython.report.payloads as Array<{ metadata: Record<string, string>; data: string }>;
    assert.equal(Buffer.from(sealed!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.notEqual(sealed!.data, wire(deposit).data, 'encrypted, not passed through');
    const [back] = await ts.decode([fromWire(sealed!)]);
    assert.deepEqual(wire(back!), wire(deposit), 'TypeScript decrypts a Python payload');

    // Under a key Python was not given: refused, naming the key id.
    const other = await py(['decode'], {
      stdin: JSON.stringify({ payloads: [wire(fromTs!)] }),
      env: { PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    });
    assert.equal(other.code, 1);
    assert.match(String(other.report.error), new RegExp(`key ${ts.keyId}, which this process does not have`));
  });

  it("leaves with its report's exit code, never by a signal, after connecting: 40 runs", async () => {
    // The Temporal client's Rust threads can outlive Python's teardown: without leaving before it,
    // about one run in twenty died with SIGSEGV or SIGABRT after printing its report.
    const runs = Array.from({ length: 40 }, (_, i) => i);
    const ends: string[] = [];
    for (let i = 0; i < runs.length; i += 4) {
      const batch = await Promise.all(runs.slice(i, i + 4).map(() => py(['check'])));
      for (const { code, signal, report } of batch) {
        assert.equal(report.namespace, cluster.temporal.namespace);
        ends.push(signal ?? String(code));
      }
    }
    assert.deepEqual(
      ends.filter((end) => end !== '0'),
      [],
      'every run exits 0 by itself',
    );
  });

  it('starts an onboarding as the TypeScript client does and reads its state, each message checked against its schema', async () => {
    // docs/provider-contract.md §8 rule 2: the master account may create DEBIT_CARD_L2 users.
    await sandboxOp('POST', `/sandbox/accounts/${SANDBOX_CREDENTIALS.accountId}/features`, { debitCardL2: true });
    const userRef = `py-${randomUUID().slice(0, 8)}`;
    const { code, report, stdout } = await py(['onboarding', userRef, 'US']);
    assert.equal(code, 0, stdout);
    assert.equal(report.workflowId, `onboarding:${userRef}`);
    assert.deepEqual(report.validated, ['OnboardingInput', 'OnboardingState']);
    const state = report.state as { userRef: string; stage: string; userId: string };
    assert.equal(state.userRef, userRef);
    assert.equal(state.stage, 'WAITING_FOR_USER');
    assert.match(state.userId, /^US[-_]/);

    // The same process as the TypeScript client sees it: the workflow read Python's encrypted input.
    const onboarding = new OnboardingClient(client, { taskQueue: cluster.taskQueue });
    assert.deepEqual(await onboarding.state(userRef), state);
    const description = await client.workflow.getHandle(`onboarding:${userRef}`).describe();
    assert.equal(description.type, 'onboardingWorkflow');
    assert.equal(description.runId, report.runId);
    assert.equal(await onboarding.start({ userRef, country: 'US' }), `onboarding:${userRef}`, 'the TS client attaches');
  });

  it('refuses an input its schema refuses, naming the field, and starts nothing', async () => {
    const userRef = `py-${randomUUID().slice(0, 8)}`;
    const { code, report } = await py(['onboarding', userRef, 'USA']);
    assert.equal(code, 1);
    assert.equal(report.sent, false);
    const why = report.refused as { definition: string; path: string };
    assert.equal(why.path, 'country');
    assert.match(why.definition, /^onboarding\.json#\/\$defs\/OnboardingInput$/);
    await assert.rejects(client.workflow.getHandle(`onboarding:${userRef}`).describe(), WorkflowNotFoundError);
  });

  it('checks what it reads too: an answer its schema does not describe is reported, not used', async () => {
    // The schemas it is given, with OnboardingState asking for a field no worker answers.
    const strict = join(tmp, 'strict-schemas');
    cpSync(process.env.PAYFLOWS_SCHEMAS ?? 'schemas/messages', strict, { recursive: true });
    const file = join(strict, 'onboarding.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { $defs: Record<string, unknown> };
    doc.$defs.OnboardingState = { allOf: [doc.$defs.OnboardingState, { required: ['notAField'] }] };
    writeFileSync(file, JSON.stringify(doc));
    const { code, report } = await py(['onboarding', `py-${randomUUID().slice(0, 8)}`, 'US'], {
      env: { PAYFLOWS_SCHEMAS: strict },
    });
    assert.equal(code, 1);
    assert.match(
      String(report.error),
      /state query's answer does not match onboarding\.json#\/\$defs\/OnboardingState/,
    );
    assert.match(String(report.error), /notAField/);
  });

  it('refuses a submission its schema refuses before storing the value: no claim is left behind', async () => {
    // Refused before any call: the account needs no process, only an id of the right shape.
    const accountId = `AC_py${randomUUID().slice(0, 8)}`;
    const { code, report, stdout } = await py(['kyc-value', accountId, 'individual-ssn'], { stdin: '123-45-6789\n' });
    assert.equal(code, 1, stdout);
    assert.equal(report.sent, false);
    assert.equal((report.refused as { path: string }).path, 'fieldId');
    assert.equal(report.claim, undefined, 'no reference: nothing was stored');
    const claims = new LocalClaimStore(cluster.claimsDir, { key: Buffer.from(cluster.claimKey, 'base64') });
    assert.equal(await claims.eraseSubject(accountId), 0, 'no claim stored under the account');
  });

  it('hands a personal value in by claim reference: KYC sends it to the provider and moves on', async () => {
    const accountId = await accountWithProfile(
      { provider, op: sandboxOp },
      { reject: { individualSsn: 'ssn.invalid' } },
    );
    const kyc = new KycClient(client, {
      taskQueue: cluster.taskQueue,
      claims: new LocalClaimStore(cluster.claimsDir, { key: Buffer.from(cluster.claimKey, 'base64') }),
    });
    await kyc.start(accountId);
    await eventually(async () => {
      const field = (await kyc.state(accountId)).fields.find((f) => f.fieldId === 'individualSsn');
      assert.equal(field?.awaiting, true);
    });

    const ssn = '123-45-6789';
    const { code, report, stdout } = await py(['kyc-value', accountId, 'individualSsn'], { stdin: `${ssn}\n` });
    assert.equal(code, 0, stdout);
    assert.ok(!stdout.includes(ssn), 'the report carries the reference, never the value');
    const claim = report.claim as { ref: string; keyed: boolean; size: number };
    assert.match(claim.ref, /^local:[0-9a-f]{64}$/);
    assert.equal(claim.keyed, true);
    assert.equal(claim.size, ssn.length);
    assert.deepEqual(report.validated, ['ValueSubmission', 'KycField']);
    const answer = report.answer as { fieldId: string; status: string; attempts: number; awaiting: boolean };
    assert.deepEqual(
      { fieldId: answer.fieldId, status: answer.status, attempts: answer.attempts, awaiting: answer.awaiting },
      { fieldId: 'individualSsn', status: 'PENDING', attempts: 1, awaiting: false },
    );

    // The provider got the value the claim holds; the process moved on; the claim was deleted once sent.
    const account = await provider.call(api.readAccount, { params: { accountId }, masqueradeAs: accountId });
    assert.equal(account.profileFields.find((f) => f.fieldId === 'individualSsn')?.value, ssn);
    await eventually(async () => assert.equal((await kyc.state(accountId)).stage, 'UNDER_REVIEW'));
    await eventually(() =>
      assert.ok(
        !existsSync(join(cluster.claimsDir, claim.ref.slice('local:'.length))),
        'the process deletes the claim once the provider has it',
      ),
    );

    // A field the process does not await: refused by its failure type, the message decrypted.
    const refusal = await py(['kyc-value', accountId, 'individualLegalName'], { stdin: 'Ada King' });
    assert.equal(refusal.code, 1);
    assert.equal(refusal.report.sent, true);
    const failure = refusal.report.failure as { type: string; message: string; details: Array<{ field?: string }> };
    assert.equal(failure.type, 'InputRejected');
    assert.match(failure.message, /not awaiting input/, 'the encoded failure message, decrypted by the Python codec');
    assert.equal(failure.details[0]?.field, 'fieldId');
  });
});
