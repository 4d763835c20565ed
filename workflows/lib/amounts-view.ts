import { type Decimal, decimal, isDecimal } from '../../src/decimal.js';
import type { Limits } from '../../src/provider/schemas/limits.js';
import type { Reconciliation } from '../wallet/drift.js';

// What a query shows of amounts: decimal strings, as the docs promise, also for a run from before
// exact amounts, whose state holds numbers. Only the view is normalised: the state, and with it
// every command a replay gives, stays as recorded.

/** An amount as a query shows it: a canonical decimal; anything else (none expected) as it is. */
const shown = (value: Decimal | number): Decimal => (isDecimal(value) ? decimal(value) : value);

export function limitsView(limits: Limits | null): Limits | null {
  if (!limits) return limits;
  return Object.fromEntries(Object.entries(limits).map(([key, value]) => [key, shown(value)])) as Limits;
}

export function reconciliationView(reconciliation: Reconciliation): Reconciliation {
  return {
    ...reconciliation,
    drift: reconciliation.drift.map((d) => ({ ...d, ledger: shown(d.ledger), provider: shown(d.provider) })),
  };
}
