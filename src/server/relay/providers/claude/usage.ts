/** Claude's usage and stop reasons in the relay's terms. */
import { isRecord, num } from '../common/json';
import type { Usage } from '../types';

/**
 * Claude's `input_tokens` exclude cache reads and writes, which come apart; billing applies
 * Claude's formula to them (docs/billing.md#settlement-formula; cache counts are always captured).
 */
export function usageFromClaude(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = {
    promptTokens: num(raw.input_tokens),
    completionTokens: num(raw.output_tokens),
    promptExcludesCache: true,
  };
  const cacheRead = num(raw.cache_read_input_tokens);
  const cacheWrite = num(raw.cache_creation_input_tokens);
  if (cacheRead) usage.cachedTokens = cacheRead;
  if (cacheWrite) usage.cacheCreationTokens = cacheWrite;
  if (!usage.promptTokens && !usage.completionTokens && !cacheRead && !cacheWrite) return undefined;
  return usage;
}

/**
 * Folds a later usage report into an earlier one: Claude's `message_delta` carries the output
 * count (cumulative) and, in newer API versions, input and cache counts too.
 */
export function mergeClaudeUsage(previous: Usage | undefined, raw: unknown): Usage | undefined {
  const next = usageFromClaude(raw);
  if (!previous) return next;
  if (!next) return previous;
  return {
    ...previous,
    promptTokens: next.promptTokens || previous.promptTokens,
    completionTokens: next.completionTokens || previous.completionTokens,
    cachedTokens: next.cachedTokens ?? previous.cachedTokens,
    cacheCreationTokens: next.cacheCreationTokens ?? previous.cacheCreationTokens,
  };
}

/** Claude stop reason -> OpenAI finish_reason (Ours: max_tokens -> length, tool_use -> tool_calls). */
export function finishReasonFromClaude(reason: unknown): string | null {
  switch (reason) {
    case undefined:
    case null:
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return String(reason);
  }
}
