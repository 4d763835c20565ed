import { sha256Hex } from './sha256.js';

// Idempotency keys sent to the provider. A key is the SHA-256 of the workflow id and the step,
// 64 hex characters: fixed length and plain ASCII whatever the business key holds (a wallet name
// with a newline or non-Latin-1 characters once made the header unsendable, and the refusal was
// retried for ever), and it reveals neither.
//
// Computed in workflow code and passed to the activity as input, never hashed inside an
// activity: a retried attempt runs with the input recorded when the workflow scheduled it, so
// an attempt in flight across a deploy keeps the key it was first sent with. A changed key
// changes only an activity's input, not a command, so no patch is needed; a workflow that
// scheduled a creation before the change retries it with its old key.

/** The key of one step of one workflow: the same for every retry and every replay. */
export function idempotencyKey(workflowId: string, step: string): string {
  // JSON keeps the two parts apart: ("a/b", "c") and ("a", "b/c") give different keys.
  return sha256Hex(JSON.stringify([workflowId, step]));
}
