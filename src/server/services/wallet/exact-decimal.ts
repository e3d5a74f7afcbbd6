/**
 * Exact decimal arithmetic for prices: a number is read from its shortest decimal text
 * (7.3 is exactly 73/10, not the nearest double) and kept as a fraction of big integers,
 * so `10 × 7.3` is exactly 73 and money never drifts by a binary rounding error.
 */

export interface Fraction {
  n: bigint;
  d: bigint;
}

/** A finite, non-negative number or decimal text as an exact fraction; undefined if it is not one. */
export function toFraction(value: number | string): Fraction | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) return undefined;
  const [, int = '', frac = '', exp = '0'] = m;
  const scale = frac.length - Number(exp);
  const digits = BigInt(int + frac);
  return scale >= 0 ? { n: digits, d: 10n ** BigInt(scale) } : { n: digits * 10n ** BigInt(-scale), d: 1n };
}

export function multiply(...factors: Fraction[]): Fraction {
  return factors.reduce((acc, f) => ({ n: acc.n * f.n, d: acc.d * f.d }), { n: 1n, d: 1n });
}

/** a < b, a = b or a > b as -1, 0, 1. */
export function compare(a: Fraction, b: Fraction): number {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Rounded half up to cents, as text with exactly two decimals ("73.00"). */
export function toMoneyText(value: Fraction): string {
  const cents = (value.n * 100n * 2n + value.d) / (value.d * 2n);
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${rest}`;
}
