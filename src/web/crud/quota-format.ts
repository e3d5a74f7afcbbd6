/**
 * Quota as the console shows it: currency when DisplayInCurrency is on (QuotaPerUnit units
 * per unit), else the raw number of quota units. Every amount on every screen goes through
 * `displayQuota`, so the log, its totals, the dashboard, tokens and users agree.
 */
import { quotaAmount } from '../../shared/quota';
import type { PublicStatus } from '../state/public-status';

export const DEFAULT_QUOTA_PER_UNIT = 500000;

export interface QuotaView {
  perUnit: number;
  inCurrency: boolean;
}

export interface QuotaTextOptions {
  /** Fewest decimals a currency amount shows (2 unless said; presets use 0, input hints 6). */
  minDigits?: number;
  /** When set, the amount is unlimited and this label is shown instead of any number. */
  unlimited?: string;
}

export function quotaView(status: PublicStatus): QuotaView {
  const perUnit = Number(status.quota_per_unit) > 0 ? Number(status.quota_per_unit) : DEFAULT_QUOTA_PER_UNIT;
  return { perUnit, inCurrency: status.display_in_currency !== false };
}

export function displayQuota(quota: number, view: QuotaView, options: QuotaTextOptions = {}): string {
  if (options.unlimited !== undefined) return options.unlimited;
  return quotaAmount(quota, { quotaPerUnit: view.perUnit, displayInCurrency: view.inCurrency }, options.minDigits);
}

/** The currency value of a quota (6 decimals), shown beside quota inputs. */
export function quotaToCurrency(quota: number, view: QuotaView): string {
  return displayQuota(quota, { ...view, inCurrency: true }, { minDigits: 6 });
}
