import type { NativeConnection, Worker } from '@temporalio/worker';
import Fastify, { type FastifyInstance } from 'fastify';

// `GET /health` for orchestrators (WORKER_HEALTH_PORT): 200 while the worker polls its task
// queue and Temporal answers; 503 otherwise, with the reason, so that a stuck or draining worker
// is taken out of rotation and a disconnected one restarted.

export async function startWorkerHealth(
  worker: Worker,
  connection: NativeConnection,
  where: { host: string; port: number },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/health', async (_req, reply) => {
    const state = worker.getState();
    const temporal = (await temporalAnswers(connection)) ? 'connected' : 'unreachable';
    const healthy = state === 'RUNNING' && temporal === 'connected';
    return reply.code(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'unavailable', state, temporal });
  });
  await app.listen(where);
  return app;
}

const TEMPORAL_CHECK_MS = 2_000;

/**
 * Temporal answers a cheap call within TEMPORAL_CHECK_MS. The connection's deadline bounds each
 * attempt, not its retries, so a timer bounds the whole: an orchestrator's probe hears the reason.
 */
async function temporalAnswers(connection: NativeConnection): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), TEMPORAL_CHECK_MS)));
  const call = connection
    .withDeadline(Date.now() + TEMPORAL_CHECK_MS, () => connection.workflowService.getSystemInfo({}))
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}
