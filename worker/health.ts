import type { NativeConnection, Worker } from '@temporalio/worker';
import Fastify, { type FastifyInstance } from 'fastify';

// `GET /health` for orchestrators (WORKER_HEALTH_PORT): 200 while the worker polls its task
// queue and Temporal answers; 503 otherwise, with the reason, so that a stuck or draining worker
// is taken out of rotation and a disconnected one restarted.

export async function startWorkerHealth(worker: Worker, connection: NativeConnection, where: { host: string; port: number }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/health', async (_req, reply) => {
    const state = worker.getState();
    let temporal: 'connected' | 'unreachable' = 'connected';
    try {
      await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
    } catch {
      temporal = 'unreachable';
    }
    const healthy = state === 'RUNNING' && temporal === 'connected';
    return reply.code(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'unavailable', state, temporal });
  });
  await app.listen(where);
  return app;
}
