import { describe, expect, it } from 'vitest';
import { displayQuota, quotaToCurrency, quotaView } from './quota-format';

describe('quota display', () => {
  it('uses the status, with defaults', () => {
    expect(quotaView({})).toEqual({ perUnit: 500000, inCurrency: true });
    expect(quotaView({ quota_per_unit: 1000, display_in_currency: false })).toEqual({ perUnit: 1000, inCurrency: false });
    expect(quotaView({ quota_per_unit: 0 })).toEqual({ perUnit: 500000, inCurrency: true });
  });

  it('shows currency or raw units', () => {
    expect(displayQuota(1_250_000, { perUnit: 500000, inCurrency: true })).toBe('$2.50');
    expect(displayQuota(1_250_000, { perUnit: 500000, inCurrency: false })).toBe('1,250,000');
    expect(quotaToCurrency(1, { perUnit: 500000, inCurrency: true })).toBe('$0.000002');
  });
});
