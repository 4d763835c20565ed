import type { CallbackSender } from './callbacks';
import type { Store } from './store';

/** What every sandbox route needs. */
export interface SandboxContext {
  store: Store;
  callbacks: CallbackSender;
  now: () => number;
  /** Persist state after a change (a no-op when no state file is configured). */
  changed: () => void;
}
