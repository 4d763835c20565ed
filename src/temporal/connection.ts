import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.js';
import { clientTracingInterceptors } from '../telemetry/client-tracing.js';
import { codecFromConfig, encryptingDataConverter } from './codec.js';

/** A client of this deployment: the configured server, namespace and payload encryption. */
export async function connectClient(config: Config): Promise<Client> {
  const connection = await Connection.connect(config.temporal.connection);
  return clientFor(connection, config);
}

export function clientFor(connection: Connection, config: Config): Client {
  return new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: encryptingDataConverter(codecFromConfig(config.payloads)),
    interceptors: clientTracingInterceptors(),
  });
}
