import { describe, expect, it } from 'vitest';
import { displayQuota, quotaToCurrency, quotaView } from './quota-format';

const usd = { perUnit: 500000, inCurrency: true };
const units = { perUnit: 500000, inCurrency: false };

describe('quota display', () => {
  it('uses the status, with defaults', () => {
    expect(quotaView({})).toEqual(usd);
    expect(quotaView({ quota_per_unit: 1000, display_in_currency: false })).toEqual({ perUnit: 1000, inCurrency: false });
    expect(quotaView({ quota_per_unit: 0 })).toEqual(usd);
  });

  it('shows currency with two decimals at least and six at most', () => {
    expect(displayQuota(1_250_000, usd)).toBe('$2.50');
    expect(displayQuota(100_000, usd)).toBe('$0.20');
    expect(displayQuota(617_283, usd)).toBe('$1.234566');
    expect(displayQuota(0, usd)).toBe('$0.00');
    expect(displayQuota(5_000_000_000, usd)).toBe('$10,000.00');
  });

  it('never shows a non-zero amount as zero', () => {
    expect(displayQuota(65, usd)).toBe('$0.00013');
    expect(displayQuota(1, usd)).toBe('$0.000002');
    expect(displayQuota(1, { perUnit: 10_000_000, inCurrency: true })).toBe('<$0.000001');
    expect(displayQuota(-65, usd)).toBe('-$0.00013');
    expect(displayQuota(-250_000, usd)).toBe('-$0.50');
  });

  it('shows raw units when currency display is off', () => {
    expect(displayQuota(1_250_000, units)).toBe('1,250,000');
    expect(displayQuota(65, units)).toBe('65');
  });

  it('shows the unlimited label instead of any number', () => {
    expect(displayQuota(0, usd, { unlimited: 'Unlimited' })).toBe('Unlimited');
    expect(displayQuota(-5, units, { unlimited: '无限制' })).toBe('无限制');
  });

  it('takes fewer or more decimals when asked', () => {
    expect(displayQuota(500_000, usd, { minDigits: 0 })).toBe('$1');
    expect(displayQuota(250_000, usd, { minDigits: 0 })).toBe('$0.5');
    expect(quotaToCurrency(1, usd)).toBe('$0.000002');
    expect(quotaToCurrency(500_000, units)).toBe('$1.000000');
  });
});
