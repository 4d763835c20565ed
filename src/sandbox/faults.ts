import { z } from 'zod';
import { jsonNumber } from '../provider/schemas/common.js';
import { SandboxError } from './errors.js';

// Fault knobs per route: errors (5xx, 429, transient) and added latency, so that retries, backoff
// and timeouts can be seen working. `route` is "METHOD /path/:param" as listed in docs/provider-client.md, or "*".

export const faultSchema = z
  .object({
    route: z
      .string()
      .regex(/^(\*|(GET|POST) \/\S+)$/, 'route must be "*" or "METHOD /path" such as "POST /v2/wallets"'),
    error: z.enum(['server', 'rate-limit', 'transient']).default('server'),
    /** The next N requests fail. */
    failNext: jsonNumber(z.number().int().min(0)).default(0),
    /** Each request fails with this probability. */
    errorRate: jsonNumber(z.number().min(0).max(1)).default(0),
    latencyMs: jsonNumber(z.number().int().min(0).max(120_000)).default(0),
  })
  .strict();
export type Fault = z.infer<typeof faultSchema>;

export class Faults {
  private readonly byRoute = new Map<string, Fault>();
  /** Requests failed on purpose since the sandbox started. */
  injected = 0;

  set(fault: Fault): Fault {
    this.byRoute.set(fault.route, fault);
    return fault;
  }

  clear(): void {
    this.byRoute.clear();
  }

  list(): Fault[] {
    return [...this.byRoute.values()];
  }

  /** Waits the configured latency; returns the error to answer with, if this request should fail. */
  async apply(route: string, random: () => number = Math.random): Promise<SandboxError | undefined> {
    const fault = this.byRoute.get(route) ?? this.byRoute.get('*');
    if (!fault) return undefined;
    if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault.failNext > 0) fault.failNext -= 1;
    else if (fault.errorRate <= 0 || random() >= fault.errorRate) return undefined;
    this.injected += 1;
    if (fault.error === 'rate-limit')
      return new SandboxError('RateLimitException', 'Too many requests; back off and retry', {
        errorCode: 'rateLimit.exceeded',
        transient: true,
      });
    if (fault.error === 'transient')
      return new SandboxError('UnknownException', 'A temporary problem; the same request may be retried', {
        errorCode: 'unknown.transient',
        transient: true,
      });
    return new SandboxError('UnknownException', 'An internal error occurred', {
      errorCode: 'unknown.internal',
      transient: false,
    });
  }
}
