import { findTemporalCli } from './cli.js';
import { type DevServer, type DevServerOptions, startDevServer } from './dev-server.js';

/** Finds or builds the CLI, then starts the dev server; progress goes to `log`. */
export async function startEmbeddedTemporal({
  log,
  ...server
}: Omit<DevServerOptions, 'cli'> & { log: (line: string) => void }): Promise<DevServer> {
  const cli = await findTemporalCli({ log });
  log(
    cli.kind === 'binary' ? `Temporal CLI: ${cli.path} (${cli.source})` : `Temporal CLI: SDK download (${cli.reason})`,
  );
  log(`Starting the Temporal dev server (state in ${server.dbFile}, log in ${server.logFile})…`);
  return startDevServer({ ...server, cli });
}
