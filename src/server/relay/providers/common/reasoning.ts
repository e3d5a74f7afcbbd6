/**
 * Model-name rules of OpenAI's reasoning models (reference §4.3): `-high`/`-medium`/`-low`
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
