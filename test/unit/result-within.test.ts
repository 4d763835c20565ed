import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultWithin } from '../helpers/result.js';

describe('resultWithin: the bounded wait on a workflow result', () => {
  it('a result that never comes fails within the bound, naming the workflow', async () => {
    const started = Date.now();
    await assert.rejects(resultWithin(new Promise(() => {}), 'kyc:AC_HUNG', 200), (e: Error) => {
      assert.match(e.message, /^workflow kyc:AC_HUNG gave no result within 0.2 s/);
      assert.match(e.stack ?? '', /result-within\.test\.ts/, "the stack shows the test's line that waited");
      return true;
    });
    assert.ok(Date.now() - started < 2_000, 'failed at the bound, not later');
  });

  it('passes a result, or the failure of the workflow, through as it is', async () => {
    assert.deepEqual(await resultWithin(Promise.resolve({ outcome: 'APPROVED' }), 'kyc:AC_1', 200), {
      outcome: 'APPROVED',
    });
    const failure = new Error('workflow failed');
    await assert.rejects(resultWithin(Promise.reject(failure), 'kyc:AC_2', 200), (e) => e === failure);
  });
});
