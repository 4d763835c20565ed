import { readFileSync } from 'node:fs';

/** A file's text, trimmed; undefined when it is missing, unreadable or blank. */
export function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
