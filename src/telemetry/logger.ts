import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/common';
import { type DestinationStream, type Logger, pino } from 'pino';
import { scrub, scrubString } from './redact.js';

// One JSON logger per process (pino, as fastify), redacting every line, and an adapter that routes
// the Temporal SDK's logs into it.

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type Level = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  /** The process: worker, ingress, sandbox, codec-server, dev. */
  service: string;
  level?: Level;
  /** Where lines go; default stdout. `npm run dev` passes a pretty-printing stream for people. */
  destination?: DestinationStream;
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        // Serialised here, before the scrub: fastify hands over raw request and reply objects.
        log: (fields) => scrub(serialise(fields)) as Record<string, unknown>,
      },
      // The message itself can quote an input (a provider's error message, say).
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === 'string' ? scrubString(a) : a)) as Parameters<typeof method>;
          method.apply(this, cleaned);
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

const SERIALISERS: Record<string, (value: never) => unknown> = {
  req: pino.stdSerializers.req,
  res: pino.stdSerializers.res,
  err: pino.stdSerializers.err,
};

function serialise(fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  for (const [key, serialiser] of Object.entries(SERIALISERS)) {
    if (out[key] && typeof out[key] === 'object') out[key] = serialiser(out[key] as never);
  }
  return out;
}

const TEMPORAL_LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** The SDK's Logger interface over a pino logger: for Runtime.install({ logger }). */
export function temporalLogger(logger: Logger): TemporalLogger {
  const at = (level: LogLevel) => (message: string, meta?: LogMetadata) =>
    logger[TEMPORAL_LEVELS[level]]({ ...meta }, message);
  return {
    log: (level, message, meta) => at(level)(message, meta),
    trace: at('TRACE'),
    debug: at('DEBUG'),
    info: at('INFO'),
    warn: at('WARN'),
    error: at('ERROR'),
  };
}
