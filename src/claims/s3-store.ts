import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { AnswerTooLargeError, readCapped } from '../capped-body.js';
import type { ClaimRef } from './ref.js';
import { seal } from './envelope.js';
import { EMPTY_SHA256, sha256Hex, signV4, type SigV4Credentials } from './sigv4.js';
import {
  claimGone,
  nameInRef,
  claimRefOf,
  type ClaimStore,
  ClaimUnavailableError,
  openClaim,
  type PutOptions,
} from './store.js';

// The claim store on S3-compatible storage (CLAIM_STORE_URL=s3://bucket/prefix): each claim an object
// sealed under its own data key, its time and subject as metadata; SigV4 over undici, the bucket
// addressed by path, as S3-compatible servers expect.

export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint: string;
  credentials: SigV4Credentials;
}

/** `s3://bucket/prefix` and the usual AWS variables; an error names what is missing. */
export function s3Location(url: string, env: Record<string, string | undefined>): S3Location {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) throw new Error(`CLAIM_STORE_URL=${url}: expected s3://<bucket>/<prefix>`);
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new Error('CLAIM_STORE_URL is an s3:// address: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const endpoint = (env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? `https://s3.${region}.amazonaws.com`).replace(
    /\/+$/,
    '',
  );
  return {
    bucket: match[1]!,
    prefix: (match[2] ?? '').replace(/\/+$/, ''),
    endpoint,
    credentials: { accessKeyId, secretAccessKey, region },
  };
}

const NAME = /^[0-9a-f]{64}$/;
/** The text of the first `<tag>` element in an S3 answer's XML. */
const xmlText = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
const ANSWER_ADVICE =
  'no answer of the claim store is that large: check that AWS_ENDPOINT_URL_S3 and CLAIM_STORE_URL name the claim store';

export class S3ClaimStore implements ClaimStore {
  private readonly dispatcher = new Agent({ keepAliveTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
  private readonly keys: Buffer[];

  private readonly maxAnswerBytes: number;

  /** `maxAnswerBytes`: the longest answer read (default 16 MiB: a sealed claim of the largest document, 7.75 MB, with room). */
  constructor(
    private readonly where: S3Location,
    opts: { key: Buffer; previousKeys?: Buffer[]; maxAnswerBytes?: number },
  ) {
    this.keys = [opts.key, ...(opts.previousKeys ?? [])];
    this.maxAnswerBytes = opts.maxAnswerBytes ?? 16 * 1024 * 1024;
  }

  async put(bytes: Uint8Array, contentType: string, opts: PutOptions = {}): Promise<ClaimRef> {
    const name = randomBytes(32).toString('hex');
    const body = seal(bytes, this.keys[0]!, name);
    const meta: Record<string, string> = { 'x-amz-meta-created-at': String(Date.now()) };
    if (opts.subject) meta['x-amz-meta-subject'] = encodeURIComponent(opts.subject);
    // One PUT, metadata included, is atomic: a crash leaves the whole object or nothing, never a
    // half-written one that the sweep and an erasure would miss (the local store's .tmp files).
    await this.send(
      'PUT',
      this.objectPath(name),
      { body, headers: { 'content-type': 'application/octet-stream', ...meta } },
      [200],
    );
    return claimRefOf(`s3:${name}`, bytes, contentType, opts.personal ? this.keys[0] : undefined);
  }

  async get(ref: ClaimRef): Promise<Buffer> {
    const name = nameInRef(ref, 's3', 'S3 claim store');
    const res = await this.send('GET', this.objectPath(name), {}, [200, 404]);
    if (res.status === 404) {
      // A missing bucket answers 404 too: a setup to fix, not a claim that is gone.
      const code = xmlText(res.body.toString('utf8'), 'Code');
      if (code && code !== 'NoSuchKey')
        throw new ClaimUnavailableError(
          `claim store GET ${this.describe()}: 404 ${code}; check the bucket in CLAIM_STORE_URL`,
        );
      throw claimGone(ref, this.describe(), 'CLAIM_STORE_URL');
    }
    return openClaim(res.body, ref, name, this.keys);
  }

  async delete(refs: ClaimRef[]): Promise<void> {
    for (const ref of refs) await this.deleteObject(nameInRef(ref, 's3', 'S3 claim store'));
  }

  async eraseSubject(subject: string): Promise<number> {
    if (!subject) throw new Error('eraseSubject: give the subject whose claims to erase');
    let erased = 0;
    for (const { name } of await this.list()) {
      const head = await this.send('HEAD', this.objectPath(name), {}, [200, 404]);
      if (head.status === 200 && decodeURIComponent(head.headers['x-amz-meta-subject'] ?? '') === subject) {
        await this.deleteObject(name);
        erased += 1;
      }
    }
    return erased;
  }

  async sweep(before: number): Promise<number> {
    let swept = 0;
    for (const { name, lastModified } of await this.list()) {
      if (lastModified >= before) continue;
      await this.deleteObject(name);
      swept += 1;
    }
    return swept;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** One already gone is no error. */
  private async deleteObject(name: string): Promise<void> {
    await this.send('DELETE', this.objectPath(name), {}, [200, 204, 404]);
  }

  private describe(): string {
    return `s3://${this.where.bucket}/${this.where.prefix}`;
  }

  private objectPath(name: string): string {
    return `/${this.where.bucket}/${this.where.prefix ? `${this.where.prefix}/` : ''}${name}`;
  }

  /** Every claim object under the prefix, with its time (ListObjectsV2, page by page). */
  private async list(): Promise<Array<{ name: string; lastModified: number }>> {
    const found: Array<{ name: string; lastModified: number }> = [];
    let token: string | undefined;
    do {
      const query = new URLSearchParams({
        'list-type': '2',
        prefix: this.where.prefix ? `${this.where.prefix}/` : '',
        ...(token ? { 'continuation-token': token } : {}),
      });
      const res = await this.send('GET', `/${this.where.bucket}?${query.toString()}`, {}, [200]);
      const xml = res.body.toString('utf8');
      for (const item of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const name = xmlText(item[1]!, 'Key')?.split('/').pop() ?? '';
        const modified = xmlText(item[1]!, 'LastModified');
        if (NAME.test(name) && modified) found.push({ name, lastModified: Date.parse(modified) });
      }
      token = xmlText(xml, 'IsTruncated') === 'true' ? xmlText(xml, 'NextContinuationToken') : undefined;
    } while (token);
    return found;
  }

  private async send(
    method: string,
    pathAndQuery: string,
    opts: { body?: Buffer; headers?: Record<string, string> },
    expected: number[],
  ): Promise<{ status: number; body: Buffer; headers: Record<string, string> }> {
    const url = new URL(`${this.where.endpoint}${pathAndQuery}`);
    const headers = signV4(
      { method, url, headers: opts.headers ?? {}, payloadHash: opts.body ? sha256Hex(opts.body) : EMPTY_SHA256 },
      this.where.credentials,
      new Date(),
    );
    delete headers.host;
    // Any failure to get an answer, or an unexpected one, leaves the claim where it was: retried.
    let res: Awaited<ReturnType<typeof request>>;
    let body: Buffer;
    const call = `claim store ${method} ${this.describe()}`;
    try {
      res = await request(url, { method: method as 'GET', headers, body: opts.body, dispatcher: this.dispatcher });
      body = await readCapped(res.body, this.maxAnswerBytes, call, ANSWER_ADVICE);
    } catch (err) {
      if (err instanceof AnswerTooLargeError) throw new ClaimUnavailableError(err.message, { cause: err });
      throw new ClaimUnavailableError(
        `claim store ${method} ${this.describe()} got no answer: ${(err as Error).message}; check AWS_ENDPOINT_URL_S3 and that the store is up`,
        { cause: err },
      );
    }
    if (!expected.includes(res.statusCode)) {
      const code = xmlText(body.toString('utf8'), 'Code');
      throw new ClaimUnavailableError(
        `claim store ${method} ${this.describe()}: ${res.statusCode}${code ? ` ${code}` : ''}; check the bucket, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY and the endpoint`,
      );
    }
    const flat = Object.fromEntries(
      Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v ?? '')]),
    );
    return { status: res.statusCode, body, headers: flat };
  }
}
