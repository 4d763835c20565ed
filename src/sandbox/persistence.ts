import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxState } from './store.js';

// State survives a restart in the state file, written whole (tmp file, then rename) shortly after
// each change. It holds secret keys and SSNs: its owner's only (0600, in a folder made 0700).

const OWNER_ONLY = 0o600;

export function loadState(file: string): SandboxState | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    // Tightened at once, not only at the next write: files of earlier versions were 0644.
    chmodSync(file, OWNER_ONLY);
    return JSON.parse(text) as SandboxState;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(
      `SANDBOX_STATE_FILE ${file} could not be read: ${(err as Error).message}. Move it aside to start empty.`,
    );
  }
}

export function stateWriter(file: string, state: SandboxState, delayMs = 50) {
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // The mode of open() applies only to a new file: a leftover tmp file is tightened explicitly.
    const fd = openSync(`${file}.tmp`, 'w', OWNER_ONLY);
    try {
      fchmodSync(fd, OWNER_ONLY);
      writeSync(fd, JSON.stringify(state));
    } finally {
      closeSync(fd);
    }
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
