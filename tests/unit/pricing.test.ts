import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPLETION_RULES, completionRuleFor } from '../../src/server/services/pricing/completion-rules';
import { cacheRatio, completionRatio, groupRatio, modelPrice, modelRatio, pricingName, readRatioTables, UNSET_MODEL_RATIO, type RatioTables } from '../../src/server/services/pricing/ratios';
import type { OptionsService } from '../../src/server/services/options/options.service';

/** The shipped defaults, read from the options catalogue. */
const ratioDefaults = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/options/operation-ratios.json'), 'utf8')) as {
  properties: Record<string, { default: string }>;
};
const shipped = (key: string) => JSON.parse(ratioDefaults.properties[key]!.default) as Record<string, number>;

const defaults: RatioTables = {
  modelRatio: shipped('ModelRatio'),
  modelPrice: shipped('ModelPrice'),
  completionRatio: shipped('CompletionRatio'),
  cacheRatio: shipped('CacheRatio'),
  groupRatio: { default: 1, vip: 1.5 },
};

describe('completion ratio rules', () => {
  it.each([
    ['gpt-4o', 4],
    ['gpt-4o-mini', 4],
    ['gpt-4o-2024-05-13', 3],
    ['gpt-4.5-preview', 2],
    ['gpt-4-turbo', 3],
    ['gpt-4-turbo-2024-04-09', 3],
    ['azure-gpt-4-1106', 1],
    ['gpt-4-1106', 3],
    ['gpt-4', 2],
    ['gpt-4-32k', 2],
    ['o1', 4],
    ['o3-mini-high', 4],
    ['chatgpt-4o-latest', 3],
    ['claude-2.1', 3],
    ['claude-instant-1', 3],
    ['claude-3-5-sonnet-20241022', 5],
    ['gpt-3.5-turbo', 3],
    ['gpt-3.5-turbo-0125', 3],
    ['gpt-3.5-turbo-1106', 2],
    ['gpt-3.5-turbo-16k', 4 / 3],
    ['mistral-large-latest', 3],
    ['gemini-1.5-pro-latest', 4],
    ['gemini-2.0-flash', 4],
    ['gemini-2.5-pro-preview-03-25', 8],
    ['gemini-2.5-flash-preview-04-17', 4],
    ['command-r', 3],
    ['command-r-plus', 5],
    ['command-r-08-2024', 4],
    ['command-light', 4],
    ['DeepSeek-Chat', 4],
    ['deepseek-reasoner', 4],
    ['ERNIE-Speed-128K', 2],
    ['llama2-70b-4096', 0.8 / 0.64],
    ['llama3-8b-8192', 2],
    ['llama3-70b-8192', 0.79 / 0.59],
    ['qwen-turbo', 1],
    ['gpt-4.1', 4],
    ['gpt-4.1-nano-2025-04-14', 4],
    ['o4-mini', 4],
    ['gpt-5-mini', 8],
    ['gpt-image-1', 8],
    ['claude-sonnet-4-20250514', 5],
    ['claude-opus-4-1-20250805', 5],
    ['gemini-2.5-pro', 8],
    ['gemini-2.5-flash', 2.5 / 0.3],
  ])('%s → %d with no option set', (model, ratio) => {
    expect(completionRatio({ completionRatio: {} }, model)).toBeCloseTo(ratio, 10);
  });

  it('lets the option override family defaults but never fixed rules', () => {
    const table = { completionRatio: { 'gpt-4': 7, 'gpt-4o': 9, 'gemini-exp': 6, 'qwen-turbo': 3 } };
    expect(completionRatio(table, 'gpt-4')).toBe(7);
    expect(completionRatio(table, 'gemini-exp')).toBe(6);
    expect(completionRatio(table, 'qwen-turbo')).toBe(3);
    expect(completionRatio(table, 'gpt-4o')).toBe(4);
    expect(completionRuleFor('gpt-4o').fixed).toBe(true);
  });

  it('uses an option entry for a vendor-qualified name even where a fixed rule would match', () => {
    expect(completionRatio({ completionRatio: { 'openrouter/gpt-4o': 1.5 } }, 'openrouter/gpt-4o')).toBe(1.5);
    expect(completionRatio({ completionRatio: {} }, 'openrouter/claude-3-opus')).toBe(5);
  });

  it('prices gizmo and -all models through the option, not the gpt-4 family rules', () => {
    expect(completionRatio(defaults, 'gpt-4-gizmo-g-abc123')).toBe(2);
    expect(completionRatio(defaults, 'gpt-4o-gizmo-g-abc123')).toBe(3);
    expect(completionRatio(defaults, 'gpt-4-all')).toBe(2);
    expect(completionRatio({ completionRatio: {} }, 'gpt-4o-all')).toBe(1);
  });

  it('describes every rule', () => {
    for (const rule of COMPLETION_RULES) expect(rule.pattern.length).toBeGreaterThan(0);
  });
});

describe('model ratio and price', () => {
  it('finds configured ratios and maps gizmo names to the wildcard', () => {
    expect(modelRatio(defaults, 'gpt-4o')).toEqual({ ratio: 1.25, found: true });
    expect(modelRatio(defaults, 'gpt-4-gizmo-g-xyz')).toEqual({ ratio: 15, found: true });
    expect(pricingName('gpt-4o-gizmo-g-1')).toBe('gpt-4o-gizmo-*');
    expect(pricingName('gpt-4o')).toBe('gpt-4o');
  });

  it('answers the unset ratio for an unknown model, marked as not found', () => {
    expect(modelRatio(defaults, 'no-such-model')).toEqual({ ratio: UNSET_MODEL_RATIO, found: false });
    expect(UNSET_MODEL_RATIO).toBe(37.5);
  });

  it('does not mistake inherited object keys for models', () => {
    expect(modelRatio(defaults, 'constructor').found).toBe(false);
    expect(modelPrice(defaults, 'toString')).toBeUndefined();
  });

  it('reads per-call prices, with the gizmo wildcard', () => {
    expect(modelPrice(defaults, 'suno_music')).toBe(0.1);
    expect(modelPrice(defaults, 'gpt-4-gizmo-g-xyz')).toBe(0.1);
    expect(modelPrice(defaults, 'mj_inpaint')).toBe(0);
    expect(modelPrice(defaults, 'gpt-4o')).toBeUndefined();
  });
});

describe('cache and group ratios', () => {
  it('defaults the cache ratio to 1', () => {
    expect(cacheRatio(defaults, 'claude-3-opus-20240229')).toBe(0.1);
    expect(cacheRatio(defaults, 'deepseek-chat')).toBe(0.25);
    expect(cacheRatio(defaults, 'gpt-4o-mini')).toBe(0.5);
    expect(cacheRatio(defaults, 'qwen-turbo')).toBe(1);
  });

  it('defaults the group ratio to 1', () => {
    expect(groupRatio(defaults, 'vip')).toBe(1.5);
    expect(groupRatio(defaults, 'nobody')).toBe(1);
  });
});

describe('readRatioTables', () => {
  function fakeOptions(values: Record<string, string>): OptionsService {
    return { get: (key: string) => values[key] ?? '{}' } as unknown as OptionsService;
  }

  it('parses each option and reuses the parse until a text changes', () => {
    const values: Record<string, string> = { ModelRatio: '{"m":2}', GroupRatio: '{"default":1}' };
    const options = fakeOptions(values);
    const first = readRatioTables(options);
    expect(first.modelRatio).toEqual({ m: 2 });
    expect(readRatioTables(options)).toBe(first);
    values.ModelRatio = '{"m":3}';
    const second = readRatioTables(options);
    expect(second).not.toBe(first);
    expect(modelRatio(second, 'm').ratio).toBe(3);
  });

  it('treats unparsable or non-object text as an empty table', () => {
    const tables = readRatioTables(fakeOptions({ ModelRatio: 'not json', ModelPrice: '[1,2]' }));
    expect(tables.modelRatio).toEqual({});
    expect(tables.modelPrice).toEqual({});
  });
});

describe('the built-in tables against the reference', () => {
  /** new-api's own built-in tables (tests/fixtures/reference-db), so going back to it bills the same models. */
  const reference = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/reference-db/new-api-ratios.json'), 'utf8')) as Record<
    'ModelRatio' | 'ModelPrice' | 'CacheRatio',
    Record<string, number>
  >;

  it('prices every model the reference prices, so none is refused for lack of a ratio', () => {
    const unpriced = [...Object.keys(reference.ModelRatio), ...Object.keys(reference.ModelPrice)].filter((model) => !modelRatio(defaults, model).found && modelPrice(defaults, model) === undefined);
    expect(unpriced).toEqual([]);
  });

  it('gives every model the reference bills cached tokens for at a discount the same discount', () => {
    const different = Object.entries(reference.CacheRatio).filter(([model, ratio]) => cacheRatio(defaults, model) !== ratio);
    expect(different).toEqual([]);
  });

  it('keeps the price of fixed-price models', () => {
    for (const [model, price] of Object.entries(reference.ModelPrice)) expect(modelPrice(defaults, model), model).toBe(price);
  });
});
