import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createWalletActivities } from '../activities/wallets';
import { type Config, temporalAddress } from '../src/config';
import type { ProviderClient } from '../src/provider/client';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface CreateWorkerOptions {
  config: Config;
  provider: ProviderClient;
  connection?: NativeConnection;
  /** A prebuilt bundle (tests build it once per run); otherwise the workflows are bundled now. */
  workflowBundlePath?: string;
  taskQueue?: string;
  overrides?: Partial<WorkerOptions>;
}

export async function createWorker(opts: CreateWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: temporalAddress(opts.config) }));
  const activities = {
    ...createWalletActivities({ provider: opts.provider, callbackUrl: `${opts.config.ingress.publicUrl}/callbacks` }),
  };
  const worker = await Worker.create({
    connection,
    namespace: opts.config.temporal.namespace,
    taskQueue: opts.taskQueue ?? opts.config.temporal.taskQueue,
    ...(opts.workflowBundlePath ? { workflowBundle: { codePath: opts.workflowBundlePath } } : { workflowsPath }),
    activities,
    ...opts.overrides,
  });
  return { worker, connection };
}
