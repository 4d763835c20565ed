import { sleep } from '@temporalio/workflow';

/**
 * Starts the end user's time: one timer, `ms` (configuration) from now. Answers whether it has
 * passed; what passing means is the process's to decide (a review under way is awaited, say).
 */
export function startDeadline(ms: number, onPassed?: () => void): () => boolean {
  let passed = false;
  void sleep(ms).then(() => {
    passed = true;
    onPassed?.();
  });
  return () => passed;
}
