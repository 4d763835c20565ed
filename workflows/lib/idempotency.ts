import { sha256Hex } from './sha256.js';

// Idempotency keys sent to the provider: the SHA-256 of the workflow id and the step, 64 hex
// characters, so that a header can always be sent whatever the business key holds, and reveals
// neither. Computed in workflow code and passed to the activity as input: a retried attempt runs
// with the input recorded when it was scheduled, so it keeps the key it was first sent with (a key
// is no command: changing how keys are made needs no patch).

/** The key of one step of one workflow: the same for every retry and every replay. */
export function idempotencyKey(workflowId: string, step: string): string {
  // JSON keeps the two parts apart: ("a/b", "c") and ("a", "b/c") give different keys.
  return sha256Hex(JSON.stringify([workflowId, step]));
}
