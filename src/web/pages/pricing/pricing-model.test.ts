import { describe, expect, it } from 'vitest';
import { dollars, fuzzyMatch, isUsable, priceOf, ratioOf, type PricingEntry } from './pricing-model';

const ratioEntry: PricingEntry = { model_name: 'gpt-4o-mini', quota_type: 0, model_ratio: 0.075, model_price: 0, completion_ratio: 4, enable_groups: ['default'] };
const callEntry: PricingEntry = { model_name: 'mj_imagine', quota_type: 1, model_ratio: 0, model_price: 0.1, completion_ratio: 0, enable_groups: ['vip'] };

describe('pricing', () => {
  it('searches fuzzily', () => {
    expect(fuzzyMatch('gpt-4o-mini', 'mini')).toBe(true);
    expect(fuzzyMatch('gpt-4o-mini', 'g4m')).toBe(true);
    expect(fuzzyMatch('gpt-4o-mini', 'GPT')).toBe(true);
    expect(fuzzyMatch('gpt-4o-mini', 'claude')).toBe(false);
    expect(fuzzyMatch('x', '  ')).toBe(true);
  });

  it('prices per 1M tokens with the group ratio, and per call', () => {
    expect(priceOf(ratioEntry, 1)).toEqual({ kind: 'tokens', prompt: 0.15, completion: 0.6 });
    const doubled = priceOf(ratioEntry, 2);
    expect(doubled.kind === 'tokens' && doubled.prompt).toBeCloseTo(0.3);
    expect(priceOf(callEntry, 1.5)).toEqual({ kind: 'call', price: expect.closeTo(0.15, 10) as number });
  });

  it('formats dollars and reads ratios and usability', () => {
    expect(dollars(0.15000000001)).toBe('$0.15');
    expect(dollars(2.5)).toBe('$2.5');
    expect(ratioOf({ vip: 2 }, 'vip')).toBe(2);
    expect(ratioOf({ vip: 2 }, 'default')).toBe(1);
    expect(isUsable(ratioEntry, { default: 'Default' })).toBe(true);
    expect(isUsable(callEntry, { default: 'Default' })).toBe(false);
  });
});
