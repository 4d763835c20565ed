import type { CallbackSender } from './callbacks.js';
import type { Faults } from './faults.js';
import type { Store } from './store.js';

/** What every sandbox route needs. */
export interface SandboxContext {
  store: Store;
  callbacks: CallbackSender;
  now: () => number;
  faults: Faults;
  /** How long a reservation can be used (docs/provider-contract.md §OP-8: 15 minutes or an hour; default 15). */
  reservationTtlMs: number;
  /** Persist state after a change (a no-op when no state file is configured). */
  changed: () => void;
}
