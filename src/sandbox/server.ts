import Fastify, { type FastifyInstance } from 'fastify';
import { stringifyJson } from '../json.js';
import { CallbackSender } from './callbacks.js';
import type { SandboxContext } from './context.js';
import { loadState, stateWriter } from './persistence.js';
import { registerOperatorRoutes } from './routes/operator.js';
import { registerTransferRoutes } from './routes/transfers.js';
import { registerWalletRoutes } from './routes/wallets.js';
import { Faults } from './faults.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerOrderRoutes } from './routes/orders.js';
import { registerPaymentMethodRoutes } from './routes/payment-methods.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerUserRoutes } from './routes/users.js';
import { registerKycOperatorRoutes } from './routes/operator-kyc.js';
import { registerPaymentOperatorRoutes } from './routes/operator-payments.js';
import { registerMoveOperatorRoutes } from './routes/operator-moves.js';
import { registerPageRoutes } from './routes/pages.js';
import { emptyState, Store, upgradeState } from './store.js';
import { SandboxError, sendError, sendFrameworkError } from './errors.js';
import { operatorRoutes } from './operator-route.js';
import { providerRoutes } from './provider-route.js';

export interface SandboxOptions {
  /** The master account's credentials (PROVIDER_API_KEY / PROVIDER_SECRET_KEY). */
  apiKey: string;
  secretKey: string;
  masterAccountId?: string;
  now?: () => number;
  timestampToleranceMs?: number;
  stateFile?: string;
  /** How long a reservation can be used; default 15 minutes. */
  reservationTtlMs?: number;
  logger?: boolean;
}

export interface Sandbox {
  app: FastifyInstance;
  ctx: SandboxContext;
  listen(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Documents (docs/provider-contract.md §4.10) may be 7.75 MB: larger bodies are read far enough to answer with a ValidationException. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function createSandbox(opts: SandboxOptions): Sandbox {
  const now = opts.now ?? Date.now;
  const master = {
    apiKey: opts.apiKey,
    secretKey: opts.secretKey,
    accountId: opts.masterAccountId ?? 'AC_SANDBOXMASTER',
  };
  const fresh = emptyState(master, now());
  const loaded = opts.stateFile ? loadState(opts.stateFile) : undefined;
  const state = loaded ? upgradeState(loaded, fresh) : fresh;
  // The configured master credentials always work, even against an older state file.
  if (!state.credentials.some((c) => c.apiKey === master.apiKey && c.secretKey === master.secretKey))
    state.credentials.unshift({ ...master, kind: 'account' });
  const writer = opts.stateFile ? stateWriter(opts.stateFile, state) : undefined;

  const ctx: SandboxContext = {
    store: new Store(state),
    callbacks: new CallbackSender(),
    now,
    faults: new Faults(),
    reservationTtlMs: opts.reservationTtlMs ?? 15 * 60_000,
    changed: () => writer?.changed(),
  };
  const auth = { now: ctx.now, toleranceMs: opts.timestampToleranceMs ?? 5 * 60_000 };

  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    // A malformed URL (bad percent-encoding) is answered with the provider's error body too.
    frameworkErrors: (err, _req, reply) => {
      void sendFrameworkError(reply, err);
    },
  });
  // Amounts are kept as exact decimal strings and answered as JSON numbers, digit for digit (the
  // contract's numbers): src/json.ts.
  app.setReplySerializer((payload) => stringifyJson(payload));
  // Every body is kept as raw bytes: signatures cover the bytes as sent, and documents are binary.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, new SandboxError('NotFoundException', `No route ${req.method} ${req.url.split('?')[0]}`)),
  );
  // Errors raised by the web framework (no or unsupported Content-Type, body too large) or by a
  // bug answer with the provider's error body, never the framework's own.
  app.setErrorHandler((err, _req, reply) => sendFrameworkError(reply, err));

  const providerRoute = providerRoutes(app, ctx, auth);
  for (const register of [
    registerSessionRoutes,
    registerAccountRoutes,
    registerUserRoutes,
    registerWalletRoutes,
    registerTransferRoutes,
    registerPaymentMethodRoutes,
    registerOrderRoutes,
  ])
    register(providerRoute, ctx);
  const operatorRoute = operatorRoutes(app, ctx);
  for (const register of [
    registerOperatorRoutes,
    registerMoveOperatorRoutes,
    registerKycOperatorRoutes,
    registerPaymentOperatorRoutes,
  ])
    register(operatorRoute, ctx);
  registerPageRoutes(app, ctx);

  return {
    app,
    ctx,
    async listen(port, host = '127.0.0.1') {
      await app.listen({ port, host });
      const addr = app.server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      return `http://${host}:${actual}`;
    },
    async close() {
      await app.close();
      writer?.flush();
    },
  };
}
