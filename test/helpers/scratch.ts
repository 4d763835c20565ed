import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/**
 * Makes fresh folders `payflows-<prefix>-*` in the temporary folder, each removed once the file's
 * tests are done: a file that makes one per case left hundreds behind over a day of runs.
 */
export function scratchDirs(prefix: string): () => string {
  const made: string[] = [];
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `payflows-${prefix}-`));
    made.push(dir);
    return dir;
  };
}
