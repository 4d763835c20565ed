import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { parseJson, stringifyJson } from '../json.js';
import type { AnyEndpoint, Endpoint } from './endpoint.js';
import { ProviderContractError, ProviderError, ProviderInputError, ProviderUnavailableError } from './errors.js';
import { requestSignature, signingKey } from './signing.js';
import { masqueradeSrn } from './srn.js';
import { inSpan, SpanKind } from '../telemetry/spans.js';
import { AnswerTooLargeError, readCapped } from '../capped-body.js';

export type ProviderAuth =
  /** docs/provider-contract.md §5.1: X-Api-Key and X-Api-Signature over URL + body. */
  | { kind: 'signature'; apiKey: string; secretKey: string }
  /** docs/provider-contract.md §5.2 and §5.3: Authorization: Bearer <secret>. */
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
  /** The longest answer read (default 8 MiB); a longer one fails as AnswerTooLargeError. */
  maxAnswerBytes?: number;
}

const ANSWER_ADVICE =
  'check that PROVIDER_BASE_URL is the provider, and raise PROVIDER_MAX_ANSWER_BYTES if its answers are that large; the call is retried';

export interface CallOptions<P, B> {
  params?: P;
  body?: B;
  /** docs/provider-contract.md §5.4: act for a sub-account or user. Validated: a user must be `user:<id>`. */
  masqueradeAs?: string;
  /** Query parameters: those the endpoint declares, plus any extra ones; all are part of the signed URL. */
  query?: Record<string, string | undefined>;
  /** Sent as Idempotency-Key so that an at-least-once activity does not create twice. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** What a call needs of its endpoint beyond the declaration, worked out once per endpoint. */
interface Prepared {
  callName: string;
  /** The path split at its `:param` placeholders: literal text at even indexes, names at odd ones. */
  pieces: string[];
  apiVersion2: boolean;
  spanName: string;
  /** The span's attributes: the endpoint only, never the URL's ids or a body (the SDK copies them). */
  spanAttributes: Record<string, string>;
}
const prepared = new WeakMap<object, Prepared>();

function prepare(endpoint: AnyEndpoint): Prepared {
  let prep = prepared.get(endpoint);
  if (!prep) {
    prep = {
      callName: `${endpoint.method} ${endpoint.path} (${endpoint.name})`,
      pieces: endpoint.path.split(/:([A-Za-z]+)/),
      apiVersion2: endpoint.path.startsWith('/v2/'),
      spanName: `provider ${endpoint.name}`,
      spanAttributes: { 'http.request.method': endpoint.method, 'payflows.endpoint': endpoint.name },
    };
    prepared.set(endpoint, prep);
  }
  return prep;
}

export class ProviderClient {
  readonly baseUrl: string;
  /** The base URL parsed once: scheme, host and port, and the path every call's path follows. */
  private readonly origin: string;
  private readonly basePath: string;
  private readonly key: ReturnType<typeof signingKey> | undefined;
  private readonly auth: ProviderAuth;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => number;
  private readonly maxAnswerBytes: number;
  /** The observer of this client's calls (metrics), handed on to the token clients of the same worker. */
  readonly onCall: ProviderClientOptions['onCall'];

  constructor(opts: ProviderClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    const base = new URL(this.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`the provider's base URL must be http or https, got ${base.protocol}`);
    if (base.username || base.password || base.search || base.hash)
      throw new TypeError(
        "the provider's base URL takes no user:password@, ?query or #fragment: they would be signed but not sent as signed",
      );
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.auth = opts.auth;
    this.key = opts.auth.kind === 'signature' ? signingKey(opts.auth.secretKey) : undefined;
    this.now = opts.now ?? Date.now;
    this.onCall = opts.onCall;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? 8 * 1024 * 1024;
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
    return this.origin + this.pathAndQuery(path, query);
  }

  /**
   * The request target as sent. Already in the form a URL parser gives back (the base was parsed
   * once, path values are percent-encoded, the query form-encoded), so it is not parsed again.
   */
  private pathAndQuery(path: string, query: Record<string, string>): string {
    let qs = '';
    for (const key in query) {
      qs = qs ? qs + '&' : '?';
      qs += `${encodeQueryPart(key)}=${encodeQueryPart(query[key]!)}`;
    }
    return this.basePath + path + qs;
  }

  async call<P extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
    endpoint: Endpoint<P, B, R>,
    opts: CallOptions<z.input<P>, z.input<B>> = {},
  ): Promise<z.output<R>> {
    const prep = prepare(endpoint);
    const callName = prep.callName;
    const path = this.resolvePath(callName, endpoint, prep, opts.params);
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
    if (authenticated && this.auth.kind === 'signature' && endpoint.timestamp !== false)
      query.timestamp = String(this.now());
    const target = this.pathAndQuery(path, query);
    const url = this.origin + target;

    const headers: Record<string, string> = { accept: 'application/json' };
    if (encoded) headers['content-type'] = encoded.contentType;
    if (prep.apiVersion2) headers['x-api-version'] = '2';
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    if (!authenticated) {
      // docs/provider-contract.md §4.2: registering a client-held secret happens before any credentials exist.
    } else if (this.auth.kind === 'signature') {
      headers['x-api-key'] = this.auth.apiKey;
      headers['x-api-signature'] = requestSignature(this.key!, url, bodyBytes ?? '');
    } else {
      headers.authorization = `Bearer ${this.auth.token}`;
    }

    let status: number | undefined;
    let text: string;
    const sentAt = performance.now();
    try {
      // A client span in the caller's trace (an activity's, when tracing is on): the endpoint's
      // name and the status, never the URL's ids or a body.
      ({ status, text } = await inSpan(prep.spanName, SpanKind.CLIENT, prep.spanAttributes, async (span) => {
        // The dispatcher directly, with origin and path: undici.request(url) would parse the URL again.
        const res = await this.dispatcher.request({
          origin: this.origin,
          path: target,
          method: endpoint.method,
          headers,
          body: bodyBytes,
          signal: opts.signal,
        });
        span.setAttribute('http.response.status_code', res.statusCode);
        const answer = await readCapped(res.body, this.maxAnswerBytes, callName, ANSWER_ADVICE);
        return { status: res.statusCode, text: answer.toString('utf8') };
      }));
    } catch (err) {
      if (err instanceof AnswerTooLargeError) throw err;
      throw new ProviderUnavailableError(callName, err);
    } finally {
      this.onCall?.({ endpoint: endpoint.name, status, seconds: (performance.now() - sentAt) / 1000 });
    }

    if (status < 200 || status >= 300)
      throw ProviderError.fromResponse(callName, status, text, {
        creates: endpoint.creates ?? endpoint.method === 'POST',
      });
    let json: unknown;
    try {
      // Lossless: an amount keeps every digit (1.000000000000000001 stays that), src/json.ts.
      json = parseJson(text);
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

  private resolvePath(callName: string, endpoint: AnyEndpoint, prep: Prepared, params: unknown): string {
    if (!endpoint.params) return endpoint.path;
    const values = checkedInput(callName, endpoint.params, params ?? {}, 'params') as Record<string, string>;
    let path = prep.pieces[0]!;
    for (let i = 1; i < prep.pieces.length; i += 2) {
      const key = prep.pieces[i]!;
      const value = String(values[key]);
      // A dot segment would move the request to another path once a URL parser saw it.
      if (value === '.' || value === '..') throw new ProviderInputError(callName, key, 'must not be "." or ".."');
      path += encodeURIComponent(value) + prep.pieces[i + 1]!;
    }
    return path;
  }

  private resolveQuery(
    callName: string,
    endpoint: AnyEndpoint,
    query: Record<string, string | undefined> | undefined,
  ): Record<string, string> {
    const given = Object.fromEntries(
      Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
    );
    if (!endpoint.query) return given;
    return { ...given, ...(checkedInput(callName, endpoint.query, given, 'query') as Record<string, string>) };
  }

  private encodeBody(
    callName: string,
    endpoint: AnyEndpoint,
    body: unknown,
  ): { bytes: Buffer; contentType: string } | undefined {
    if (!endpoint.body) return undefined;
    const data = checkedInput(callName, endpoint.body, body, 'body');
    if (endpoint.bodyKind === 'raw') {
      const { bytes, contentType } = data as { bytes: Uint8Array; contentType: string };
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
    }
    // Serialised once: these exact bytes are signed and sent (docs/provider-contract.md §5.1, rule 3). Amounts, decimal
    // strings here, go out as JSON numbers with the same digits (the contract's numbers).
    return { bytes: Buffer.from(stringifyJson(data), 'utf8'), contentType: 'application/json' };
  }
}

/** A call's params, query or body as its schema outputs them; the first issue a ProviderInputError naming its field. */
function checkedInput(callName: string, schema: z.ZodType, value: unknown, part: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ProviderInputError(callName, issue.path.join('.') || part, issue.message);
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it (space as +). */
function encodeQueryPart(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
