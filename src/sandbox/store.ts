import type { Account } from '../provider/schemas/account.js';
import type { Order, ReadReservationRequest } from '../provider/schemas/reservation.js';
import type { PaymentMethod } from '../provider/schemas/payment-method.js';
import type { Transaction } from '../provider/schemas/transaction.js';
import type { Transfer } from '../provider/schemas/transfer.js';
import type { User } from '../provider/schemas/user.js';
import type { Wallet } from '../provider/schemas/wallet.js';
import { walletSrn } from '../provider/srn.js';

// The sandbox's whole state: plain data, so that it can be written to and read from a file.

export interface Credential {
  apiKey: string;
  secretKey: string;
  /** Null for a client-held token registered but not yet bound by creating an account (docs/provider-contract.md §5.3). */
  accountId: string | null;
  kind: 'account' | 'client-token';
}

export interface AccountRecord {
  account: Account;
  /** The parent that may masquerade as this account; null for a top-level account. */
  parentId: string | null;
  /** Operator-configured features (docs/provider-contract.md §8 rules 2 and 3). */
  features: { debitCardL2: boolean; userApi: boolean };
}

export interface UserRecord {
  user: User;
  ownerAccountId: string;
}

export interface PaymentMethodRecord {
  method: PaymentMethod;
  accountId: string;
}

export interface DocumentRecord {
  id: string;
  accountId: string;
  fieldId: string;
  contentType: string;
  size: number;
  sha256: string;
  documentType?: string;
  documentSubType?: string;
}

export interface ReservationRecord {
  id: string;
  accountId: string;
  /** The request as received, with the dest it resolved to. */
  request: ReadReservationRequest & { dest: string };
  owner: string | null;
  expiresAt: number;
  status: 'OPEN' | 'USED' | 'EXPIRED';
  orderId: string | null;
}

export interface OnboardingLinkRecord {
  token: string;
  userId: string;
  applicantId: string;
  expiresAt: number;
}

export interface SandboxState {
  credentials: Credential[];
  accounts: Record<string, AccountRecord>;
  users: Record<string, UserRecord>;
  wallets: Record<string, Wallet>;
  paymentMethods: Record<string, PaymentMethodRecord>;
  documents: Record<string, DocumentRecord>;
  /** Transactions by id; a transaction belongs to its dest wallet, or its source for outgoing ones. */
  transactions: Record<string, Transaction>;
  transfers: Record<string, Transfer>;
  reservations: Record<string, ReservationRecord>;
  orders: Record<string, Order>;
  onboardingLinks: Record<string, OnboardingLinkRecord>;
  /** Replays of idempotent requests: `${accountId} ${idempotencyKey}` → response. */
  idempotency: Record<string, { fingerprint: string; status: number; body: unknown }>;
}

export function emptyState(
  master: { apiKey: string; secretKey: string; accountId: string },
  now: number,
): SandboxState {
  return {
    credentials: [{ ...master, kind: 'account' }],
    accounts: {
      [master.accountId]: {
        account: {
          id: master.accountId,
          status: 'APPROVED',
          type: 'BUSINESS',
          country: 'US',
          createdAt: now,
          depositAddresses: {},
          totalBalances: {},
          availableBalances: {},
          profileFields: [],
        },
        parentId: null,
        // The master account has the User API; DEBIT_CARD_L2 waits for the operator (docs/provider-contract.md §8).
        features: { debitCardL2: false, userApi: true },
      },
    },
    users: {},
    wallets: {},
    paymentMethods: {},
    documents: {},
    transactions: {},
    transfers: {},
    reservations: {},
    orders: {},
    onboardingLinks: {},
    idempotency: {},
  };
}

/** Fills in collections that an older state file lacks. */
export function upgradeState(state: Partial<SandboxState>, fresh: SandboxState): SandboxState {
  for (const key of Object.keys(fresh) as Array<keyof SandboxState>) {
    if (state[key] === undefined) (state as Record<string, unknown>)[key] = fresh[key];
  }
  for (const credential of state.credentials ?? []) credential.kind ??= 'account';
  for (const [id, rec] of Object.entries(fresh.accounts)) state.accounts![id] ??= rec;
  return state as SandboxState;
}

/** A record by id, never from the prototype chain: an id such as `__proto__` is simply unknown. */
export function own<T>(map: Record<string, T>, id: string): T | undefined {
  return Object.hasOwn(map, id) ? map[id] : undefined;
}

export class Store {
  constructor(readonly state: SandboxState) {}

  credentialByApiKey(apiKey: string): Credential | undefined {
    return this.state.credentials.find((c) => c.apiKey === apiKey);
  }

  credentialBySecret(secret: string): Credential | undefined {
    return this.state.credentials.find((c) => c.secretKey === secret);
  }

  /** docs/provider-contract.md §6.4, §OP-9: the merchant's first secret key; a sub-account's parent's. */
  callbackSecretOf(accountId: string): string | undefined {
    const seen = new Set<string>();
    for (
      let id: string | null | undefined = accountId;
      id && !seen.has(id);
      id = own(this.state.accounts, id)?.parentId
    ) {
      seen.add(id);
      const secret = this.state.credentials.find((c) => c.accountId === id)?.secretKey;
      if (secret) return secret;
    }
    return undefined;
  }

  walletTransactions(walletId: string): Transaction[] {
    const srn = walletSrn(walletId);
    return Object.values(this.state.transactions)
      .filter((t) => t.dest === srn || t.source === srn)
      .sort((a, b) => b.createdAt - a.createdAt);
  }
}
