import { ApplicationFailure, condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { ProcessStatus, WaitingOnEndUser } from '../../src/temporal/search-attributes.js';
import { type Check, InputProblem } from './check.js';
import { INPUT_REJECTED, refreshSignal, type Timing } from './messages.js';

// Building blocks of every process workflow.

/**
 * Checks an input or an update's argument with its plain check (workflows/<process>/checks.ts); bad input
 * rejects the update (or fails the run) and changes nothing.
 */
export function validate<T>(check: Check<T>, input: unknown): T {
  try {
    return check(input, '');
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    throw ApplicationFailure.create({
      type: INPUT_REJECTED,
      message: `${err.field}: ${err.message}`,
      details: [{ field: err.field }],
      nonRetryable: true,
    });
  }
}

/** Rejects an update that is valid in shape but not now (the process is elsewhere). */
export function rejectInput(field: string, message: string): never {
  throw ApplicationFailure.create({
    type: INPUT_REJECTED,
    message: `${field}: ${message}`,
    details: [{ field }],
    nonRetryable: true,
  });
}

/** Where the process stands, for the UI's list: its stage and whether it waits on the end user. */
export function showStatus(status: string, waitingOnEndUser: boolean): void {
  upsertSearchAttributes([
    { key: ProcessStatus, value: status },
    { key: WaitingOnEndUser, value: waitingOnEndUser },
  ]);
}

/** Moves the process to a stage and shows it (one search-attribute command each time). */
export function enterStage<Stage extends string>(
  state: { stage: Stage },
  stage: Stage,
  waitingOnEndUser: boolean,
): void {
  state.stage = stage;
  showStatus(stage, waitingOnEndUser);
}

/**
 * Polls the provider with backoff until `done` says so: every wait on the provider also polls, so
 * a lost callback or a provider that sends none delays the process but never strands it. The
 * refresh signal and `wake` cut a wait short.
 */
export function pollProvider(timing: Timing) {
  let refresh = false;
  setHandler(refreshSignal, () => {
    refresh = true;
  });
  return async function pollUntil<T>(
    read: () => Promise<T>,
    done: (seen: T) => boolean,
    wake: () => boolean = () => false,
    what = 'the provider to move on',
  ): Promise<T> {
    let delay = timing.pollInitialMs;
    let waited = 0;
    for (;;) {
      // Cleared before the look, so that a refresh arriving during it still counts.
      refresh = false;
      const seen = await read();
      if (done(seen) || wake()) return seen;
      // A provider that never moves would make the history grow until Temporal ends the run:
      // better to fail with a message an operator can act on.
      if (waited >= timing.stallAfterMs) {
        throw ApplicationFailure.create({
          type: 'ProviderStalled',
          nonRetryable: true,
          message: `waited ${Math.round(waited / 86_400_000)} days for ${what}; ask the provider's support, then start the process again`,
        });
      }
      await condition(() => refresh || wake(), delay);
      waited += delay;
      delay = Math.min(delay * 2, timing.pollMaxMs);
    }
  };
}
