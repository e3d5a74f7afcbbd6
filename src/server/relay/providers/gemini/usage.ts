/** Gemini's usageMetadata and finish reasons in the relay's terms. */
import { isRecord, num } from '../common/json';
import type { Usage } from '../types';

/**
 * Thinking tokens (`thoughtsTokenCount`) are billed as output, so they join the completion and
 * are reported as reasoning; `cachedContentTokenCount` is part of the prompt, as in OpenAI.
 */
export function usageFromGemini(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const thoughts = num(raw.thoughtsTokenCount);
  const usage: Usage = { promptTokens: num(raw.promptTokenCount), completionTokens: num(raw.candidatesTokenCount) + thoughts };
  if (!usage.promptTokens && !usage.completionTokens) return undefined;
  if (thoughts) usage.reasoningTokens = thoughts;
  const cached = num(raw.cachedContentTokenCount);
  if (cached) usage.cachedTokens = cached;
  return usage;
}

/** STOP -> stop, MAX_TOKENS -> length, anything else (SAFETY, RECITATION ...) -> content_filter; calls -> tool_calls. */
export function finishReasonFromGemini(reason: unknown, hasToolCalls: boolean): string | null {
  if (reason === undefined || reason === null || reason === '' || reason === 'FINISH_REASON_UNSPECIFIED') return hasToolCalls ? 'tool_calls' : null;
  if (hasToolCalls) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return 'content_filter';
}
