// A test waits for a process's result with a bound: the processes under test end in seconds, so
// one that has not ended after RESULT_WAIT_MS is hung (an outcome that is never reached, a signal
// that is lost), and the waiting test fails naming the workflow instead of stalling the run.

export const RESULT_WAIT_MS = 2 * 60_000;

/** The result, or a failure naming the workflow once `ms` have passed without one. */
export async function resultWithin<T>(result: Promise<T>, workflowId: string, ms = RESULT_WAIT_MS): Promise<T> {
  // Made here, so that its stack shows the test's line that waited.
  const hung = new Error(
    `workflow ${workflowId} gave no result within ${ms / 1000} s: it is still running; its history shows what it waits on (the Web UI, or temporal workflow show -w '${workflowId}')`,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(hung), ms)));
  try {
    return await Promise.race([result, late]);
  } finally {
    clearTimeout(timer);
  }
}
