import { request } from 'undici';
import { callbackSignature, requestSignature } from '../src/provider/signing.js';

// The provider's protocol in bare code, for the yardsticks and the bench's own traffic: a signed
// request's headers (§5.1), and a deposit's callback as the provider sends it to the ingress (§6).

/** The headers of a signed request to `url` (which carries its timestamp) with `body` ('' for none). */
export function signedHeaders(auth: { apiKey: string; secretKey: string }, url: string, body: string) {
  return {
    accept: 'application/json',
    'x-api-version': '2',
    'x-api-key': auth.apiKey,
    'x-api-signature': requestSignature(auth.secretKey, url, body),
  };
}

export function depositCallback(tx: { id: string; walletId: string; status: 'PENDING' | 'CONFIRMED' }): string {
  return JSON.stringify({
    id: tx.id,
    createdAt: Date.now(),
    source: 'bitcoin:EXTERNAL',
    dest: `wallet:${tx.walletId}`,
    currency: 'BTC',
    amount: 0.001,
    status: tx.status,
    metadata: tx.status === 'CONFIRMED' ? { BTCNetworkTxId: 'ab'.repeat(32) } : {},
    tags: [],
  });
}

/**
 * Posts a signed callback to a callback URL (the ingress's `/callbacks`, or a wallet's own, which
 * names its workflow); the status it answered.
 */
export async function postCallback(callbackUrl: string, secretKey: string, body: string): Promise<number> {
  const res = await request(callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(secretKey, body) },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}
