import { type Client, WorkflowNotFoundError } from '@temporalio/client';

/**
 * Terminates the drill's runs; answers those Temporal refused. A run that has ended is not found:
 * nothing to do. Any other refusal (a Temporal that authorizes lets only an admin terminate) leaves
 * runs going, and is answered so that it can be said, never swallowed.
 */
export async function terminateRuns(
  client: Client,
  workflowIds: string[],
  reason: string,
): Promise<Array<{ workflowId: string; message: string }>> {
  const results = await Promise.allSettled(workflowIds.map((id) => client.workflow.getHandle(id).terminate(reason)));
  return results.flatMap((r, i) =>
    r.status === 'rejected' && !(r.reason instanceof WorkflowNotFoundError)
      ? [{ workflowId: workflowIds[i]!, message: (r.reason as Error).message }]
      : [],
  );
}
