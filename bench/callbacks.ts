import { request } from 'undici';
import { callbackSignature } from '../src/provider/signing.js';

// A deposit's callback as the provider sends it to the ingress (§6): the body, signed.

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

/** Posts a signed callback to the ingress; the status it answered. */
export async function postCallback(ingressUrl: string, secretKey: string, body: string): Promise<number> {
  const res = await request(`${ingressUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(secretKey, body) },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}
