import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { pino } from 'pino';
import { callbackSignature } from '../../src/provider/signing.js';
import { createIngress } from '../../src/ingress/server.js';
import { depositCallback } from '../helpers/callback.js';

// What the ingress answers when something inside it fails: whoever posted the callback learns
// that it failed and what to do (send it again), never the internal message, which can name hosts,
// keys or workflow internals; the message goes to the log, for the operator.

const INTERNAL = 'pool to 10.0.0.7:7233 exhausted (secret-ish internals)';

describe('ingress: an internal failure', () => {
  it('answers 500 with a generic message and logs the error', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    // A client that fails before it reaches Temporal: not a 503 (Temporal unavailable), a bug.
    const client = {
      withDeadline: () => {
        throw new Error(INTERNAL);
      },
    } as unknown as Client;
    const secretKey = 'SK-TEST';
    const app = createIngress({
      client,
      taskQueue: 'q',
      secretKey,
      maxBodyBytes: 65_536,
      walletTimings: { pollIntervalMs: 1_000 },
      logger,
    });
    const body = depositCallback('WA_FAILS');
    const res = await app.inject({
      method: 'POST',
      url: '/callbacks',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(secretKey, body) },
      payload: body,
    });
    await app.close();
    assert.equal(res.statusCode, 500);
    assert.ok(!res.body.includes('10.0.0.7'), `the answer carries no internal message: ${res.body}`);
    assert.deepEqual(res.json(), {
      error: 'internal error',
      detail: 'the callback was not processed; send it again later',
    });
    assert.ok(
      lines.some((line) => line.includes(INTERNAL)),
      `the error is logged for the operator: ${lines.join('')}`,
    );
  });
});
