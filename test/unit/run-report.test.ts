import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowHandle } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { explainedBy, runReport } from '../helpers/run-report.js';

// A wait that gives up on a run says what the run was doing: in CI the server is gone afterwards.

const { EventType, PendingActivityState } = proto.temporal.api.enums.v1;
const at = (seconds: number) => msToTs(seconds * 1000);

/** A handle over a run that started at 100 s and waits on its third attempt to read the profile. */
const stuck = {
  workflowId: 'kyc:AC_STUCK',
  describe: async () => ({
    status: { name: 'RUNNING' },
    historyLength: 30,
    raw: {
      pendingActivities: [
        {
          activityType: { name: 'readProfile' },
          state: PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED,
          attempt: 3,
          lastFailure: { message: 'provider readProfile: 503' },
        },
      ],
    },
  }),
  fetchHistory: async () => ({
    events: [
      { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, eventTime: at(100) },
      ...Array.from({ length: 26 }, () => ({ eventType: EventType.EVENT_TYPE_TIMER_FIRED, eventTime: at(101) })),
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, eventTime: at(112) },
      {
        eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
        eventTime: at(113),
        activityTaskScheduledEventAttributes: { activityType: { name: 'readProfile' } },
      },
      {
        eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
        eventTime: at(114),
        workflowTaskFailedEventAttributes: { failure: { message: 'nondeterminism' } },
      },
    ],
  }),
} as unknown as WorkflowHandle;

describe('a run report', () => {
  it('says the status, the pending activities, the timed-out workflow tasks and the last events', async () => {
    const lines = (await runReport(stuck)).split('\n');
    assert.equal(lines[0], 'run kyc:AC_STUCK: RUNNING, 30 events');
    assert.equal(lines[1], '  pending readProfile (SCHEDULED), attempt 3, last failure: provider readProfile: 503');
    assert.equal(lines[2], '  workflow tasks timed out: 1');
    assert.equal(lines[3], '  … 5 events before these:');
    assert.equal(lines.length, 4 + 25);
    assert.deepEqual(lines.slice(-3), [
      '  +12.0 s WORKFLOW_TASK_TIMED_OUT',
      '  +13.0 s ACTIVITY_TASK_SCHEDULED readProfile',
      '  +14.0 s WORKFLOW_TASK_FAILED: nondeterminism',
    ]);
  });

  it('adds the report to a wait that fails, and leaves one that succeeds alone', async () => {
    await assert.rejects(explainedBy(stuck, Promise.reject(new Error('the SSN is awaited'))), (err: Error) => {
      assert.match(err.message, /^the SSN is awaited\nrun kyc:AC_STUCK: RUNNING/);
      return true;
    });
    assert.equal(await explainedBy(stuck, Promise.resolve(7)), 7);
  });

  it('a run it cannot read still leaves the failure its own message', async () => {
    const gone = { workflowId: 'kyc:AC_GONE', describe: () => Promise.reject(new Error('not found')) };
    assert.equal(await runReport(gone as unknown as WorkflowHandle), 'run kyc:AC_GONE: no report (not found)');
  });
});
