import { describe, expect, it } from 'vitest';
import { normalizeTemperature, parseMaxTokens } from './chat-settings';

describe('chat settings', () => {
  it('keeps the temperature between 0.1 and 1 in steps of 0.1', () => {
    expect(normalizeTemperature(0)).toBe(0.1);
    expect(normalizeTemperature(0.74)).toBe(0.7);
    expect(normalizeTemperature(3)).toBe(1);
    expect(normalizeTemperature('x')).toBe(0.1);
  });

  it('parses max tokens as an integer', () => {
    expect(parseMaxTokens('256')).toBe(256);
    expect(parseMaxTokens('12.9')).toBe(12);
    expect(parseMaxTokens('-5')).toBe(0);
    expect(parseMaxTokens('')).toBe(0);
  });
});
