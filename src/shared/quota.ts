/**
 * Quota is an integer number of quota units everywhere; currency is only a display.
 * QuotaPerUnit units make one currency unit (default 500000).
 */

export interface QuotaDisplay {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

/** The text the reference writes into log contents: `＄1.000000 额度` or `500000 点额度`. */
export function logQuota(quota: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) return `＄${(quota / display.quotaPerUnit).toFixed(6)} 额度`;
  return `${quota} 点额度`;
}

/** The text used in notifications: `＄1.000000` or the raw number. */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) return `＄${(quota / display.quotaPerUnit).toFixed(6)}`;
  return String(quota);
}

/** Finest currency step shown: one millionth, the precision quota amounts are kept at. */
const MAX_DIGITS = 6;

/**
 * A quota amount as people read it: `$0.20`, `$0.00013`, `-$1.50`, or the raw units `1,250,000`.
 * Currency keeps up to six decimals and trims trailing zeros down to `minDigits`, so a small
 * spend never reads as zero; an amount below a millionth says so (`<$0.000001`).
 */
export function quotaAmount(quota: number, display: QuotaDisplay, minDigits = 2): string {
  const units = Number(quota) || 0;
  if (!display.displayInCurrency) return Math.round(units).toLocaleString('en-US');
  const value = Math.abs(units / display.quotaPerUnit);
  const sign = units < 0 ? '-' : '';
  const step = 10 ** -MAX_DIGITS;
  if (value > 0 && value < step / 2) return `${sign === '-' ? '>-' : '<'}$${step.toFixed(MAX_DIGITS)}`;
  const full = value.toFixed(MAX_DIGITS);
  const [whole, fraction = ''] = full.split('.');
  let kept = fraction.replace(/0+$/, '');
  if (kept.length < minDigits) kept = fraction.slice(0, minDigits);
  const grouped = Number(whole).toLocaleString('en-US');
  return `${sign}$${grouped}${kept ? `.${kept}` : ''}`;
}
