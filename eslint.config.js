// Lint rules that keep the product honest: no floating promises anywhere, and workflow code
// that stays deterministic (no Node built-ins, no wall clock, no randomness outside the workflow API).
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// A process's edges: its zod schemas and its client. They live beside the workflow, by its name,
// but only its client and the ingress import them at run time (the workflow, as types only).
const WORKFLOW_EDGES = [
  'workflows/**/*.schema.ts',
  'workflows/**/client.ts',
  'workflows/**/*-client.ts',
  'workflows/lib/client-errors.ts',
];
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'dist/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Node words a failed assert.ok (or assert()) that has no message by reading and parsing the
    // test's own source file, synchronously: inside an eventually() retry that stalls the test's
    // process, and with it the worker running in it. A message says what is awaited instead.
    // It sees asserts written inside the eventually(...) call only, not in a callback passed by name.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name='eventually'] CallExpression[arguments.length<2]:matches([callee.type='Identifier'][callee.name='assert'], [callee.object.name='assert'][callee.property.name=/^(ok|strict)$/])",
          message:
            'Inside eventually(), give assert.ok() a message: without one, node reads and parses this file to word each failure, which stalls the worker in this process.',
        },
        {
          // A process that never ends would stall the run until the test's timeout, saying nothing of which.
          selector:
            "CallExpression[callee.property.name='result']:not(CallExpression[callee.name='resultWithin'] > CallExpression)",
          message:
            "Wait for a workflow's result with resultWithin(…, workflowId) (test/helpers/result.ts): a process that never ends then fails this test, naming the workflow.",
        },
      ],
    },
  },
  {
    // Workflow code: everything in workflows/ but a process's edges (its zod schema and its client),
    // which run in backends and the ingress and never enter the workflow bundle. Which file may import
    // which (layers, no circles) is dependency-cruiser's to check (.dependency-cruiser.cjs).
    files: ['workflows/**/*.ts'],
    ignores: WORKFLOW_EDGES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code must be deterministic: Node built-ins belong in activities.',
          })),
          patterns: [
            {
              group: [
                'undici',
                'fastify',
                '**/src/provider/client*',
                '**/activities/*',
                '**/src/sandbox/**',
                '**/src/ingress/**',
              ],
              message:
                'Workflows call the provider through activities (proxyActivities), never directly; only their types may be imported.',
              allowTypeImports: true,
            },
            {
              // Every cached workflow instantiates the bundle's modules again: zod with its schemas
              // would cost about 1 MB of each (docs/capacity.md). Checks are in workflows/<process>/checks.ts.
              group: [
                'zod',
                'zod/*',
                '**/*.schema',
                '**/*.schema.js',
                '**/src/provider/schemas/*',
                '**/src/claims/ref.js',
                '**/client.js',
                '**/*-client.js',
                '**/client-errors.js',
              ],
              message:
                'No zod in workflow code (it is built again for every cached workflow): check with workflows/*/checks.ts, import schemas as types only.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message:
            'Use workflow time through the Temporal API (e.g. sleep, workflowInfo) instead of Date.now in workflows.',
        },
        {
          object: 'Math',
          property: 'random',
          message: 'Use uuid4() or deterministic data from @temporalio/workflow instead of Math.random.',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop from @temporalio/workflow.' },
        { name: 'process', message: 'Workflows receive configuration as input, not from process.env.' },
        { name: 'require', message: 'Workflows import only @temporalio/workflow and pure helpers.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'new Date() without arguments reads the wall clock; pass a timestamp from workflow time.',
        },
      ],
    },
  },
);
