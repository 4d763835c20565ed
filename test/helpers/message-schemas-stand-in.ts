import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A STAND-IN for schemas/messages/{wallet,checkout}.json while `npm run schemas` does not write them
// yet (issue 20: another branch generates them from the zod schemas). Hand-made from
// src/messages/*.schema.ts and workflows/*/messages.ts, in the agreed layout, holding only what
// examples/go-backend looks up through x-payflows. Used by test/cluster/go-backend.test.ts only when
// the real files are absent; delete this file and that fallback once they are in the repo.

const $schema = 'https://json-schema.org/draft/2020-12/schema';
const id = (process: string) => `https://payflows.dev/schemas/messages/${process}.json`;
const decimal = { type: 'string', pattern: '^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$' };
const positive = { anyOf: [{ type: 'string', pattern: '^(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$' }, { type: 'number' }] };
const walletId = { type: 'string', pattern: '^WA[-_][A-Za-z0-9]+$' };
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const str = { type: 'string' };

const wallet = {
  $schema,
  $id: id('wallet'),
  title: 'wallet (stand-in)',
  'x-payflows': {
    workflows: {
      openWalletWorkflow: {
        workflowId: { template: 'open-wallet:{name}', pattern: '^open-wallet:.+$' },
        input: '#/$defs/OpenWalletInput',
        result: '#/$defs/OpenWalletResult',
      },
      walletWorkflow: {
        workflowId: { template: 'wallet:{walletId}', pattern: '^wallet:WA[-_][A-Za-z0-9]+$' },
        queries: { wallet: { answer: '#/$defs/WalletView' } },
      },
    },
  },
  $defs: {
    OpenWalletInput: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 256 },
        type: { enum: ['DEFAULT', 'ENTERPRISE', 'SAVINGS'] },
        notes: { type: 'string', maxLength: 2000 },
        pollIntervalMs: { type: 'integer', minimum: 100 },
        pollMaxMs: { type: 'integer', minimum: 100 },
        reconcileIntervalMs: { type: 'integer', minimum: 1000 },
      },
      required: ['name', 'pollIntervalMs'],
    },
    OpenWalletResult: {
      type: 'object',
      properties: {
        walletId,
        srn: { type: 'string', pattern: '^wallet:WA[-_][A-Za-z0-9]+$' },
        depositAddresses: { type: 'object', additionalProperties: str },
        walletWorkflowId: { type: 'string', pattern: '^wallet:WA[-_][A-Za-z0-9]+$' },
      },
      required: ['walletId', 'srn', 'depositAddresses', 'walletWorkflowId'],
    },
    WalletView: {
      type: 'object',
      properties: {
        walletId,
        name: str,
        balances: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { confirmed: decimal, pending: decimal, approximate: { const: true } },
            required: ['confirmed', 'pending'],
          },
        },
        recentTransactions: { type: 'array' },
        stats: { type: 'object' },
        queued: { type: 'integer', minimum: 0 },
        reconciliation: { type: 'object' },
      },
      required: ['walletId', 'balances', 'recentTransactions', 'stats', 'queued'],
    },
  },
};

const outcome = { enum: ['COMPLETED', 'FAILED', 'EXPIRED', 'OVER_LIMIT', 'NOT_APPROVED'] };
const checkout = {
  $schema,
  $id: id('checkout'),
  title: 'checkout (stand-in)',
  'x-payflows': {
    workflows: {
      checkoutWorkflow: {
        workflowId: { template: 'checkout:{orderRef}', pattern: '^checkout:[A-Za-z0-9_.-]{1,100}$' },
        input: '#/$defs/CheckoutInput',
        result: '#/$defs/CheckoutResult',
        queries: { state: { answer: '#/$defs/CheckoutState' } },
        updates: { hostedPage: { args: [], answer: '#/$defs/HostedPage' } },
        failures: {
          CheckoutEnded: { when: 'the checkout ended without a hosted page', details: '#/$defs/CheckoutEndedDetails' },
          InputRejected: { when: 'bad input', details: '#/$defs/InputRejectedDetails' },
        },
      },
    },
  },
  $defs: {
    CheckoutInput: {
      type: 'object',
      properties: {
        orderRef: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' },
        sourceAmount: positive,
        sourceCurrency: { type: 'string', pattern: '^[A-Z0-9]{2,10}$' },
        destCurrency: { type: 'string', pattern: '^[A-Z0-9]{2,10}$' },
        dest: { type: 'string', pattern: '^(?:wallet:WA[-_][A-Za-z0-9]+|account:AC[-_][A-Za-z0-9]+)$' },
        redirectUrl: { type: 'string', format: 'uri' },
        failureRedirectUrl: { type: 'string', format: 'uri' },
        userId: { type: 'string', pattern: '^US[-_][A-Za-z0-9]+$' },
        requireHigherLimits: { type: 'boolean' },
        timing: { type: 'object' },
      },
      required: ['orderRef', 'sourceAmount', 'sourceCurrency', 'destCurrency', 'dest'],
      additionalProperties: false,
    },
    HostedPage: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, reservation: str },
      required: ['url', 'reservation'],
    },
    CheckoutState: {
      type: 'object',
      properties: {
        orderRef: str,
        stage: {
          enum: ['WAITING_FOR_APPROVAL', 'CHECKING_LIMITS', 'RESERVING', 'WAITING_FOR_PURCHASE', 'CONFIRMING', 'DONE'],
        },
        reservation: nullable(str),
        url: nullable(str),
        outcome: nullable(outcome),
        redirectsReceived: { type: 'integer', minimum: 0 },
      },
      required: ['orderRef', 'stage', 'reservation', 'url', 'outcome', 'redirectsReceived'],
    },
    CheckoutResult: {
      type: 'object',
      properties: { outcome, orderRef: str, reservation: nullable(str), failureReason: nullable(str) },
      required: ['outcome', 'orderRef', 'reservation', 'failureReason'],
    },
    CheckoutEndedDetails: {
      type: 'object',
      properties: { outcome, failureReason: nullable(str) },
      required: ['outcome', 'failureReason'],
    },
    InputRejectedDetails: { type: 'object', properties: { field: str }, required: ['field'] },
  },
};

/** Writes the stand-in files into `dir` and returns it. */
export function writeStandInSchemas(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'wallet.json'), JSON.stringify(wallet, null, 2));
  writeFileSync(join(dir, 'checkout.json'), JSON.stringify(checkout, null, 2));
  return dir;
}
