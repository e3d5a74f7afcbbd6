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
