import { randomUUID } from 'node:crypto';

// The bench's workers run versioned, as deployed (docs/deploying.md): one build id for the whole
// run, on a deployment of the bench's own server that the first worker makes current. Without a
// build id, a worker pointed at a server it did not start refuses to start (worker/build-id.ts).
const buildId = `bench-${randomUUID().slice(0, 8)}`;

export const benchVersioningEnv = {
  WORKER_DEPLOYMENT_NAME: 'payflows-bench',
  WORKER_BUILD_ID: buildId,
  WORKER_VERSION_BOOTSTRAP: 'on',
} as const;
