import { condition } from '@temporalio/workflow';

// The reminder loops of ACH and onboarding before reminders-while-owed (lib/reminders.ts), command
// for command so that older runs replay. Remove with the patch, once no such run is open.

/** ACH, started each time the form is awaited: a reminder per quiet time until the form or another stage comes. */
export async function achRemindersBeforePatch(
  afterMs: number,
  awaited: () => boolean,
  remind: () => Promise<unknown>,
): Promise<void> {
  while (!(await condition(() => !awaited(), afterMs))) await remind();
}

/** Onboarding: timed while the user is awaited or under review; a reminder only while awaited. */
export async function onboardingRemindersBeforePatch(legacy: {
  afterMs: number;
  followed: () => boolean;
  owed: () => boolean;
  heard: () => number;
  expired: () => boolean;
  remind: () => Promise<unknown>;
}): Promise<void> {
  while (legacy.followed()) {
    const seen = legacy.heard();
    const moved = await condition(
      () => legacy.heard() !== seen || legacy.expired() || !legacy.followed(),
      legacy.afterMs,
    );
    if (!moved && legacy.owed()) await legacy.remind();
    if (legacy.expired()) return;
  }
}
