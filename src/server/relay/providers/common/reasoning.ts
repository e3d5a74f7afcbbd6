/**
 * Model-name rules of OpenAI's reasoning models (docs/relay.md#openai-request-adjustments): `-high`/`-medium`/`-low`
 * suffixes mean `reasoning_effort`, `max_tokens` is `max_completion_tokens`, no temperature.
 */

const EFFORTS = ['high', 'medium', 'low'] as const;
export type ReasoningEffort = (typeof EFFORTS)[number];

/** o-series models (o1, o3, o4 ...) and xAI's grok-3-mini take the reasoning rules. */
export function isReasoningModel(model: string): boolean {
  return /^o\d/.test(model) || model.startsWith('grok-3-mini');
}

/** Splits `o3-mini-high` into `o3-mini` + `high`; other names come back unchanged. */
export function splitEffortSuffix(model: string): { model: string; effort?: ReasoningEffort } {
  for (const effort of EFFORTS) {
    const suffix = `-${effort}`;
    if (model.endsWith(suffix) && model.length > suffix.length) return { model: model.slice(0, -suffix.length), effort };
  }
  return { model };
}

/**
 * Models that take a `developer` message instead of `system`: o1 itself (not o1-mini or
 * o1-preview, which accept neither) and the o3/o4 family.
 */
export function takesDeveloperRole(model: string): boolean {
  return model === 'o1' || model.startsWith('o1-2024-12-17') || /^o[34]/.test(model);
}

/**
 * Thinking budgets and efforts, one scale for every family: Claude's `budget_tokens` becomes
 * OpenAI's `reasoning_effort` (below 4096 low, below 16384 medium, else high), and an effort
 * becomes a budget for Claude and Gemini (the bottom of each band: 1024, 4096, 16384).
 */
const EFFORT_BUDGETS: Record<ReasoningEffort, number> = { low: 1024, medium: 4096, high: 16384 };

export function effortForBudget(budget: number): ReasoningEffort {
  if (budget < EFFORT_BUDGETS.medium) return 'low';
  return budget < EFFORT_BUDGETS.high ? 'medium' : 'high';
}

export function budgetForEffort(effort: unknown): number | undefined {
  return typeof effort === 'string' && Object.hasOwn(EFFORT_BUDGETS, effort) ? EFFORT_BUDGETS[effort as ReasoningEffort] : undefined;
}

/**
 * Models that take `reasoning_effort` in a chat request: OpenAI's o-series and gpt-5 (not its
 * chat variant), xAI's grok-3-mini, and Gemini's thinking models (2.5 and later), whose chat
 * conversion turns it into a thinking budget. Others refuse the field.
 */
export function takesReasoningEffort(model: string): boolean {
  if (isReasoningModel(model)) return true;
  if (/^gpt-5(?!.*-chat)/.test(model)) return true;
  return /^gemini-(2\.5|[3-9])/.test(model);
}
