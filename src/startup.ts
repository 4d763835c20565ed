import { ConfigError } from './config.js';
import { TemporalUnreachableError } from './temporal/connection.js';

// How an entry point ends when it cannot start: one paragraph on stderr (no stack trace: nothing in
// it is a bug), and a sysexits.h code that an orchestrator or a script can tell apart.

/** A setting is missing or wrong: fix the configuration, a restart alone will not help. */
export const EX_CONFIG = 78;
/** Temporal did not take the connection: a restart may, once it is up or reachable. */
export const EX_UNAVAILABLE = 69;

/** `step`'s result; a ConfigError ends the process with EX_CONFIG, a TemporalUnreachableError with EX_UNAVAILABLE. */
export async function refusesToStart<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ConfigError) stop(err, EX_CONFIG);
    if (err instanceof TemporalUnreachableError) stop(err, EX_UNAVAILABLE);
    throw err;
  }
}

export function stop(err: Error, code: number): never {
  process.stderr.write(`${err.message}\n`);
  process.exit(code);
}
