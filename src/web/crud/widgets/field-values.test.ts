import { describe, expect, it } from 'vitest';
import { addCustomModels, expiryText, mergeModels, NEVER, parseExpiry, presetExpiry } from './field-values';

describe('model lists', () => {
  it('merges without duplicates', () => {
    expect(mergeModels(['a', 'b'], ['b', ' c ', ''])).toEqual(['a', 'b', 'c']);
  });

  it('refuses custom names that already exist, adding none of them', () => {
    expect(addCustomModels(['gpt-4o'], 'x, gpt-4o')).toEqual({ models: ['gpt-4o'], duplicate: true });
    expect(addCustomModels(['gpt-4o'], 'x, y,')).toEqual({ models: ['gpt-4o', 'x', 'y'], duplicate: false });
  });
});

describe('expiry', () => {
  it('round-trips local times', () => {
    const seconds = Math.floor(new Date(2031, 4, 6, 7, 8, 9).getTime() / 1000);
    expect(expiryText(seconds)).toBe('2031-05-06 07:08:09');
    expect(parseExpiry('2031-05-06 07:08:09')).toBe(seconds);
  });

  it('treats empty and -1 as never, and refuses bad text', () => {
    expect(parseExpiry('')).toBe(NEVER);
    expect(parseExpiry('-1')).toBe(NEVER);
    expect(expiryText(-1)).toBe('');
    expect(parseExpiry('2031-02-30 00:00:00')).toBeUndefined();
    expect(parseExpiry('tomorrow')).toBeUndefined();
    expect(parseExpiry('2031-5-6 7:8:9')).toBeUndefined();
  });

  it('computes presets from now', () => {
    expect(presetExpiry(NEVER, 1000)).toBe(NEVER);
    expect(presetExpiry(3600, 1000)).toBe(4600);
  });
});
