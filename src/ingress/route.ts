import { transaction, type Transaction } from '../provider/schemas/transaction.js';
import { walletIdFromSrn } from '../provider/srn.js';

/**
 * The wallet a callback belongs to: its `dest` when that is a wallet (deposits), else its
 * `source` (outgoing transactions). Undefined when neither is a wallet SRN.
 */
export function walletOf(tx: Pick<Transaction, 'source' | 'dest'>): string | undefined {
  return walletIdFromSrn(tx.dest) ?? walletIdFromSrn(tx.source);
}

export type Parsed = { ok: true; tx: Transaction; walletId: string } | { ok: false; error: string };

export function parseCallback(raw: Buffer): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, error: 'the body is not JSON' };
  }
  const parsed = transaction.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') };
  }
  const walletId = walletOf(parsed.data);
  if (!walletId) return { ok: false, error: `neither dest "${parsed.data.dest}" nor source "${parsed.data.source}" is a wallet SRN (wallet:WA_...)` };
  return { ok: true, tx: parsed.data, walletId };
}
