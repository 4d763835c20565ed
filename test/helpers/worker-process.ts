import { type ChildProcess, spawn } from 'node:child_process';

// A worker in a process of its own (`npm run worker`'s entry point), so that a test can kill it
// the way a crash or an OOM kill would: SIGKILL, no goodbye. `output()` is what it printed so far.

export type WorkerProcess = ChildProcess & { output(): string };

/**
 * Starts `entry` (default: `npm run worker`'s) and resolves once it says it is polling. `onSpawn`
 * gets the process as soon as it exists: a supervisor names it then, not once it polls, which can
 * take longer than the next kill.
 */
export async function spawnWorker(
  env: Record<string, string>,
  opts: { entry?: string; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', opts.entry ?? 'worker/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  opts.onSpawn?.(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"worker polling"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code} before starting:\n${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return Object.assign(child, { output: () => output });
}

export function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
