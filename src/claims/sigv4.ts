import { createHash, createHmac } from 'node:crypto';

// AWS Signature Version 4 for S3 requests, as AWS documents it: a canonical request, a string to
// sign, a key derived from the secret by date, region and service. Pure, so that it is tested
// against AWS's published example.

export interface SigV4Request {
  method: string;
  url: URL;
  /** Header names in any case; `host` is taken from the URL. */
  headers: Record<string, string>;
  /** The hex SHA-256 of the body (x-amz-content-sha256). */
  payloadHash: string;
}

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
}

const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** RFC 3986 encoding, as SigV4 wants it (`/` kept in paths). */
function encode(text: string, { keepSlash }: { keepSlash: boolean }): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(keepSlash ? /%2F/g : /$^/, '/');
}

export function amzDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The headers to send: the given ones, host, x-amz-date, x-amz-content-sha256 and Authorization. */
export function signV4(req: SigV4Request, creds: SigV4Credentials, at: Date): Record<string, string> {
  const service = creds.service ?? 's3';
  const date = amzDate(at);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name.toLowerCase()] = String(value).trim().replace(/\s+/g, ' ');
  headers.host = req.url.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = req.payloadHash;
  const names = Object.keys(headers).sort();
  const query = [...req.url.searchParams.entries()]
    .map(([k, v]) => [encode(k, { keepSlash: false }), encode(v, { keepSlash: false })] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const path = encode(decodeURIComponent(req.url.pathname), { keepSlash: true });
  const canonical = [
    req.method,
    path,
    query,
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    names.join(';'),
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`,
  };
}

export const EMPTY_SHA256 = sha256('');
export { sha256 as sha256Hex };
