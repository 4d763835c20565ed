import { OTHER_FILE_SECONDS } from './test-order.js';

// How a suite's files that reach a server share processes. Each file in a process of its own cost
// about 4.6 s of CPU before its first test (tsx, the helpers' imports, the first stack), for each of
// about 75 files, in a CI whose cores are busy throughout. So the files run in lanes instead,
// TEST_CONCURRENCY at once: a lane is a sequence of processes, most files of a lane one after
// another in one process (unit-in-one-process.ts, as `npm run test:unit` runs its files), those
// OWN_PROCESS names in one each. The files of a lane are chosen by their expected time in the suite
// (test-order.ts), so that the lanes end together.

/**
 * Files that change what the process holds for every file after them: they install the Temporal
 * Runtime with options of their own (it is installed once per process) or register a tracer
 * provider, which is global. Each runs in a process of its own. test/unit/test-lanes.test.ts finds
 * every file that does either and holds this list to it.
 */
export const OWN_PROCESS = [
  'test/integration/preload-modules.test.ts',
  'test/integration/prometheus.test.ts',
  'test/integration/replay.test.ts',
  'test/integration/trace-scope.test.ts',
  'test/integration/tracing.test.ts',
  'test/integration/worker-metrics.test.ts',
  'test/integration/workflow-branches.test.ts',
  'test/cluster/worker-versioning.test.ts',
];

/** One process of a lane: the files it runs, one after another; `own` when it is one OWN_PROCESS file. */
export type LaneProcess = { files: string[]; own: boolean };

/**
 * The files split into `count` lanes, each a list of processes run one after another. The files go,
 * longest first, each to the lane with the least expected time so far; in a lane, its OWN_PROCESS
 * files come first, a process each, then the others in one process, in the order they were given
 * to the lane. Every file is in exactly one process.
 */
export function planLanes(
  files: readonly string[],
  count: number,
  opts: { ownProcess?: readonly string[]; seconds?: (file: string) => number } = {},
): LaneProcess[][] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`a suite runs its files in 1 lane or more; got ${count}`);
  const ownProcess = opts.ownProcess ?? OWN_PROCESS;
  const seconds = opts.seconds ?? (() => OTHER_FILE_SECONDS);
  const isOwn = (file: string) => ownProcess.some((o) => file === o || file.endsWith(`/${o}`));
  // A stable sort: files of the same expected time keep their order.
  const ordered = [...files].sort((a, b) => seconds(b) - seconds(a));
  const lanes = Array.from({ length: count }, () => ({ files: [] as string[], seconds: 0 }));
  for (const file of ordered) {
    const lane = lanes.reduce((least, l) => (l.seconds < least.seconds ? l : least));
    lane.files.push(file);
    lane.seconds += seconds(file);
  }
  return lanes
    .map(({ files: laneFiles }) => {
      const shared = laneFiles.filter((f) => !isOwn(f));
      return [
        ...laneFiles.filter(isOwn).map((f) => ({ files: [f], own: true })),
        ...(shared.length ? [{ files: shared, own: false }] : []),
      ];
    })
    .filter((lane) => lane.length > 0);
}
