import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { findTemporalCli } from '../../src/temporal/cli.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import { freePort } from '../../src/temporal/ports.js';
import { walletQuery, walletWorkflowId } from '../../workflows/wallet/messages.js';
import { eventually, startStack, type Stack, temporalCliConnection } from '../helpers/stack.js';
import { walletSrn } from '../../src/provider/srn.js';

// The codec server as an operator's Temporal CLI uses it: start and signal with input encrypted
// through it, query (no arguments: the CLI sends `{}`) and show with payloads decrypted.

const run = promisify(execFile);

describe('the codec server with the Temporal CLI', () => {
  let stack: Stack;
  let codecServer: FastifyInstance;
  let cli: string;
  let codec: string[];
  /** How the CLI reaches the run's Temporal (on the cluster: TLS and a token). */
  let connection: string[];
  let codecEndpoint: string;
  const token = 'cli-token-0123456789abcdef';
  before(async () => {
    stack = await startStack();
    const found = await findTemporalCli();
    if (found.kind !== 'binary') throw new Error('this test needs the temporal CLI binary');
    cli = found.path;
    const port = await freePort();
    codecServer = createCodecServer(new EncryptionCodec(Buffer.from(stack.payloadKey, 'base64')), {
      allowedOrigins: [],
      allowedHosts: [`127.0.0.1:${port}`],
      token,
      // The CLI names its --namespace in X-Namespace (the stack's clients use the default one).
      namespace: 'default',
    });
    await codecServer.listen({ port, host: '127.0.0.1' });
    connection = await temporalCliConnection();
    codecEndpoint = `http://127.0.0.1:${port}`;
    codec = [
      ...connection,
      '--namespace',
      'default',
      '--codec-endpoint',
      codecEndpoint,
      '--codec-auth',
      `Bearer ${token}`,
    ];
  });
  after(async () => {
    await codecServer?.close();
    await stack?.stop();
  });

  it('starts, signals, queries and shows a wallet through the codec server', async () => {
    const walletId = 'WA_CLICODEC';
    const workflowId = walletWorkflowId(walletId);
    await run(cli, [
      'workflow',
      'start',
      ...codec,
      '--type',
      'walletWorkflow',
      '--task-queue',
      stack.taskQueue,
      '--workflow-id',
      workflowId,
      '--input',
      JSON.stringify({ walletId, pollIntervalMs: 3_600_000 }),
    ]);
    const tx = {
      id: 'TR_CLICODEC1',
      createdAt: Date.now(),
      source: 'bitcoin:EXTERNAL',
      dest: walletSrn(walletId),
      currency: 'BTC',
      amount: 0.7,
      status: 'CONFIRMED',
      metadata: {},
      tags: [],
    };
    await run(cli, [
      'workflow',
      'signal',
      ...codec,
      '--workflow-id',
      workflowId,
      '--name',
      'transaction',
      '--input',
      JSON.stringify(tx),
    ]);

    // The worker decoded what the CLI encrypted: the ledger counted the deposit.
    await eventually(async () =>
      assert.deepEqual((await stack.client.workflow.getHandle(workflowId).query(walletQuery)).balances.BTC, {
        confirmed: '0.7',
        pending: '0',
      }),
    );
    const { stdout: queried } = await run(cli, [
      'workflow',
      'query',
      ...codec,
      '--workflow-id',
      workflowId,
      '--name',
      'wallet',
      '--output',
      'json',
    ]);
    assert.deepEqual((JSON.parse(queried) as { queryResult: Array<{ balances: unknown }> }).queryResult[0]!.balances, {
      BTC: { confirmed: '0.7', pending: '0' },
    });

    // `show` prints payloads as protobuf JSON (base64 data): decoded, the signal's input is plain JSON.
    const signalInput = async (args: string[]) => {
      const { stdout } = await run(cli, ['workflow', 'show', ...args, '--workflow-id', workflowId, '--output', 'json']);
      const events = (
        JSON.parse(stdout) as {
          events: Array<{
            workflowExecutionSignaledEventAttributes?: {
              input: { payloads: Array<{ metadata: Record<string, string>; data: string }> };
            };
          }>;
        }
      ).events;
      const payload = events.find((e) => e.workflowExecutionSignaledEventAttributes)!
        .workflowExecutionSignaledEventAttributes!.input.payloads[0]!;
      return {
        encoding: Buffer.from(payload.metadata.encoding!, 'base64').toString(),
        data: Buffer.from(payload.data, 'base64').toString(),
      };
    };
    const decoded = await signalInput(codec);
    assert.equal(decoded.encoding, 'json/plain');
    assert.equal((JSON.parse(decoded.data) as { id: string }).id, 'TR_CLICODEC1');
    const raw = await signalInput(connection);
    assert.equal(raw.encoding, 'binary/encrypted', 'without the codec server it stays encrypted');
    assert.ok(!raw.data.includes('TR_CLICODEC1'));

    // Without the token the codec server refuses, and the CLI says so.
    await assert.rejects(
      run(cli, [
        'workflow',
        'query',
        ...connection,
        '--codec-endpoint',
        codecEndpoint,
        '--workflow-id',
        workflowId,
        '--name',
        'wallet',
      ]),
    );
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });
});
