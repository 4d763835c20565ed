import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decimal } from '../../src/decimal.js';
import { walletSrn } from '../../src/provider/srn.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { type LedgerStateV2 } from '../../workflows/wallet/legacy-carried-ledger.js';
import { balances, emptyLedger, record } from '../../workflows/wallet/ledger.js';
import { countedAsBeforeExactLedger, floatDrift, floatTotalsFrom } from '../../workflows/wallet/legacy-float-ledger.js';
import { findDrift } from '../../workflows/wallet/drift.js';
import * as before from '../fixtures/before-exact-ledger/ledger.js';
import { findDrift as findDriftBefore } from '../fixtures/before-exact-ledger/reconcile.js';

// A run started before wallet-exact-ledger found a drift, or none, by floating-point sums; a drift
// made a quiet run poll and read the balances again (commands). Replayed on today's code, it must
// decide the same, or its history no longer replays. The ledger as it was (test/fixtures/
// before-exact-ledger, commit 22d1433) is the oracle.

const WALLET_ID = 'WA_FLOATS';
const SRN = walletSrn(WALLET_ID);
type Step = {
  id: string;
  status: 'PENDING' | 'CONFIRMED' | 'REVERSED';
  amount: number;
  from: 'outside' | 'self' | 'out';
};

const observation = (step: Step, createdAt: number) => ({
  id: step.id,
  createdAt,
  source: step.from === 'outside' ? 'bitcoin:EXTERNAL' : SRN,
  dest: step.from === 'out' ? 'bitcoin:ELSEWHERE' : SRN,
  currency: 'BTC',
  amount: step.amount,
  status: step.status,
  confirmedAt: null,
});

/** The same notices, recorded by the ledger as it was and by today's in a run from before the patch. */
function replay(steps: Step[], carriedTotal?: number) {
  const carried: LedgerStateV2 | undefined =
    carriedTotal === undefined
      ? undefined
      : {
          ...before.emptyLedger(WALLET_ID),
          version: 2,
          settledTotals: { BTC: carriedTotal },
          entries: {},
          settled: {},
        };
  const old = carried ? before.fromCarried(carried as before.LedgerState) : before.emptyLedger(WALLET_ID);
  const today = carried ? fromCarried(carried) : emptyLedger(WALLET_ID);
  today.floatTotals = floatTotalsFrom(carried);
  const counting = countedAsBeforeExactLedger(today.floatTotals);
  steps.forEach((step, i) => {
    const tx = observation(step, 1_700_000_000_000 + i);
    before.record(old, tx, 'callback');
    record(today, { ...tx, amount: decimal(tx.amount) }, 'callback', { counting });
  });
  return { old, today };
}

const driftBefore = (old: before.LedgerState, available: Record<string, number>) =>
  findDriftBefore(before.balances(old), available).map((drift) => drift.currency);
const driftToday = (today: ReturnType<typeof emptyLedger>, available: Record<string, number>) =>
  floatDrift(today, today.floatTotals!, available).map((drift) => drift.currency);

describe('a run from before wallet-exact-ledger reconciles as it did', () => {
  it('float residue carried: no drift then, none now; exact sums would have found one', () => {
    const { old, today } = replay([], 0.1 + 0.2);
    const available = { BTC: 0.3 };
    assert.deepEqual(driftBefore(old, available), []);
    assert.deepEqual(driftToday(today, available), []);
    assert.deepEqual(
      findDrift(balances(today), available).map((drift) => drift.currency),
      ['BTC'],
      'exact math decides otherwise: the reason the old runs keep the float decision',
    );
  });

  it('large amounts: a false drift then, the same drift now; exact sums would have found none', () => {
    const amounts = [49_785_023.17, 38_171_337.91, 27_614_285.71, 45_606_133.34];
    const steps = amounts.map((amount, i): Step => ({
      id: `TR_BIG${i}`,
      status: 'CONFIRMED',
      amount,
      from: 'outside',
    }));
    const { old, today } = replay(steps);
    const exactSum = '161176780.13';
    const available = { BTC: Number(exactSum) };
    const decidedThen = driftBefore(old, available);
    assert.deepEqual(driftToday(today, available), decidedThen);
    assert.equal(balances(today).BTC!.confirmed, exactSum, 'what the run shows is exact all the same');
  });

  it('a transfer from the wallet to itself: counted as a deposit then, and in such a run now', () => {
    const { old, today } = replay([{ id: 'TR_SELF1', status: 'CONFIRMED', amount: 2, from: 'self' }]);
    assert.equal(before.balances(old).BTC!.confirmed, 2);
    assert.equal(balances(today).BTC!.confirmed, '2');
    assert.deepEqual(driftToday(today, { BTC: 0 }), driftBefore(old, { BTC: 0 }));
  });

  it('decides as the old ledger did for any notices, evictions and provider balance (property)', () => {
    const amount = fc.oneof(
      fc.integer({ min: 1, max: 5_000_000_000 }).map((cents) => cents / 100),
      fc.integer({ min: 1, max: 99_999_999 }).map((sats) => sats / 1e8),
      fc.double({ min: 1e-9, max: 1e9, noNaN: true }),
    );
    const step = fc.record({
      id: fc.integer({ min: 0, max: 300 }).map((n) => `TR_P${n}`),
      status: fc.constantFrom('PENDING', 'CONFIRMED', 'CONFIRMED', 'REVERSED'),
      amount,
      from: fc.constantFrom('outside', 'outside', 'out', 'self'),
    }) as fc.Arbitrary<Step>;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 450, size: 'max' }),
        fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
        fc.double({ min: -1e-8, max: 1e-8, noNaN: true }),
        (steps, carriedTotal, nudge) => {
          const { old, today } = replay(steps, carriedTotal);
          // The provider's balance near the old ledger's, so that the tolerance is what decides.
          const near = (before.balances(old).BTC?.confirmed ?? 0) + nudge;
          const exactly = Number(balances(today).BTC?.confirmed ?? 0);
          const answers: Array<Record<string, number>> = [{ BTC: near }, { BTC: exactly }, { ETH: 1 }];
          for (const available of answers) assert.deepEqual(driftToday(today, available), driftBefore(old, available));
        },
      ),
      { numRuns: 60 },
    );
  });
});
