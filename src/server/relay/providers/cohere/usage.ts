/** Cohere's usage and finish reasons, read into ours. */
import { isRecord, num, obj } from '../common/json';
import type { Usage } from '../types';

/**
 * Cohere reports `billed_units` (what it charges) and `tokens` (what the model saw, with its own
 * preamble). The reference bills `billed_units`; `tokens` only when no billed units came.
 */
export function usageFromCohere(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  for (const counts of [obj(raw.billed_units), obj(raw.tokens)]) {
    const promptTokens = num(counts.input_tokens);
    const completionTokens = num(counts.output_tokens);
    if (promptTokens || completionTokens) return { promptTokens, completionTokens };
  }
  return undefined;
}

const FINISH_REASONS: Record<string, string> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  ERROR: 'stop',
  TIMEOUT: 'stop',
};

export function finishReasonFromCohere(reason: unknown): string {
  return typeof reason === 'string' ? (FINISH_REASONS[reason] ?? reason.toLowerCase()) : 'stop';
}
