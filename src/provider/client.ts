import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import type { Endpoint } from './endpoint.js';
import { ProviderContractError, ProviderError, ProviderInputError, ProviderUnavailableError } from './errors.js';
import { requestSignature } from './signing.js';
import { masqueradeSrn } from './srn.js';
import { inSpan, SpanKind } from '../telemetry/spans.js';

export type ProviderAuth =
  /** Spec 5.1: X-Api-Key and X-Api-Signature over URL + body. */
  | { kind: 'signature'; apiKey: string; secretKey: string }
  /** Spec 5.2 and 5.3: Authorization: Bearer <secret>. */
  | { kind: 'bearer'; token: string };

export interface ProviderClientOptions {
  baseUrl: string;
  auth: ProviderAuth;
  /** Connect, headers and body timeouts each; keep it below the activity's startToCloseTimeout. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  now?: () => number;
  /** Told of every call that went out: the endpoint's name, the status (none when no answer came) and the seconds it took. */
  onCall?: (call: { endpoint: string; status: number | undefined; seconds: number }) => void;
}

export interface CallOptions<P, B> {
  params?: P;
  body?: B;
  /** Spec 5.4: act for a sub-account or user. Validated: a user must be `user:<id>`. */
  masqueradeAs?: string;
  /** Query parameters: those the endpoint declares, plus any extra ones; all are part of the signed URL. */
  query?: Record<string, string | undefined>;
  /** Sent as Idempotency-Key so that an at-least-once activity does not create twice. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export class ProviderClient {
  readonly baseUrl: string;
  private readonly auth: ProviderAuth;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => number;
  /** The observer of this client's calls (metrics), handed on to the token clients of the same worker. */
  readonly onCall: ProviderClientOptions['onCall'];

  constructor(opts: ProviderClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.auth = opts.auth;
    this.now = opts.now ?? Date.now;
    this.onCall = opts.onCall;
    const timeout = opts.timeoutMs ?? 15_000;
    this.ownsDispatcher = !opts.dispatcher;
    this.dispatcher =
      opts.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        connect: { timeout: Math.min(timeout, 10_000) },
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
  }

  /** Builds the URL exactly as it will be sent and signed. Exposed so that tests can check vectors. */
  buildUrl(path: string, query: Record<string, string>): string {
    const qs = new URLSearchParams(query).toString();
    return new URL(`${this.baseUrl}${path}${qs ? `?${qs}` : ''}`).href;
  }

  async call<P extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
    endpoint: Endpoint<P, B, R>,
    opts: CallOptions<z.input<P>, z.input<B>> = {},
  ): Promise<z.output<R>> {
    const callName = `${endpoint.method} ${endpoint.path} (${endpoint.name})`;
    const path = this.resolvePath(callName, endpoint, opts.params);
    const encoded = this.encodeBody(callName, endpoint, opts.body);
    const bodyBytes = encoded?.bytes;

    const query: Record<string, string> = this.resolveQuery(callName, endpoint, opts.query);
    if (opts.masqueradeAs !== undefined) {
      try {
        query.masqueradeAs = masqueradeSrn(opts.masqueradeAs);
      } catch (err) {
        throw new ProviderInputError(callName, 'masqueradeAs', (err as Error).message.replace(/^masqueradeAs: /, ''));
      }
    }
    const authenticated = endpoint.auth !== false;
    if (authenticated && this.auth.kind === 'signature' && endpoint.timestamp !== false) query.timestamp = String(this.now());
    const url = this.buildUrl(path, query);

    const headers: Record<string, string> = { accept: 'application/json' };
    if (encoded) headers['content-type'] = encoded.contentType;
    if (/^\/v2\//.test(endpoint.path)) headers['x-api-version'] = '2';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    if (!authenticated) {
      // Spec 4.2: registering a client-held secret happens before any credentials exist.
    } else if (this.auth.kind === 'signature') {
      headers['x-api-key'] = this.auth.apiKey;
      headers['x-api-signature'] = requestSignature(this.auth.secretKey, url, bodyBytes ?? '');
    } else {
      headers.authorization = `Bearer ${this.auth.token}`;
    }

    let status: number | undefined;
    let text: string;
    const sentAt = performance.now();
    try {
      // A client span in the caller's trace (an activity's, when tracing is on): the endpoint's
      // name and the status, never the URL's ids or a body.
      ({ status, text } = await inSpan(`provider ${endpoint.name}`, SpanKind.CLIENT, { 'http.request.method': endpoint.method, 'payflows.endpoint': endpoint.name }, async (span) => {
        const res = await request(url, {
          method: endpoint.method,
          headers,
          body: bodyBytes,
          dispatcher: this.dispatcher,
          signal: opts.signal,
        });
        span.setAttribute('http.response.status_code', res.statusCode);
        return { status: res.statusCode, text: await res.body.text() };
      }));
    } catch (err) {
      throw new ProviderUnavailableError(callName, err);
    } finally {
      this.onCall?.({ endpoint: endpoint.name, status, seconds: (performance.now() - sentAt) / 1000 });
    }

    if (status < 200 || status >= 300) throw ProviderError.fromResponse(callName, status, text, endpoint.method);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // Not quoted: a body may hold personal data, and this message may reach workflow history.
      throw new ProviderContractError(callName, `not JSON (${text.length} characters)`);
    }
    const parsed = endpoint.response.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
      throw new ProviderContractError(callName, issues);
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private resolvePath(callName: string, endpoint: Endpoint<z.ZodType, z.ZodType, z.ZodType>, params: unknown): string {
    if (!endpoint.params) return endpoint.path;
    const parsed = endpoint.params.safeParse(params ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProviderInputError(callName, issue.path.join('.') || 'params', issue.message);
    }
    const values = parsed.data as Record<string, string>;
    return endpoint.path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(values[key]!));
  }

  private resolveQuery(callName: string, endpoint: Endpoint<z.ZodType, z.ZodType, z.ZodType>, query: Record<string, string | undefined> | undefined): Record<string, string> {
    const given = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
    if (!endpoint.query) return given;
    const parsed = endpoint.query.safeParse(given);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProviderInputError(callName, issue.path.join('.') || 'query', issue.message);
    }
    return { ...given, ...(parsed.data as Record<string, string>) };
  }

  private encodeBody(callName: string, endpoint: Endpoint<z.ZodType, z.ZodType, z.ZodType>, body: unknown): { bytes: Buffer; contentType: string } | undefined {
    if (!endpoint.body) return undefined;
    const parsed = endpoint.body.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ProviderInputError(callName, issue.path.join('.') || 'body', issue.message);
    }
    if (endpoint.bodyKind === 'raw') {
      const { bytes, contentType } = parsed.data as { bytes: Uint8Array; contentType: string };
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
    }
    // Serialised once: these exact bytes are signed and sent (spec 5.1, rule 3).
    return { bytes: Buffer.from(JSON.stringify(parsed.data), 'utf8'), contentType: 'application/json' };
  }
}
