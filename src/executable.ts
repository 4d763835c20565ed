import { accessSync, constants } from 'node:fs';

/** Whether `path` is a file this process may run: a cached build, or one found on PATH. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
