// Identifier prefixes of docs/provider-contract.md §1 (AC-<id> and AC_<id> both occur), written once in
// idPattern for schemas, SRNs and workflow checks. No zod here: workflow code imports this module.

export type Prefixes = [string, ...string[]];

/**
 * The regex source of an id with this prefix (or one of these), without anchors or groups that
 * capture: `WA[-_][A-Za-z0-9]+`. For patterns that embed ids, such as SRNs (`^wallet:(…)$`).
 */
export function idPattern(...prefixes: Prefixes): string {
  const prefix = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join('|')})`;
  return `${prefix}[-_][A-Za-z0-9]+`;
}

/** The anchored regex of an id with this prefix (or one of these). */
export const idRegex = (prefix: string | Prefixes): RegExp =>
  new RegExp(`^${typeof prefix === 'string' ? idPattern(prefix) : idPattern(...prefix)}$`);

/** What a bad id is told: `a wallet id must look like WA_<id> or WA-<id>`. */
export function idMessage(prefix: string | Prefixes, what: string): string {
  const prefixes: Prefixes = typeof prefix === 'string' ? [prefix] : prefix;
  const shapes = prefixes.flatMap((p) => [`${p}_<id>`, `${p}-<id>`]);
  return `${what} must look like ${shapes.slice(0, -1).join(', ')} or ${shapes.at(-1)}`;
}

/** docs/provider-contract.md §1 names both prefixes for payment methods: PA, and PM as used in follow-up flows. */
export const PAYMENT_METHOD_PREFIXES: Prefixes = ['PA', 'PM'];

export const CURRENCY_CODE = /^[A-Z0-9]{2,10}$/;
export const CURRENCY_CODE_MESSAGE = 'a currency code must be upper-case, e.g. BTC or USD';
export const COUNTRY_CODE = /^[A-Z]{2}$/;
export const COUNTRY_CODE_MESSAGE = 'country must be a two-letter code such as US';
