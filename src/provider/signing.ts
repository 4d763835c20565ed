import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

// docs/provider-contract.md §5.1 and §OP-10: lowercase hex HMAC-SHA256, keyed with the secret, over the
// URL exactly as sent (query string and its encoding included) followed by the body bytes as sent.
export function requestSignature(secret: string | KeyObject, url: string, body: Uint8Array | string = ''): string {
  const hmac = createHmac('sha256', secret).update(url, 'utf8');
  if (body.length) hmac.update(body);
  return hmac.digest('hex');
}

/** The secret as a key made once, so that each signature does not convert it again. */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

// docs/provider-contract.md §6.4: callbacks carry the HMAC of the JSON body alone, keyed with the account's secret key.
export function callbackSignature(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Constant-time comparison of a provided signature with the expected one. */
export function signatureMatches(expectedHex: string, provided: string | undefined): boolean {
  if (provided === undefined || !HEX_SHA256.test(provided)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(provided, 'hex'));
}
