import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';

// What a run was doing when a test gave up waiting on it, for the failure's message: in CI the
// server is gone once the suite ends, and with it the history that would have told.

const { EventType, PendingActivityState } = proto.temporal.api.enums.v1;

/** How many of the history's last events the report lists. */
const LAST_EVENTS = 25;

const name = (table: Record<number, string>, value: number | null | undefined, prefix: string) =>
  (table[value ?? 0] ?? String(value)).replace(prefix, '');

/** What an event says that a reader needs: which activity, which failure. */
function detail(event: proto.temporal.api.history.v1.IHistoryEvent): string {
  const activity = event.activityTaskScheduledEventAttributes?.activityType?.name;
  const failure =
    event.activityTaskFailedEventAttributes?.failure?.message ??
    event.workflowTaskFailedEventAttributes?.failure?.message;
  return activity ? ` ${activity}` : failure ? `: ${failure}` : '';
}

/** The run's status, its pending activities with their attempts and last failures, and its last events with the seconds since it started. */
export async function runReport(handle: WorkflowHandle): Promise<string> {
  try {
    const { status, historyLength, raw } = await handle.describe();
    const lines = [`run ${handle.workflowId}: ${status.name}, ${historyLength} events`];
    for (const activity of raw.pendingActivities ?? []) {
      const state = name(PendingActivityState, activity.state, 'PENDING_ACTIVITY_STATE_');
      const failure = activity.lastFailure?.message ? `, last failure: ${activity.lastFailure.message}` : '';
      lines.push(`  pending ${activity.activityType?.name} (${state}), attempt ${activity.attempt}${failure}`);
    }
    const events = (await handle.fetchHistory()).events ?? [];
    const started = events.length ? tsToMs(events[0]!.eventTime) : 0;
    const timedOut = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT).length;
    if (timedOut) lines.push(`  workflow tasks timed out: ${timedOut}`);
    if (events.length > LAST_EVENTS) lines.push(`  … ${events.length - LAST_EVENTS} events before these:`);
    for (const event of events.slice(-LAST_EVENTS)) {
      const at = ((tsToMs(event.eventTime) - started) / 1000).toFixed(1);
      lines.push(`  +${at} s ${name(EventType, event.eventType, 'EVENT_TYPE_')}${detail(event)}`);
    }
    return lines.join('\n');
  } catch (err) {
    return `run ${handle.workflowId}: no report (${(err as Error).message})`;
  }
}

/** `waiting`, or its failure with the run's report added to the message. */
export async function explainedBy<T>(handle: WorkflowHandle, waiting: Promise<T>): Promise<T> {
  try {
    return await waiting;
  } catch (err) {
    if (err instanceof Error) err.message = `${err.message}\n${await runReport(handle)}`;
    throw err;
  }
}
