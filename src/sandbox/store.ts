import type { Transaction } from '../provider/schemas/transaction';
import type { Transfer } from '../provider/schemas/transfer';
import type { Wallet } from '../provider/schemas/wallet';

// The sandbox's whole state: plain data, so that it can be written to and read from a file.

export interface Credential {
  apiKey: string;
  secretKey: string;
  accountId: string;
}

export interface SandboxState {
  credentials: Credential[];
  wallets: Record<string, Wallet>;
  /** Transactions by id, each with the wallet it belongs to (dest, or source for outgoing). */
  transactions: Record<string, Transaction>;
  transfers: Record<string, Transfer>;
  /** Replays of idempotent requests: `${accountId} ${idempotencyKey}` → response. */
  idempotency: Record<string, { fingerprint: string; status: number; body: unknown }>;
}

export function emptyState(master: { apiKey: string; secretKey: string; accountId: string }): SandboxState {
  return { credentials: [master], wallets: {}, transactions: {}, transfers: {}, idempotency: {} };
}

export class Store {
  constructor(readonly state: SandboxState) {}

  credentialByApiKey(apiKey: string): Credential | undefined {
    return this.state.credentials.find((c) => c.apiKey === apiKey);
  }

  credentialBySecret(secret: string): Credential | undefined {
    return this.state.credentials.find((c) => c.secretKey === secret);
  }

  /** Spec 6.4: callbacks are keyed with the account's first secret key. */
  firstSecretOf(accountId: string): string | undefined {
    return this.state.credentials.find((c) => c.accountId === accountId)?.secretKey;
  }

  walletTransactions(walletId: string): Transaction[] {
    const srn = `wallet:${walletId}`;
    return Object.values(this.state.transactions)
      .filter((t) => t.dest === srn || t.source === srn)
      .sort((a, b) => b.createdAt - a.createdAt);
  }
}
