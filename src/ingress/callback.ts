import { parseJson } from '../json.js';
import { transaction, type Transaction } from '../provider/schemas/transaction.js';
import { type Observation, observe } from '../provider/transaction-observation.js';
import { walletIdFromSrn } from '../provider/srn.js';

/** Every wallet a callback touches: `dest` and `source` (docs/provider-contract.md §6.1 calls back both sides). */
export function walletsTouched(tx: Pick<Transaction, 'source' | 'dest'>): string[] {
  const ids = [walletIdFromSrn(tx.dest), walletIdFromSrn(tx.source)].filter((id): id is string => id !== undefined);
  return [...new Set(ids)];
}

/** A callback read: `tx`, what the ledger uses, is all that is signalled; free text never reaches history. */
export type Parsed = { ok: true; tx: Observation; walletIds: string[] } | { ok: false; error: string };

export function parseCallback(raw: Buffer): Parsed {
  let json: unknown;
  try {
    // Lossless (src/json.ts): the amount's digits as the provider wrote them, not a double's.
    json = parseJson(raw.toString('utf8'));
  } catch {
    return { ok: false, error: 'the body is not JSON' };
  }
  const parsed = transaction.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      error: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    };
  }
  const walletIds = walletsTouched(parsed.data);
  if (walletIds.length === 0)
    return {
      ok: false,
      error: `neither dest "${parsed.data.dest}" nor source "${parsed.data.source}" is a wallet SRN (wallet:WA_...)`,
    };
  return { ok: true, tx: observe(parsed.data), walletIds };
}
