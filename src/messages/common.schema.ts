import { z } from 'zod';
import { MIN_TIMING_MS, TIMING_DEFAULTS } from '../../workflows/lib/messages.js';

// The zod schemas of what every process shares, for the clients and the ingress. Workflow code
// never imports this module at run time (zod would be built again for every cached workflow):
// workflows/<process>/checks.ts holds its plain checks, which test/unit/checks-agree.test.ts holds to these.

/** Documents and personal values travel by reference (src/claims/ref.ts). */
export { claimRef } from '../claims/ref.js';

const duration = (fallback: number) => z.number().int().min(MIN_TIMING_MS).default(fallback);

/** Durations of a process, in milliseconds: configuration, so that tests can make them short. */
export const timing = z.object({
  pollInitialMs: duration(TIMING_DEFAULTS.pollInitialMs),
  pollMaxMs: duration(TIMING_DEFAULTS.pollMaxMs),
  reminderAfterMs: duration(TIMING_DEFAULTS.reminderAfterMs),
  deadlineMs: duration(TIMING_DEFAULTS.deadlineMs),
  stallAfterMs: duration(TIMING_DEFAULTS.stallAfterMs),
});
