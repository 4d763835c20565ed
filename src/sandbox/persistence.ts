import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxState } from './store.js';

// State survives a restart when a state file is configured: written whole (tmp file, then
// rename, so a crash never leaves half a file) shortly after each change.

export function loadState(file: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SandboxState;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`SANDBOX_STATE_FILE ${file} could not be read: ${(err as Error).message}. Move it aside to start empty.`);
  }
}

export function stateWriter(file: string, state: SandboxState, delayMs = 50) {
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Secrets and SSNs live in it: readable by its owner alone, whatever the umask.
    writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
    chmodSync(`${file}.tmp`, 0o600);
    renameSync(`${file}.tmp`, file);
  };
  return {
    changed: () => {
      timer ??= setTimeout(flush, delayMs);
    },
    flush: () => {
      if (timer) clearTimeout(timer);
      flush();
    },
  };
}
