import { idPattern } from './ids.js';

// SRNs (docs/provider-contract.md §1): `<kind>:<id>`. Masquerade targets follow docs/provider-contract.md §5.4: a value without a kind is an
// account; a user must be written `user:<id>`, because a bare user id would be taken as an account.

/** docs/provider-contract.md §OP-9: the interest-payments service SRN is not named by the contract. One place to change it. */
export const INTEREST_PAYMENTS_SRN = 'service:interest-payments';

/** `WA_123` → `wallet:WA_123`: the SRN a callback names the wallet by, as source or dest. */
export function walletSrn(walletId: string): string {
  return `wallet:${walletId}`;
}

/** `PM_123` → `paymentmethod:PM_123`. */
export function paymentMethodSrn(paymentMethodId: string): string {
  return `paymentmethod:${paymentMethodId}`;
}

const WALLET_SRN = new RegExp(`^wallet:(${idPattern('WA')})$`);
const TRANSFER_SRN = new RegExp(`^transfer:(${idPattern('TF')})$`);
const USER_SRN = new RegExp(`^user:${idPattern('US')}$`);
const BARE_USER_ID = new RegExp(`^${idPattern('US')}$`);
const ACCOUNT = new RegExp(`^(?:account:)?${idPattern('AC')}$`);

/** `wallet:WA_123` → `WA_123`; undefined when the SRN is of another kind. */
export function walletIdFromSrn(srn: string): string | undefined {
  return WALLET_SRN.exec(srn)?.[1];
}

/** `transfer:TF_123` → `TF_123`; undefined otherwise. */
export function transferIdFromSrn(srn: string): string | undefined {
  return TRANSFER_SRN.exec(srn)?.[1];
}

export type MasqueradeTarget = { kind: 'account' | 'user'; id: string };

/** The SRN to send for a masqueradeAs value; throws, naming the field, where it would address the wrong principal. */
export function masqueradeSrn(value: string): string {
  const target = value.trim();
  if (USER_SRN.test(target) || ACCOUNT.test(target)) return target;
  if (BARE_USER_ID.test(target)) {
    throw new Error(
      `masqueradeAs: "${target}" is a bare user id, which the provider takes as an account; write "user:${target}"`,
    );
  }
  throw new Error(
    `masqueradeAs: "${target}" is not an account id (AC_...), an account SRN (account:AC_...) or a user SRN (user:US_...)`,
  );
}

/** How a provider reads a masqueradeAs value: without a kind it is an account; other kinds are not targets. */
export function parseMasquerade(value: string): MasqueradeTarget | undefined {
  const idx = value.indexOf(':');
  if (idx < 0) return { kind: 'account', id: value };
  const kind = value.slice(0, idx);
  if (kind !== 'user' && kind !== 'account') return undefined;
  return { kind, id: value.slice(idx + 1) };
}
