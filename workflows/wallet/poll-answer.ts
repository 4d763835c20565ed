import type { PollAnswer } from '../../src/provider/transaction-observation.js';

// What one poll (or the watch) brought, told apart by its kind. Recorded answers have no kind: it
// is read from their shape here, so that recorded answers and new ones are read alike.

export type PollOutcome =
  /** Nothing was polled: the workflow woke for a callback alone. */
  | { kind: 'none' }
  /** The poll failed; the next one comes anyway. */
  | { kind: 'failed' }
  | ({ kind: 'changed' } & Extract<PollAnswer, { changed: unknown }>)
  /** The provider knows the wallet but does not list its transactions. */
  | { kind: 'cannotList' }
  /** The provider does not know the wallet (404). */
  | { kind: 'notFound' };

export function pollOutcome(answer: PollAnswer | 'failed' | undefined): PollOutcome {
  if (answer === undefined) return { kind: 'none' };
  if (answer === 'failed') return { kind: 'failed' };
  if ('changed' in answer) return { kind: 'changed', changed: answer.changed, cursor: answer.cursor };
  if ('cannotList' in answer) return { kind: 'cannotList' };
  return { kind: 'notFound' };
}
