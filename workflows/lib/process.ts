import { ApplicationFailure, condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { ProcessStatus, WaitingOnEndUser } from '../../src/temporal/search-attributes.js';
import { type Check, InputProblem } from './input-check.js';
import { type FieldFailureDetails, INPUT_REJECTED, refreshSignal, type Timing } from './messages.js';

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
    return rejectInput(err.field, err.message);
  }
}

/**
 * Checks a workflow's input as the run starts. A start that bypasses the client and sends bad
 * input fails the run cleanly (INPUT_REJECTED, not retried), not its tasks forever.
 */
export const validateStart: <T>(check: Check<T>, input: unknown) => T = validate;

/** Rejects an update that is valid in shape but not now (the process is elsewhere). */
export function rejectInput(field: string, message: string): never {
  throw ApplicationFailure.create({
    type: INPUT_REJECTED,
    message: `${field}: ${message}`,
    details: [{ field } satisfies FieldFailureDetails],
    nonRetryable: true,
  });
}

/** Where the process stands, for the UI's list: its stage and whether it waits on the end user. */
export function showStatus(status: string, { waitingOnEndUser }: { waitingOnEndUser: boolean }): void {
  upsertSearchAttributes([
    { key: ProcessStatus, value: status },
    { key: WaitingOnEndUser, value: waitingOnEndUser },
  ]);
}

/** Moves the process to a stage and shows it (one search-attribute command each time). */
export function enterStage<Stage extends string>(
  state: { stage: Stage },
  stage: Stage,
  shown: { waitingOnEndUser: boolean },
): void {
  state.stage = stage;
  showStatus(stage, shown);
}

/** What pollUntil looks at, until when, and what it says it waited for if the provider stalls. */
export interface PollUntil<T> {
  /** One look at the provider (an activity). */
  read: () => Promise<T>;
  /** The provider has moved on: the look is the answer. */
  done: (seen: T) => boolean;
  /** Something else ends the wait (input arrived, the deadline passed); the last look is the answer. */
  wake?: () => boolean;
  /** What the process waits for, in the stall's message. */
  what?: string;
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
  return async function pollUntil<T>({
    read,
    done,
    wake = () => false,
    what = 'the provider to move on',
  }: PollUntil<T>): Promise<T> {
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
