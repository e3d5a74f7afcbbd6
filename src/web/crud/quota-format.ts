/**
 * Quota as the console shows it: currency when DisplayInCurrency is on (QuotaPerUnit units
 * per unit), else the raw number of quota units.
 */
import type { PublicStatus } from '../state/public-status';

export const DEFAULT_QUOTA_PER_UNIT = 500000;

export interface QuotaView {
  perUnit: number;
  inCurrency: boolean;
}

export function quotaView(status: PublicStatus): QuotaView {
  const perUnit = Number(status.quota_per_unit) > 0 ? Number(status.quota_per_unit) : DEFAULT_QUOTA_PER_UNIT;
  return { perUnit, inCurrency: status.display_in_currency !== false };
}

export function displayQuota(quota: number, view: QuotaView, digits = 2): string {
  const value = Number(quota) || 0;
  if (!view.inCurrency) return value.toLocaleString('en-US');
  return `$${(value / view.perUnit).toFixed(digits)}`;
}

/** The currency value of a quota (6 decimals), shown beside quota inputs. */
export function quotaToCurrency(quota: number, view: QuotaView): string {
  return `$${((Number(quota) || 0) / view.perUnit).toFixed(6)}`;
}
