import { condition, proxyActivities } from '@temporalio/workflow';
import type { NotifyActivities, Reminder } from '../../activities/notify.js';
import { NOTIFICATION } from './activity-options.js';

// Every process reminds the same way since the patch reminders-while-owed (workflows/patches.ts).

export type Reminders = {
  /** The quiet time after which the end user is reminded (configuration). */
  afterMs: number;
  /** The end user owes input now. */
  owed: () => boolean;
  /** The process is over for the end user: no more reminders. */
  over: () => boolean;
  /** Counts what the end user did (input handed in, a link asked for): the quiet time runs from the last. */
  heard?: () => number;
  /** Sends the next reminder. Return the activity's promise itself (no async wrapper): see below. */
  remind: () => Promise<unknown>;
};

/**
 * Reminds the end user after each quiet time while they owe input, until the process is over.
 * KYC's histories replay against this loop: its awaits are the commands' order, so keep them as
 * they are (an extra await would reorder a reminder's timer against the process's own commands).
 */
export async function remindWhileOwed(reminders: Reminders): Promise<void> {
  const { afterMs, owed, over, heard = () => 0, remind } = reminders;
  for (;;) {
    await condition(() => owed() || over());
    if (over()) return;
    const lastHeard = heard();
    const stirred = await condition(() => heard() !== lastHeard || !owed() || over(), afterMs);
    if (over()) return;
    if (!stirred) await remind();
  }
}

const notify = proxyActivities<NotifyActivities>(NOTIFICATION);

/** Counts the next reminder in the process's state and sends it: the activity's own promise, as `remind` returns. */
export function sendReminder(state: { reminders: number }, reminder: Omit<Reminder, 'count'>): Promise<void> {
  state.reminders += 1;
  return notify.sendReminder({ ...reminder, count: state.reminders });
}
