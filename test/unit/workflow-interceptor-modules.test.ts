import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workflowInterceptorModulesFor } from '../../worker/create-worker.js';

// What a worker bundles with its workflows: the process counters always, the tracing interceptors
// only when it exports traces. The bench bundles through the same choice, so that the flows it
// measures run what a deployed worker runs.

const tracingModule = (modules: string[]) => modules.filter((m) => /tracing-interceptors/.test(m));

describe('the workflow interceptor modules a worker bundles', () => {
  it('leaves the tracing interceptors out for a worker that exports no traces', () => {
    const modules = workflowInterceptorModulesFor({ tracing: false });
    assert.deepEqual(tracingModule(modules), []);
    assert.ok(
      modules.some((m) => /workflows\/interceptors\.[jt]s$/.test(m)),
      modules.join(', '),
    );
  });

  it('bundles them, beside the process counters, for a worker that exports traces', () => {
    const modules = workflowInterceptorModulesFor({ tracing: true });
    assert.equal(tracingModule(modules).length, 1);
    assert.ok(
      modules.some((m) => /workflows\/interceptors\.[jt]s$/.test(m)),
      modules.join(', '),
    );
  });
});
