// Exact decimal amounts. Money is said as a canonical decimal string ("161176780.13",
// "1.000000000000000001", "-5", "0") in messages, carried state and answers, and added or
// compared as a scaled bigint: units × 10^-scale. Pure and deterministic, no dependencies: the
// workflow bundle imports it (a decimal library would grow the bundle, zod must stay out of it).

/** A canonical decimal string: no exponent, no leading zeros, no trailing fractional zeros, no "-0". */
export type Decimal = string;

interface Scaled {
  units: bigint;
  scale: number;
}

// A JSON number's grammar, plus a leading "+" and the exponents String(number) writes ("1e-7").
const NUMBER = /^([+-])?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/**
 * Far beyond any amount (1e15 with 18 decimals is 34 digits), so that 1e1000000000 is refused, not
 * expanded. Results are bounded too: a sum past it would fail the next add, and a ledger every replay.
 */
export const MAX_DIGITS = 80;

/**
 * The bound of one incoming amount (src/provider/schemas/common.ts): tight enough that a sum of
 * them stays within MAX_DIGITS until there are 10^19 of them.
 */
export const AMOUNT_DIGITS = { whole: 30, fraction: 30 } as const;

export class DecimalError extends RangeError {
  override name = 'DecimalError';
}

/** A value as an error shows it: never throws (JSON.stringify does for a bigint), whatever came in. */
const shown = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : value !== null && typeof value === 'object'
      ? 'an object'
      : String(value);

function scaled(value: string | number, what: string): Scaled {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new DecimalError(`${what}: ${value} is not a finite amount`);
  // String(n) of a number JSON gave is its shortest exact form: the digits the JSON had, when it
  // had no more than a double holds (15 significant digits always).
  const text = typeof value === 'number' ? String(value) : value;
  const match = typeof text === 'string' ? NUMBER.exec(text) : null;
  if (!match) throw new DecimalError(`${what}: ${shown(text)} is not a decimal amount such as "12.34"`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent);
  const digits = (whole! + fraction).replace(/^0+(?=\d)/, '');
  let scale = fraction.length - shift;
  if (!Number.isSafeInteger(shift) || digits.length > MAX_DIGITS || Math.abs(scale) > MAX_DIGITS)
    throw new DecimalError(`${what}: ${shown(text)} has more digits than any amount (at most ${MAX_DIGITS} digits)`);
  let units = BigInt(digits);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
    // Bounded once expanded too: 1e80 is 81 digits.
    if (units.toString().length > MAX_DIGITS)
      throw new DecimalError(`${what}: ${shown(text)} has more digits than any amount (at most ${MAX_DIGITS} digits)`);
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** The magnitude's digits without trailing fractional zeros: "1.50" and "1.5" are one amount, written one way. */
function trimmed({ units, scale }: Scaled): { digits: string; scale: number } {
  let digits = (units < 0n ? -units : units).toString();
  while (scale > 0 && digits.endsWith('0') && digits.length > 1) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  return { digits, scale };
}

/** The digits of a value before and after the point, as its canonical form writes them. */
function digitCounts(value: Scaled): { whole: number; fraction: number } {
  const { digits, scale } = trimmed(value);
  if (digits === '0') return { whole: 0, fraction: 0 };
  return { whole: Math.max(0, digits.length - scale), fraction: scale };
}

/** A result of arithmetic, refused past MAX_DIGITS, so that nothing given here fails to read again. */
function bounded(result: Scaled, what: string): Scaled {
  const { whole, fraction } = digitCounts(result);
  if (whole + fraction > MAX_DIGITS)
    throw new DecimalError(
      `${what}: the result has ${whole} digits before the point and ${fraction} after, more than any amount (at most ${MAX_DIGITS} digits)`,
    );
  return result;
}

function format(value: Scaled): Decimal {
  const { digits, scale } = trimmed(value);
  if (digits === '0') return '0';
  const padded = digits.padStart(scale + 1, '0');
  const text = scale > 0 ? `${padded.slice(0, -scale)}.${padded.slice(-scale)}` : digits;
  return value.units < 0n ? `-${text}` : text;
}

function align(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

/**
 * The canonical decimal of a decimal string or a number (old histories hold numbers: read as
 * String(n), exact for what JSON gave); a DecimalError naming `what` for anything else.
 */
export function decimal(value: string | number, what = 'amount'): Decimal {
  return format(scaled(value, what));
}

/** Whether `value` reads as an amount (see `decimal`). */
export function isDecimal(value: unknown): value is string | number {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  try {
    scaled(value, '');
    return true;
  } catch {
    return false;
  }
}

/** The exact sum; a DecimalError (a RangeError) past MAX_DIGITS. */
export function add(a: string | number, b: string | number): Decimal {
  const [x, y, scale] = align(scaled(a, 'amount'), scaled(b, 'amount'));
  return format(bounded({ units: x + y, scale }, 'add'));
}

/** The exact difference; a DecimalError (a RangeError) past MAX_DIGITS. */
export function subtract(a: string | number, b: string | number): Decimal {
  const [x, y, scale] = align(scaled(a, 'amount'), scaled(b, 'amount'));
  return format(bounded({ units: x - y, scale }, 'subtract'));
}

/** The exact sum; "0" for none. Only the total is bounded (MAX_DIGITS), not the way to it. */
export function sum(values: Iterable<string | number>): Decimal {
  let total: Scaled = { units: 0n, scale: 0 };
  for (const value of values) {
    const [x, y, scale] = align(total, scaled(value, 'amount'));
    total = { units: x + y, scale };
  }
  return format(bounded(total, 'sum'));
}

/** Whether a value is an amount within AMOUNT_DIGITS (exponent expanded, trailing zeros dropped), past it, or none. */
export function amountBound(value: unknown): 'within' | 'past' | 'none' {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'none';
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !NUMBER.test(text)) return 'none';
  if (!isDecimal(text)) return 'past';
  const { whole, fraction } = digitCounts(scaled(text, 'amount'));
  return whole <= AMOUNT_DIGITS.whole && fraction <= AMOUNT_DIGITS.fraction ? 'within' : 'past';
}

export function negate(a: string | number): Decimal {
  const x = scaled(a, 'amount');
  return format({ units: -x.units, scale: x.scale });
}

export function absolute(a: string | number): Decimal {
  const x = scaled(a, 'amount');
  return format({ units: x.units < 0n ? -x.units : x.units, scale: x.scale });
}

/** -1, 0 or 1: exact, with no tolerance (one wei apart is apart). */
export function compare(a: string | number, b: string | number): -1 | 0 | 1 {
  const [x, y] = align(scaled(a, 'amount'), scaled(b, 'amount'));
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(a: string | number): boolean {
  return scaled(a, 'amount').units === 0n;
}

/**
 * Whether a number read from JSON kept every digit its text had: then `String(n)` is that amount.
 * A JSON parser that keeps digits (src/json.ts) hands on the text of the others.
 */
export function numberKeepsDigits(text: string): boolean {
  const n = Number(text);
  return Number.isFinite(n) && isDecimal(text) && decimal(n) === decimal(text);
}

/**
 * A number recorded before exact amounts (a signal, a poll's answer, a carried ledger): its own
 * digits (String(n)), or, for one no amount has digits for (a float residue such as 5e-324, or
 * 1e300), its value to 20 decimals ("0" past that): such a number must not fail the run that
 * reads it. `approximate` is told which it was.
 */
export function recordedNumber(value: number, approximate?: () => void): Decimal {
  const text = String(value);
  const [mantissa = '', exponent = '0'] = text.split('e');
  const decimals = Math.max(0, (mantissa.split('.')[1] ?? '').length - Number(exponent));
  if (decimals <= 20 && isDecimal(text)) return decimal(text);
  approximate?.();
  const fixed = value.toFixed(20);
  return isDecimal(fixed) ? decimal(fixed) : '0';
}
