// What in a test file's source says that it needs a server: one list for the unit suite's guard
// (test/unit/unit-needs-no-server.test.ts) and the cluster suite's skipped files
// (test/unit/cluster-suite-files.test.ts).

export type ServerNeed = 'stack' | 'bundle' | 'temporal';

const NEEDS: ReadonlyArray<{ need: ServerNeed; pattern: RegExp; what: string }> = [
  { need: 'stack', pattern: /helpers\/(stack|worker-process|cluster)\.js/, what: 'starts a stack or a worker process' },
  {
    need: 'bundle',
    pattern: /TEST_WORKFLOW_BUNDLE|bundleWorkflowCode|scripts\/replay\.js/,
    what: 'bundles or replays workflows',
  },
  {
    need: 'temporal',
    pattern:
      /TestWorkflowEnvironment|Worker\.create\(|NativeConnection\.connect|Connection\.connect\(|connectClient\(|connectTemporal\(|createWorker\(/,
    what: 'needs Temporal',
  },
];

/** What `source` needs, of `kinds` (all by default), each said as the guard's message says it. */
export function serverNeeds(source: string, kinds: readonly ServerNeed[] = ['stack', 'bundle', 'temporal']): string[] {
  return NEEDS.filter(({ need, pattern }) => kinds.includes(need) && pattern.test(source)).map(({ what }) => what);
}
