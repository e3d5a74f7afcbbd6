/** The completion limit the reservation's estimate uses, under each client format's name for it. */
import { describe, expect, it } from 'vitest';
import { maxTokensOf } from '../../src/server/relay/pipeline/endpoints';

describe('maxTokensOf', () => {
  it('reads every format’s limit, and only sane whole numbers', () => {
    expect(maxTokensOf({ max_tokens: 100, max_completion_tokens: 300 })).toBe(300);
    expect(maxTokensOf({ max_output_tokens: 500 })).toBe(500);
    expect(maxTokensOf({ generationConfig: { maxOutputTokens: 700 } })).toBe(700);
    expect(maxTokensOf({ max_tokens: 0, generationConfig: { maxOutputTokens: 70 } })).toBe(70);
    for (const bad of [
      { max_output_tokens: -1 },
      { max_output_tokens: Number.POSITIVE_INFINITY },
      { max_output_tokens: '9' },
      { generationConfig: null },
      { generationConfig: { maxOutputTokens: 2.5 } },
      {},
    ]) {
      expect(maxTokensOf(bad)).toBe(0);
    }
  });
});
