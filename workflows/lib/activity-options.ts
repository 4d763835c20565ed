import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';

// How each kind of activity is retried, named by what it does. Options are not commands: changing
// them changes no history, so running processes take a new preset for every activity they
// schedule after the deploy (one already scheduled keeps the options it was scheduled with).

/** Waits of 1 s, doubling up to a minute. */
const DOUBLING: RetryPolicy = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' };

/**
 * A call that creates or submits something at the provider: bounded, so that a provider in trouble
 * ends the step visibly after about 15 minutes instead of silent retries for ever. Every attempt
 * carries the same idempotency key, so the retries create at most once.
 */
const CREATION_RETRY: RetryPolicy = {
  ...DOUBLING,
  // 1 + 2 + ... + 32 s, then 14 waits of a minute: about 15 minutes between the first and last attempt.
  maximumAttempts: 20,
};

/**
 * PROVIDER_WRITE for a local activity: the worker that runs the workflow task makes the call and
 * records its answer in that task (a wallet's creation). A worker lost mid-call leaves the task to
 * time out and another calls again with the same key, counting attempts from 1: the bound is per
 * worker, the key keeps every attempt to one wallet.
 */
export const PROVIDER_WRITE_IN_TASK: LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: CREATION_RETRY,
  // Waits of the retry policy past the first two (1 and 2 s) are timers in the history, between
  // workflow tasks, rather than held in one task.
  localRetryThreshold: '3 seconds',
};

/** Reads the provider's state. Repeating one is harmless, and every wait is bounded by the stall limit: no attempt limit. */
export const PROVIDER_READ: ActivityOptions = { startToCloseTimeout: '1 minute', retry: DOUBLING };

/** Creates or submits at the provider (CREATION_RETRY): its failure is the step's, visibly. */
export const PROVIDER_WRITE: ActivityOptions = { startToCloseTimeout: '1 minute', retry: CREATION_RETRY };

/**
 * Tells the end user something (a reminder). Retried without limit like a read: the reminder loop
 * awaits it, and a late reminder is better than a process whose reminders stopped.
 */
export const NOTIFICATION: ActivityOptions = PROVIDER_READ;

/** A read that may not hold up the process (the wallet's lookups): a few tries, then the caller goes on. */
export const BOUNDED_LOOKUP: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { ...DOUBLING, maximumAttempts: 6 },
};

/** One poll of the provider (a wallet's transactions): three tries, and the next poll comes anyway. */
export const POLL: ActivityOptions & LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3 },
};

/**
 * A read a person waits on through an update (an onboarding link): a provider in trouble gets 30
 * seconds, then the update fails and can be asked again, instead of holding the caller open.
 */
export const WHILE_A_PERSON_WAITS: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500ms', backoffCoefficient: 2 },
};

/** The claim store's retention sweep: it may delete many claims, so a long attempt, and three of them before the next Schedule's run. */
export const CLAIM_SWEEP: ActivityOptions = { startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 3 } };

/** The claim store's housekeeping (deleting what a process is done with): idempotent, retried. */
export const HOUSEKEEPING: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1s', maximumInterval: '1 minute' },
};
