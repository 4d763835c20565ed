import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { PollCursor } from '../../src/provider/transaction-observation.js';
import type { CarriedLedger } from './carried-ledger.js';
import type { Observation, RecordedObservation } from './ledger.js';
import type { Reconciliation } from './drift.js';

export type { Drift, Reconciliation } from './drift.js';
export type { Balance, Entry, Kind as EntryKind, LedgerStats, SeenVia } from './ledger.js';
import type { WalletInputFields } from './inputs.schema.js';
import type { z } from 'zod';
import type { openWalletResult, walletResult, walletView } from './messages.schema.js';

import type { OpenWalletInput } from './inputs.schema.js';
export * from './contract.js';

export type { OpenWalletInput };

/** How a wallet's follower polls and reconciles (configuration: WALLET_POLL_INTERVAL and the like). */
export interface WalletTimings {
  pollIntervalMs: number;
  pollMaxMs?: number | undefined;
  reconcileIntervalMs?: number | undefined;
}

/**
 * A wallet's start arguments: its own fields, then its timings, the optional ones only when set.
 * Built here for every start (the opening workflow's child, a callback's follower, the client's
 * opening), so that they agree; the opening workflow's child arguments keep their order and shape.
 */
export function walletStartArgs<Fields extends object>(fields: Fields, timings: WalletTimings): Fields & WalletTimings {
  return {
    ...fields,
    pollIntervalMs: timings.pollIntervalMs,
    ...(timings.pollMaxMs ? { pollMaxMs: timings.pollMaxMs } : {}),
    ...(timings.reconcileIntervalMs ? { reconcileIntervalMs: timings.reconcileIntervalMs } : {}),
  };
}

export type WalletInput = WalletInputFields & {
  /** Carried across continue-as-new, in any shape a run ever carried (workflows/wallet/carried-ledger.ts). */
  carried?: CarriedLedger;
  /** Carried likewise; amounts are numbers in runs from before exact amounts. */
  inbox?: Array<{ tx: RecordedObservation; via: 'callback' | 'poll' }>;
  /** Set by the opening workflow: a wallet just created has nothing to poll for yet. */
  opened?: boolean;
  /** Carried by a wallet followed in its opening workflow: what the opening answered, for the next open of its name. */
  opening?: OpenWalletResult;
  /** Carried across continue-as-new since wallet-quiet-polling: how quiet the wallet has been. */
  quietPolls?: number;
  /** Carried likewise: where polling stands (src/provider/transaction-observation.ts). */
  pollCursor?: Pick<PollCursor, 'since' | 'seen'>;
  /** Carried likewise: the last comparison with the provider's balances. */
  reconciliation?: Reconciliation;
  /** Carried likewise: false once the provider showed it does not list this wallet's transactions. */
  listing?: boolean;
};

export type OpenWalletResult = z.output<typeof openWalletResult>;

export type WalletResult = z.output<typeof walletResult>;

/** The wallet query's answer: balances, recent transactions, counts and the last reconciliation. */
export type WalletView = z.output<typeof walletView>;

/** A verified provider callback (docs/provider-contract.md §2.4), trimmed by the ingress; older runs' whole callbacks are read too. */
export const transactionSignal = defineSignal<[Observation]>('transaction');
export const walletQuery = defineQuery<WalletView>('wallet');
/**
 * Answers the opening once the provider has created the wallet: how a client opens a wallet followed
 * in its opening workflow (update-with-start), which never completes to give a result.
 */
export const openedUpdate = defineUpdate<OpenWalletResult>('opened');
/** Compares the ledger with the provider's balances now (polling first where they disagree) and answers what it found. */
export const reconcileUpdate = defineUpdate<Reconciliation>('reconcile');

/** The workflows' signatures, for clients that start them by name with checked arguments. */
/** A wallet followed in its opening workflow (`follower: 'this-workflow'`) returns as its follower does. */
export type OpenWalletWorkflow = (input: OpenWalletInput) => Promise<OpenWalletResult | WalletResult>;
export type WalletWorkflow = (input: WalletInput) => Promise<WalletResult>;
