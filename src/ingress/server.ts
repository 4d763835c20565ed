import type { Client } from '@temporalio/client';
import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { callbackSignature, signatureMatches } from '../provider/signing.js';
import {
  CALLBACK_WALLET_PARAM,
  openWalletWorkflowId,
  WALLET_TIMING_DEFAULTS,
  type WalletTimings,
  walletStartArgs,
  walletWorkflowId,
} from '../../workflows/wallet/messages.js';
import { signalWallet, signalWalletByName } from '../../workflows/wallet/follower-client.js';
import { createIngressMetrics, type IngressMetrics } from '../telemetry/ingress-metrics.js';
import { inSpan, SpanKind } from '../telemetry/spans.js';
import { parseCallback } from './callback.js';

// Receives the provider's callbacks and turns each verified one into a signal to the workflow
// that follows its wallet: the one its callback URL names (`?wallet=<name>`), or, for a wallet
// opened before one workflow per wallet, its follower (started if it is not running). It answers 200 only once Temporal has
// accepted the signal, so that a failure here is visible to whoever resends the callback. Its
// /health and /metrics are on the operations port (./ops.ts), not on this public one.

export interface IngressOptions {
  client: Client;
  taskQueue: string;
  /** The account's secret key: callbacks are signed with it (docs/provider-contract.md §6.4). */
  secretKey?: string;
  /**
   * During a rotation of that key, every secret a callback may be signed with, newest first
   * (PROVIDER_CALLBACK_SECRETS); default: `secretKey` alone. One of the two is required.
   */
  callbackSecrets?: string[];
  /** Longest time to receive a whole request, headers and body (INGRESS_REQUEST_TIMEOUT). */
  requestTimeoutMs?: number;
  /** Connections open at once; more are refused (INGRESS_MAX_CONNECTIONS). */
  maxConnections?: number;
  maxBodyBytes: number;
  /** How the wallet workflows that a callback starts poll and reconcile (WALLET_POLL_INTERVAL and the like). */
  walletTimings?: WalletTimings;
  /** How long to wait for Temporal before answering 503. */
  temporalTimeoutMs?: number;
  logger?: boolean | FastifyBaseLogger;
  /** What the callbacks are counted into; served by createIngressOps on the operations port. */
  metrics?: IngressMetrics;
}

export function createIngress(opts: IngressOptions): FastifyInstance {
  const logging = typeof opts.logger === 'object' ? { loggerInstance: opts.logger } : { logger: opts.logger ?? false };
  const requestTimeout = opts.requestTimeoutMs ?? 10_000;
  // A slow sender cannot hold a connection open: the headers, the whole request and an idle
  // keep-alive connection each have a limit, checked every second (Node checks every 30 s by default).
  const app = Fastify({
    ...logging,
    bodyLimit: opts.maxBodyBytes,
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout,
          headersTimeout: Math.min(requestTimeout, 5_000),
          keepAliveTimeout: 5_000,
          connectionsCheckingInterval: 1_000,
        },
        handler,
      );
      server.maxConnections = opts.maxConnections ?? 1_024;
      return server;
    },
  });
  const secrets = opts.callbackSecrets?.length ? opts.callbackSecrets : opts.secretKey ? [opts.secretKey] : [];
  if (secrets.length === 0)
    throw new Error('createIngress: give the secret key that callbacks are signed with (secretKey or callbackSecrets)');
  const metrics = opts.metrics ?? createIngressMetrics();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const deadline = opts.temporalTimeoutMs ?? 5_000;
  const timings = opts.walletTimings ?? WALLET_TIMING_DEFAULTS;

  /**
   * A signal within the deadline for Temporal: the workflow it reached, none (undefined: it does not
   * run), or the error, said for `workflowId`.
   */
  const tell = async (
    workflowId: string,
    signal: () => Promise<string | undefined>,
  ): Promise<{ workflowId: string; err?: Error } | undefined> => {
    // Thrown here, before Temporal was asked, it is ours: the error handler's 500, not a 503.
    const call = opts.client.withDeadline(Date.now() + deadline, signal);
    try {
      const reached = await call;
      return reached === undefined ? undefined : { workflowId: reached };
    } catch (err) {
      return { workflowId, err: err as Error };
    }
  };

  app.post('/callbacks', async (req, reply) => {
    const arrived = performance.now();
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const provided = req.headers['x-api-signature'];
    // Every secret is tried, so that the time taken tells nothing of which one matched.
    const matches =
      typeof provided === 'string'
        ? secrets.map((secret) => signatureMatches(callbackSignature(secret, raw), provided.toLowerCase()))
        : [];
    if (!matches.includes(true)) {
      metrics.callback('bad_signature');
      return reply.code(401).send({
        error: 'invalid signature',
        detail: 'X-API-Signature must be the hex HMAC-SHA256 of the raw body, keyed with the account secret key',
      });
    }
    const parsed = parseCallback(raw);
    const named = (req.query as Record<string, unknown>)[CALLBACK_WALLET_PARAM];
    if (!parsed.ok || (named !== undefined && (typeof named !== 'string' || named === ''))) {
      metrics.callback('malformed');
      const detail = parsed.ok
        ? `the query parameter ${CALLBACK_WALLET_PARAM} names one wallet, by the name it was opened with`
        : parsed.error;
      return reply.code(400).send({ error: 'malformed callback', detail });
    }

    // The wallet's own workflow, by the name its callback URL carries (the other wallet of a transfer
    // is called back at its own URL, docs/provider-contract.md §6.1). When that one does not run
    // (terminated by an operator, say), or the URL names none (a wallet opened before one workflow per
    // wallet), every wallet the transaction touches hears of it by id, and a follower is started
    // where none runs (workflows/wallet/follower-client.ts). A workflow for a wallet that is not this
    // account's ends by itself after a few not-found polls; one started after it carries on its ledger.
    const told = await inSpan(
      'callback',
      SpanKind.SERVER,
      {
        'http.request.method': 'POST',
        'http.route': '/callbacks',
        'payflows.wallets': named === undefined ? parsed.walletIds.length : 1,
      },
      async () => {
        if (named !== undefined) {
          const workflowId = openWalletWorkflowId(named);
          const byName = await tell(workflowId, async () =>
            (await signalWalletByName(opts.client, named, parsed.tx)) ? workflowId : undefined,
          );
          if (byName) return [byName];
        }
        const byId = await Promise.all(
          parsed.walletIds.map((walletId) =>
            tell(walletWorkflowId(walletId), () =>
              signalWallet(opts.client, {
                taskQueue: opts.taskQueue,
                input: walletStartArgs({ walletId }, timings),
                tx: parsed.tx,
              }),
            ),
          ),
        );
        return byId.filter((t) => t !== undefined);
      },
    );
    const failed = told.filter((t) => t.err !== undefined);
    if (failed.length > 0) {
      // One wallet heard of it and another did not: the resend the 503 asks for reaches both, and
      // the one that already counted it takes the repeat as a duplicate.
      for (const failure of failed)
        req.log.error(
          { err: failure.err, workflowId: failure.workflowId },
          'Temporal did not accept the callback signal',
        );
      metrics.callback('temporal_unavailable');
      return reply.code(503).send({
        error: 'temporal unavailable',
        detail: `the callback was not recorded for ${failed.map((f) => f.workflowId).join(', ')}; send it again later`,
      });
    }
    metrics.callback('accepted');
    metrics.signalled((performance.now() - arrived) / 1000);
    return reply.code(200).send({ ok: true, workflowIds: told.map((t) => t.workflowId), transactionId: parsed.tx.id });
  });

  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, req, reply) => {
    if (err.statusCode === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      metrics.callback('too_large');
      return reply
        .code(413)
        .send({ error: 'payload too large', detail: `callbacks are limited to ${opts.maxBodyBytes} bytes` });
    }
    // A 4xx is Fastify's word on the request itself, meant for its sender.
    if (err.statusCode && err.statusCode < 500) return reply.code(err.statusCode).send({ error: err.message });
    // Anything else is ours: its message can name hosts, keys or internals, so it goes to the log
    // and the sender learns only what to do.
    req.log.error({ err }, 'the callback could not be processed');
    return reply
      .code(500)
      .send({ error: 'internal error', detail: 'the callback was not processed; send it again later' });
  });
  return app;
}
