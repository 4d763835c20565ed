import { Connection } from '@temporalio/client';
import { claimStoreFromConfig } from '../../../src/claims/from-config.js';
import { createClients } from '../../../src/client/index.js';
import { loadConfig } from '../../../src/config.js';
import { providerFromConfig } from '../../../src/provider/from-config.js';
import { clientFor } from '../../../src/temporal/connection.js';
import type { ProcessClientOptions, WithClaims, WithTiming } from '../../../workflows/lib/process-client.js';
import type { TimingInput } from '../../../workflows/lib/messages.js';
import { operatorCalls } from '../../fixtures/operator.js';
import { historyWriter } from '../history-file.js';

// What every process's recorded stories share: the stack's configuration, its Temporal client and
// the provider, the sandbox's operator routes, and the history writer.

/** A process's recorded stories by name; each drives one run and saves its history. */
export type Stories = Record<string, () => Promise<void>>;

export const config = loadConfig();
export const save = await historyWriter(config);
export const connection = await Connection.connect(config.temporal.connection);
export const client = clientFor(connection, config);
export const provider = providerFromConfig(config);
export const taskQueue = config.temporal.taskQueue;
export const MASTER = config.provider.accountId;
export const { op } = operatorCalls(config.provider.baseUrl);
export const sandbox = { provider, op };
const claims = claimStoreFromConfig(config);

/** Short timings, so that every story ends within seconds. */
const quick: TimingInput = { pollInitialMs: 200, pollMaxMs: 1_000 };
export const clients = createClients(client, config, claims, quick);

/** A process client of the stack with the short timings, `timing` over them, and `more` options. */
export const quickClient = <C, More extends object = object>(
  Process: new (temporal: typeof client, opts: ProcessClientOptions & WithClaims & WithTiming & More) => C,
  timing: TimingInput = {},
  more = {} as More,
) => new Process(client, { taskQueue, claims, timing: { ...quick, ...timing }, ...more });

export function expect(what: string, actual: unknown, wanted: unknown): void {
  if (actual !== wanted) throw new Error(`${what}: ${String(actual)}, not ${String(wanted)}`);
}

/** Runs `action` while the provider fails the next request to `route` with a 500 it calls not transient; answers its error. */
export async function refusedOnce(route: string, action: () => Promise<unknown>): Promise<unknown> {
  await op('PUT', '/sandbox/knobs/faults', { route, error: 'server', failNext: 1 });
  try {
    await action();
    return null;
  } catch (err) {
    return err;
  } finally {
    await op('DELETE', '/sandbox/knobs/faults');
  }
}
