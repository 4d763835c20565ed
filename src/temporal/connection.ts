import { Client, Connection } from '@temporalio/client';
import { type Config, temporalAddress } from '../config';

export async function connectClient(config: Config): Promise<Client> {
  const connection = await Connection.connect({ address: temporalAddress(config) });
  return new Client({ connection, namespace: config.temporal.namespace });
}
