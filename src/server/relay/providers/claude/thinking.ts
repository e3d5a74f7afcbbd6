/**
 * Claude options applied to every Messages request: default max_tokens and the thinking
 * adapter for `-thinking` model names (docs/relay.md#claude, options `claude.*`).
 */
import type { JsonObject } from '../common/json';
import type { ProviderOptions } from '../types';

export const THINKING_SUFFIX = '-thinking';
const FALLBACK_MAX_TOKENS = 8192;
/** Room for a useful answer next to the thinking budget (reference). */
const THINKING_MIN_MAX_TOKENS = 1280;
/** Claude's smallest accepted thinking budget. */
const MIN_BUDGET_TOKENS = 1024;

/** Option `claude.default_max_tokens`: the model's entry, else `default`, else 8192. */
export function defaultMaxTokens(options: ProviderOptions, model: string): number {
  const table = options.claudeDefaultMaxTokens;
  const stripped = model.endsWith(THINKING_SUFFIX) ? model.slice(0, -THINKING_SUFFIX.length) : model;
  return table[model] ?? table[stripped] ?? table.default ?? FALLBACK_MAX_TOKENS;
}

/**
 * Whether the adapter applies to this model name, and the name to send: the suffix is
 * stripped only when the adapter is on (billing keeps the `-thinking` name).
 */
export function thinkingPlan(model: string, options: ProviderOptions): { model: string; adapt: boolean } {
  if (options.claudeThinkingAdapterEnabled && model.endsWith(THINKING_SUFFIX) && model.length > THINKING_SUFFIX.length) {
    return { model: model.slice(0, -THINKING_SUFFIX.length), adapt: true };
  }
  return { model, adapt: false };
}

/**
 * Turns extended thinking on: max_tokens at least 1280, budget = max_tokens × the option's
 * share, kept inside what Claude accepts (1024 ≤ budget < max_tokens); thinking requires
 * temperature 1 and no top_p.
 */
export function enableThinking(body: JsonObject, options: ProviderOptions): void {
  const maxTokens = Math.max(typeof body.max_tokens === 'number' ? body.max_tokens : 0, THINKING_MIN_MAX_TOKENS);
  const share = options.claudeThinkingBudgetPercentage;
  setThinking(body, Math.min(maxTokens - 1, Math.max(MIN_BUDGET_TOKENS, Math.floor(maxTokens * share))), maxTokens);
}

/**
 * Models with extended thinking (3.7 Sonnet and the 4 families on): a `reasoning_effort` sent
 * for an older model is left out rather than turned into a request Claude refuses.
 */
export function supportsThinking(model: string): boolean {
  return /^claude-(3-7-|(sonnet|opus|haiku)-([4-9]|\d{2}))/.test(model);
}

/**
 * Extended thinking with a given budget (an OpenAI client's `reasoning_effort`): max_tokens
 * grows where needed so the answer keeps the adapter's room beside the budget.
 */
export function enableThinkingBudget(body: JsonObject, budget: number): void {
  const asked = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  const thinkingBudget = Math.max(MIN_BUDGET_TOKENS, budget);
  setThinking(body, thinkingBudget, Math.max(asked, thinkingBudget + THINKING_MIN_MAX_TOKENS));
}

function setThinking(body: JsonObject, budget: number, maxTokens: number): void {
  body.max_tokens = maxTokens;
  body.thinking = { type: 'enabled', budget_tokens: budget };
  body.temperature = 1;
  delete body.top_p;
  delete body.top_k;
}
