import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { allSearchAttributes, searchAttributeCliArgs } from './search-attributes.js';
import type { CliLocation } from './cli.js';

// The Temporal dev server as a child process this program owns: started with the workflows' search
// attributes and dynamic config, awaited with a real health check, and stopped cleanly.

/**
 * Updates, update-with-start (multi-operation) and async-accepted updates; Worker Deployments
 * (docs/deploying.md: on by default in the server, said here as in deploy/temporal/dynamicconfig.yaml),
 * with room for the many task queues a test run's workers register under one version (100 by default).
 */
export const DYNAMIC_CONFIG = [
  'frontend.enableUpdateWorkflowExecution=true',
  'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
  'frontend.enableExecuteMultiOperation=true',
  'system.enableDeploymentVersions=true',
  'frontend.workerVersioningWorkflowAPIs=true',
  'matching.maxTaskQueuesInDeploymentVersion=2000',
];

export interface DevServerOptions {
  cli: CliLocation;
  ip?: string;
  port: number;
  uiPort: number;
  dbFile: string;
  namespace?: string;
  /** Where the server's own log goes; it is noisy, so not to the console. */
  logFile: string;
  /** The codec server the Web UI calls to show encrypted payloads decoded. */
  uiCodecEndpoint?: string;
  readyTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  /** The server's process (the benchmarks read its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  mkdirSync(dirname(opts.dbFile), { recursive: true });
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const address = `${ip}:${opts.port}`;
  const uiUrl = `http://${ip}:${opts.uiPort}`;
  const extraArgs = [
    ...DYNAMIC_CONFIG.flatMap((v) => ['--dynamic-config-value', v]),
    ...(opts.uiCodecEndpoint ? ['--ui-codec-endpoint', opts.uiCodecEndpoint] : []),
  ];

  if (opts.cli.kind === 'sdk-download') {
    // Last resort for machines with internet: the SDK downloads and runs the CLI itself.
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        ip,
        port: opts.port,
        ui: true,
        uiPort: opts.uiPort,
        dbFilename: opts.dbFile,
        namespace,
        searchAttributes: allSearchAttributes,
        extraArgs,
      },
    });
    // The SDK starts this server itself and does not say its process.
    return { address, uiUrl, pid: undefined, stop: () => env.teardown() };
  }

  const flags = {
    ip,
    port: opts.port,
    'ui-port': opts.uiPort,
    'db-filename': opts.dbFile,
    namespace,
    'log-level': 'warn',
  };
  const args = [
    'server',
    'start-dev',
    ...Object.entries(flags).flatMap(([flag, value]) => [`--${flag}`, String(value)]),
    ...searchAttributeCliArgs(),
    ...extraArgs,
  ];
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn(opts.cli.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited: { code: number | null; signal: string | null } | undefined;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  // If this process dies without stopping the server, take the server with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  try {
    await waitUntilServing(address, namespace, opts.readyTimeoutMs ?? 180_000, () => exited, opts.logFile);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return {
    address,
    uiUrl,
    pid: child.pid,
    async stop() {
      process.removeListener('exit', killOnExit);
      await stopChild(child);
      log.end();
    },
  };
}

/**
 * Polls until the frontend answers for the namespace. The SDK's built-in wait gives up after 5 s,
 * too short for a first start on two busy cores.
 */
async function waitUntilServing(
  address: string,
  namespace: string,
  timeoutMs: number,
  exited: () => { code: number | null; signal: string | null } | undefined,
  logFile: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const ex = exited();
    if (ex)
      throw new Error(
        `the Temporal dev server exited during start-up (code ${ex.code}, signal ${ex.signal}); see ${logFile}`,
      );
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 2_000 });
      await connection.withDeadline(Date.now() + 3_000, () =>
        connection!.workflowService.describeNamespace({ namespace }),
      );
      return;
    } catch (err) {
      lastError = err;
    } finally {
      await connection?.close().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `the Temporal server at ${address} was not serving namespace ${namespace} after ${timeoutMs / 1000} s: ${(lastError as Error)?.message}`,
  );
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}
