import { findTemporalCli } from './cli.js';
import { type DevServer, startDevServer } from './dev-server.js';

/** Finds or builds the CLI, then starts the dev server; progress goes to `log`. */
export async function startEmbeddedTemporal(opts: {
  port: number;
  uiPort: number;
  dbFile: string;
  logFile: string;
  namespace: string;
  uiCodecEndpoint?: string;
  log: (line: string) => void;
}): Promise<DevServer> {
  const cli = await findTemporalCli({ log: opts.log });
  opts.log(
    cli.kind === 'binary' ? `Temporal CLI: ${cli.path} (${cli.source})` : `Temporal CLI: SDK download (${cli.reason})`,
  );
  opts.log(`Starting the Temporal dev server (state in ${opts.dbFile}, log in ${opts.logFile})…`);
  return startDevServer({
    cli,
    port: opts.port,
    uiPort: opts.uiPort,
    dbFile: opts.dbFile,
    logFile: opts.logFile,
    namespace: opts.namespace,
    uiCodecEndpoint: opts.uiCodecEndpoint,
  });
}
