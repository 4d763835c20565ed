import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bundleFacts,
  bundleWorkflows,
  describeBundle,
  WORKFLOW_BUNDLE_BUDGET_BYTES,
} from '../../scripts/lib/workflow-bundle.js';
import { untracedWorkflowInterceptorModules, workflowInterceptorModules } from '../../worker/create-worker.js';

// Every cached workflow instantiates its bundle's modules again (docs/capacity.md): the bundle holds
// no zod and no provider schema, and stays within its budget (WORKFLOW_BUNDLE_BUDGET_BYTES).

describe('the workflow bundle', () => {
  for (const [name, interceptors, budget] of [
    ['without tracing', untracedWorkflowInterceptorModules, WORKFLOW_BUNDLE_BUDGET_BYTES.untraced],
    ['with tracing', workflowInterceptorModules, WORKFLOW_BUNDLE_BUDGET_BYTES.traced],
  ] as const) {
    it(`${name}: holds no zod and no schema module, and its code is within the budget`, async () => {
      const facts = bundleFacts(await bundleWorkflows(interceptors));
      assert.ok(
        facts.modules.includes('./workflows/wallet/workflow.ts'),
        `the bundle's modules are read: ${facts.modules.length}`,
      );
      assert.deepEqual(facts.forbidden, [], 'modules that bring zod into workflow code');
      assert.ok(facts.codeBytes <= budget, describeBundle(facts, budget));
    });
  }

  it('a bundle with zod or a process client in it is caught', () => {
    const code = [
      './node_modules/zod/v4/classic/schemas.js',
      './workflows/kyc/messages.schema.ts',
      './workflows/kyc/client.ts',
      './workflows/wallet/follower-client.ts',
      './workflows/lib/process-client.ts',
      './workflows/kyc/checks.ts',
    ]
      .map((module) => `/***/ "${module}"\n`)
      .join('');
    assert.deepEqual(bundleFacts(code).forbidden, [
      './node_modules/zod/v4/classic/schemas.js',
      './workflows/kyc/messages.schema.ts',
      './workflows/kyc/client.ts',
      './workflows/wallet/follower-client.ts',
      './workflows/lib/process-client.ts',
    ]);
  });
});
