import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { request } from 'undici';

// Waiting for a started OS process to be ready, and stopping it: what the cluster's pieces
// (PostgreSQL, the Temporal server, Prometheus, the product's processes) do alike; and waiting for
// a process's state, as the demo and the history recorder do.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `signal` unless the child has ended, SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 40_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Sends SIGTERM to `pid` (a negative one: its process group) unless it has exited meanwhile. */
export function terminate(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // exited meanwhile
  }
}

/**
 * Asks `ready` every `everyMs` until it says yes. Throws what `failed` answers (a child that
 * exited), `timedOut()` past `timeoutMs`, or the reason of `signal` once it aborts.
 */
export async function pollUntil(
  ready: () => boolean | Promise<boolean>,
  opts: {
    timeoutMs: number;
    everyMs: number;
    timedOut: () => Error;
    failed?: () => Error | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    opts.signal?.throwIfAborted();
    if (await ready()) return;
    const failure = opts.failed?.();
    if (failure) throw failure;
    if (Date.now() > deadline) throw opts.timedOut();
    await sleep(opts.everyMs);
  }
}

/** Whether `url` answers with a status that `ok` takes; false while nothing listens there. */
export async function answers(url: string, ok: (status: number) => boolean): Promise<boolean> {
  try {
    const res = await request(url);
    await res.body.dump();
    return ok(res.statusCode);
  } catch {
    return false;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Reads every 100 ms until `done` holds of what `read` answers; answers that, or throws after a minute naming `what`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value: T | undefined;
  const timedOut = () => new Error(`timed out waiting for ${what}`);
  await pollUntil(async () => done((value = await read())), { timeoutMs: 60_000, everyMs: 100, timedOut });
  return value!;
}

/** Runs `step`; should it fail, `stop` stops what was started before the failure goes on. */
export async function stopOnFailure<T>(stop: () => Promise<unknown>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await stop();
    throw err;
  }
}
