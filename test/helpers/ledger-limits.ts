import { LIMITS } from '../../workflows/wallet/ledger.js';

/** Runs `body` with the ledger's bounds set to `limits`, and puts them back however it ends. */
export function withLimits<T>(limits: Partial<typeof LIMITS>, body: () => T): T {
  const saved = { ...LIMITS };
  Object.assign(LIMITS, limits);
  try {
    return body();
  } finally {
    Object.assign(LIMITS, saved);
  }
}
