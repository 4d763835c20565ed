/** A setting is missing or wrong: its message names the variable and what to do, never its value. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
