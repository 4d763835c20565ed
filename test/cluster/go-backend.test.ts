import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { CheckoutClient } from '../../workflows/checkout/client.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import * as api from '../../src/provider/endpoints.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { buildGoBackend, GO_BACKEND_DIR } from '../../scripts/lib/go-backend.js';
import { go, GO_TEST_ARGS } from '../../scripts/lib/go-tools.js';
import {
  backendTemporalEnv,
  type ClusterDescription,
  clusterClient,
  clusterDescription,
  clusterProvider,
} from '../helpers/cluster.js';

// examples/go-backend, built with the machine's Go, against the cluster's server, sandbox, workers
// and codec server: a backend in another language opens a wallet and reads its balance after a
// deposit, starts a checkout and reads its state, and handles the checkout's refusal by its failure
// type, every payload through the codec server. What it wrote is encrypted in history. It reaches
// Temporal, which authorizes, over TLS with a service token (TEMPORAL_API_KEY).

const DEPOSIT = '0.12345678';

interface Report {
  wallet: {
    name: string;
    walletId: string;
    srn: string;
    workflowId: string;
    deposit: { currency: string; amount: string };
    balances: Record<string, { confirmed: string; pending: string }>;
  };
  checkout: { orderRef: string; workflowId: string; url: string; reservation: string; stage: string };
  refusal: { orderRef: string; workflowId: string; type: string; message: string; details: unknown; outcome: string };
  validated: string[];
}

describe('a Go backend (examples/go-backend) on the PostgreSQL cluster', () => {
  let cluster: ClusterDescription;
  let client: Client;
  let provider: ProviderClient;
  let binary: string;
  let schemasDir: string;
  const started: string[] = [];
  before(async () => {
    cluster = clusterDescription();
    client = await clusterClient(cluster);
    provider = clusterProvider(cluster);
    binary = await buildGoBackend((line) => console.log(`[go-backend] ${line}`));
    // The schemas `npm run schemas` writes and the package ships: the Go program checks every message against them.
    schemasDir = resolve('schemas/messages');
  });
  after(async () => {
    for (const id of started)
      await client.workflow
        .getHandle(id)
        .terminate('go-backend test done')
        .catch(() => {});
    await provider?.close();
    await client?.connection.close();
  });

  const run = async (args: string[], env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(binary, args, {
        cwd: GO_BACKEND_DIR,
        timeout: 240_000,
        env: {
          PATH: process.env.PATH ?? '',
          ...(await backendTemporalEnv(cluster)),
          TEMPORAL_NAMESPACE: cluster.temporal.namespace,
          TEMPORAL_TASK_QUEUE: cluster.taskQueue,
          CODEC_SERVER_URL: cluster.codecUrl,
          CODEC_SERVER_TOKEN: cluster.codecToken,
          SANDBOX_URL: cluster.sandboxUrl,
          PAYFLOWS_SCHEMAS_DIR: schemasDir,
          ...env,
        },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  };
  /** The payloads of a workflow's start event, as stored: no codec. */
  const storedInput = async (workflowId: string): Promise<Payload[]> => {
    const { history } = await client.connection.workflowService.getWorkflowExecutionHistory({
      namespace: cluster.temporal.namespace,
      execution: { workflowId },
    });
    const first = history?.events?.[0]?.workflowExecutionStartedEventAttributes;
    assert.ok(first, `${workflowId} has a start event`);
    return (first.input?.payloads ?? []) as Payload[];
  };
  const exists = async (workflowId: string) => {
    try {
      await client.workflow.getHandle(workflowId).describe();
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };

  /** The Go program's whole run for the wallet `name`, with a checkout `orderRef`; its report. */
  const runToReport = async (name: string, orderRef: string): Promise<Report> => {
    // A user with the standard limits (daily 500 USD): 600 is over them.
    const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    started.push(`checkout:${orderRef}`);
    const out = await run([
      '-wallet-name',
      name,
      '-order-ref',
      orderRef,
      '-limited-user',
      user.id,
      '-deposit',
      DEPOSIT,
    ]);
    assert.equal(out.code, 0, `the Go program failed:\n${out.stderr}`);
    return JSON.parse(out.stdout) as Report;
  };
  /** Each message it sent and received was checked against its schema (found through x-payflows). */
  const assertValidated = (report: Report, messages: string[]) => {
    for (const message of messages)
      assert.ok(
        report.validated.some((v) => v.endsWith(` ${message}`)),
        `not validated: ${message}; validated: ${report.validated.join('; ')}`,
      );
  };

  it('opens a wallet and reads its exact balance after a deposit, checks out, and handles the refusal by its type', async () => {
    const id = randomUUID().slice(0, 8);
    const orderRef = `go-order-${id}`;
    started.push(`open-wallet:go-${id}`);
    const report = await runToReport(`go-${id}`, orderRef);

    assert.deepEqual(report.wallet.balances.BTC, { confirmed: DEPOSIT, pending: '0' });
    // One workflow for the wallet's life, as the TypeScript client opens it: no follower of its own.
    assert.equal(report.wallet.workflowId, `open-wallet:go-${id}`);
    assert.equal(await exists(`wallet:${report.wallet.walletId}`), false);
    // The same wallet as the TypeScript client reads it.
    const wallets = new WalletsClient(client, { taskQueue: cluster.taskQueue, pollIntervalMs: 5_000 });
    assert.equal((await wallets.state(report.wallet.walletId)).balances.BTC?.confirmed, DEPOSIT);

    assert.equal(report.checkout.stage, 'WAITING_FOR_PURCHASE');
    const checkout = new CheckoutClient(client, { taskQueue: cluster.taskQueue });
    const state = await checkout.state(orderRef);
    assert.equal(state.reservation, report.checkout.reservation);
    assert.equal(new URL(report.checkout.url).searchParams.get('reservation'), report.checkout.reservation);

    assert.equal(report.refusal.type, 'CheckoutEnded');
    assert.deepEqual(report.refusal.details, { outcome: 'OVER_LIMIT', failureReason: 'limits.dailyLimitReached' });
    assert.equal(report.refusal.outcome, 'OVER_LIMIT');
    // The worker encrypts failure messages (encodedAttributes); the Go failure converter read it.
    assert.match(report.refusal.message, /ended OVER_LIMIT without a hosted page: limits\.dailyLimitReached/);

    assertValidated(report, [
      'openWalletWorkflow input (sent)',
      'openWalletWorkflow update "opened" answer (received)',
      'openWalletWorkflow query "wallet" answer (received)',
      'checkoutWorkflow input (sent)',
      'checkoutWorkflow update "hostedPage" answer (received)',
      'checkoutWorkflow query "state" answer (received)',
      'checkoutWorkflow failure CheckoutEnded details (received)',
      'checkoutWorkflow result (received)',
    ]);

    // What Go wrote is stored encrypted, and is what it meant: decrypted with the deployment's key.
    const codec = new EncryptionCodec(Buffer.from(cluster.payloadKey, 'base64'));
    for (const [workflowId, expected] of [
      [`open-wallet:go-${id}`, { name: `go-${id}`, follower: 'this-workflow', pollIntervalMs: 5_000 }],
      [`checkout:${orderRef}`, { orderRef, sourceAmount: '50', dest: report.wallet.srn }],
    ] as const) {
      const stored = await storedInput(workflowId);
      assert.equal(stored.length, 1);
      assert.equal(Buffer.from(stored[0]!.metadata!.encoding!).toString(), 'binary/encrypted', workflowId);
      assert.ok(!Buffer.from(stored[0]!.data!).toString('latin1').includes(`go-${id}`), 'no plaintext in history');
      const [plain] = await codec.decode(stored);
      assert.equal(Buffer.from(plain!.metadata!.encoding!).toString(), 'json/plain');
      const sent = JSON.parse(Buffer.from(plain!.data!).toString()) as Record<string, unknown>;
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(sent[key], value, `${workflowId}: ${key}`);
    }
  });

  it('finds a wallet opened under the same name the two-workflow way, and reads it from its follower', async () => {
    const id = randomUUID().slice(0, 8);
    const name = `go-two-${id}`;
    // As a client that asked for no follower opened it: the opening completed with what it opened.
    const earlier = await client.workflow.execute('openWalletWorkflow', {
      workflowId: `open-wallet:${name}`,
      taskQueue: cluster.taskQueue,
      args: [{ name, follower: 'child', pollIntervalMs: 5_000 }],
    });
    started.push(`wallet:${earlier.walletId}`);
    const report = await runToReport(name, `go-two-order-${id}`);
    assert.equal(report.wallet.walletId, earlier.walletId);
    assert.equal(report.wallet.workflowId, `wallet:${earlier.walletId}`);
    assert.deepEqual(report.wallet.balances.BTC, { confirmed: DEPOSIT, pending: '0' });
    assertValidated(report, [
      'openWalletWorkflow result (received)',
      'walletWorkflow query "wallet" answer (received)',
    ]);
  });

  it('refuses to send what the schema refuses, and starts nothing', async () => {
    const name = `go-${'x'.repeat(300)}`;
    const out = await run([
      '-wallet-name',
      name,
      '-order-ref',
      `go-bad-${randomUUID().slice(0, 8)}`,
      '-limited-user',
      'US_NONE',
    ]);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    assert.match(
      out.stderr,
      /openWalletWorkflow input \(sent\) does not match schemas\/messages\/wallet\.json#\/\$defs\/\w+ \(nothing was sent\)/,
    );
    assert.match(out.stderr, /maxLength|length/i);
    assert.equal(await exists(`open-wallet:${name}`), false);
  });

  it('refuses plaintext to a Temporal off this machine and the codec token over http:// to another, before it connects; its go test passes', async () => {
    const args = ['-wallet-name', 'go-never', '-order-ref', 'go-never', '-limited-user', 'US_NONE'];
    // Addresses that answer nothing: the refusal comes before any connection, or this would time out.
    // Neither TLS nor a token given, so that nothing else secures the connection.
    const plaintext = { TEMPORAL_API_KEY: '', TEMPORAL_TLS_SERVER_CA_CERT_PATH: '', TEMPORAL_TLS_SERVER_NAME: '' };
    const remote = await run(args, { ...plaintext, TEMPORAL_ADDRESS: '192.0.2.1:7233' });
    assert.equal(remote.code, 1);
    assert.match(remote.stderr, /TEMPORAL_ADDRESS is not on this machine.*TEMPORAL_TLS=true.*TEMPORAL_TLS=false/);
    assert.doesNotMatch(remote.stderr, /192\.0\.2\.1/, 'the variable is named, not its value');
    const codec = await run(args, { ...plaintext, CODEC_SERVER_URL: 'http://192.0.2.1:4030', TEMPORAL_TLS: 'false' });
    assert.equal(codec.code, 1);
    assert.match(codec.stderr, /CODEC_SERVER_URL must be https:\/\/.*CODEC_SERVER_TOKEN/);
    // The cases one by one (connect_test.go), and the rest of the package's own tests.
    const { stdout } = await promisify(execFile)(go(), GO_TEST_ARGS, {
      cwd: GO_BACKEND_DIR,
      timeout: 600_000,
      env: { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-mod=readonly'].filter(Boolean).join(' ') },
    });
    assert.match(stdout, /^ok\s/m);
  });

  it("its codec, the codec server, refuses each of the vectors' refusals, naming why", async () => {
    // The Go backend holds no key: its remote codec is the codec server (src/temporal/codec.ts), called
    // here as its ModifyRequest calls it. That server has the cluster's key, not the vectors': each
    // refusal is made again under the cluster's key the way scripts/payload-vectors.ts makes it.
    const vectors = JSON.parse(readFileSync('schemas/payload-vectors.json', 'utf8')) as {
      refused: Array<{ name: string; encrypted: { metadata: Record<string, string>; data: string } }>;
    };
    const codec = new EncryptionCodec(Buffer.from(cluster.payloadKey, 'base64'));
    const [sealed] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{}') },
    ]);
    // 4 KiB and over: compressed, and marked so.
    const [large] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify('0'.repeat(8192))) },
    ]);
    const { compression: _mark, ...unmarked } = large!.metadata!;
    const asJson = (p: {
      metadata?: Record<string, Uint8Array | null | undefined> | null;
      data?: Uint8Array | null;
    }) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
      ),
      data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
    });
    const ours = (data: Uint8Array) => ({
      metadata: {
        ...vectors.refused[0]!.encrypted.metadata,
        'encryption-key-id': Buffer.from(codec.keyId).toString('base64'),
      },
      data: Buffer.from(data).toString('base64'),
    });
    const made: Record<string, [RegExp, unknown]> = {
      'one bit of the ciphertext altered': [
        /does not authenticate: it was altered/,
        ours(Buffer.from(sealed!.data!).map((b, i) => (i === 20 ? b ^ 1 : b))),
      ],
      'a key id no key given has': [
        /key 000000000000, which this process does not have/,
        vectors.refused[1]!.encrypted,
      ],
      'data shorter than a nonce and a tag': [
        /is 27 bytes, shorter than its 12-byte nonce and 16-byte tag/,
        ours(Buffer.from(sealed!.data!).subarray(0, 27)),
      ],
      'a compression no reader knows': [
        /compressed with "zstd", which this process cannot read/,
        asJson({ ...large!, metadata: { ...large!.metadata, compression: Buffer.from('zstd') } }),
      ],
      'the compression mark removed': [
        /does not authenticate: it was altered/,
        asJson({ ...large!, metadata: unmarked }),
      ],
    };
    assert.deepEqual(
      vectors.refused.map((r) => r.name),
      Object.keys(made),
      'every refusal the vectors hold is tried here',
    );
    for (const [name, [why, payload]] of Object.entries(made)) {
      const res = await fetch(`${cluster.codecUrl}/decode`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-namespace': cluster.temporal.namespace,
          authorization: `Bearer ${cluster.codecToken}`,
        },
        body: JSON.stringify({ payloads: [payload] }),
      });
      const body = (await res.json()) as { error?: string };
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(body)}`);
      assert.match(body.error ?? '', why, name);
    }
  });

  it('without the codec credential it sends nothing: the codec server refuses, no workflow starts', async () => {
    const name = `go-nocred-${randomUUID().slice(0, 8)}`;
    const out = await run(
      ['-wallet-name', name, '-order-ref', `go-nocred-${randomUUID().slice(0, 8)}`, '-limited-user', 'US_NONE'],
      {
        CODEC_SERVER_TOKEN: 'not-the-codec-servers-token',
      },
    );
    assert.equal(out.code, 1);
    assert.match(out.stderr, /Unauthorized/);
    assert.match(out.stderr, /a credential is required/);
    assert.equal(await exists(`open-wallet:${name}`), false);
  });
});
