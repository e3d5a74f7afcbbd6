/** Usage in OpenAI's wire shape, both ways: upstream usage -> `Usage`, `Usage` -> client JSON. */
import type { Usage } from '../types';
import { isRecord, num, obj } from './json';

/**
 * Reads an OpenAI-style usage object (also the `input_tokens`/`output_tokens` spelling of
 * image and audio models, and DeepSeek's `prompt_cache_hit_tokens`). Undefined when it holds
 * no counts, so the caller falls back to a local count (reference: prompt or completion ≠ 0).
 */
export function usageFromOpenAI(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const promptTokens = num(raw.prompt_tokens ?? raw.input_tokens);
  const completionTokens = num(raw.completion_tokens ?? raw.output_tokens);
  if (promptTokens === 0 && completionTokens === 0) return undefined;
  const promptDetails = obj(raw.prompt_tokens_details ?? raw.input_tokens_details);
  const completionDetails = obj(raw.completion_tokens_details ?? raw.output_tokens_details);
  const usage: Usage = { promptTokens, completionTokens };
  const cached = num(promptDetails.cached_tokens) || num(raw.prompt_cache_hit_tokens);
  if (cached) usage.cachedTokens = cached;
  const reasoning = num(completionDetails.reasoning_tokens);
  if (reasoning) usage.reasoningTokens = reasoning;
  const audioIn = num(promptDetails.audio_tokens);
  if (audioIn) usage.audioPromptTokens = audioIn;
  const audioOut = num(completionDetails.audio_tokens);
  if (audioOut) usage.audioCompletionTokens = audioOut;
  return usage;
}

/**
 * The client-facing OpenAI usage object. OpenAI's `prompt_tokens` include cached tokens, so a
 * usage whose prompt excludes them (Claude) is added back up here.
 */
export function openaiUsageBody(usage: Usage): Record<string, unknown> {
  const cached = usage.cachedTokens ?? 0;
  const creation = usage.cacheCreationTokens ?? 0;
  const prompt = usage.promptExcludesCache ? usage.promptTokens + cached + creation : usage.promptTokens;
  const body: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: usage.completionTokens,
    total_tokens: prompt + usage.completionTokens,
  };
  if (cached || creation || usage.audioPromptTokens) {
    const details: Record<string, number> = { cached_tokens: cached };
    if (creation) details.cached_creation_tokens = creation;
    if (usage.audioPromptTokens) details.audio_tokens = usage.audioPromptTokens;
    body.prompt_tokens_details = details;
  }
  if (usage.reasoningTokens || usage.audioCompletionTokens) {
    const details: Record<string, number> = {};
    if (usage.reasoningTokens) details.reasoning_tokens = usage.reasoningTokens;
    if (usage.audioCompletionTokens) details.audio_tokens = usage.audioCompletionTokens;
    body.completion_tokens_details = details;
  }
  return body;
}

/** Resolves `finish()`'s fallback argument (a value, or a function the pipeline made lazy). */
export function resolveFallback(fallback: Usage | (() => Usage) | undefined): Usage | undefined {
  return typeof fallback === 'function' ? fallback() : fallback;
}

/**
 * The usage to bill at the end of a stream: the stream's own when complete; with the output
 * counted locally when the stream stopped before reporting it; the local count when it reported
 * nothing.
 */
export function finalUsage(seen: Usage | undefined, fallback: Usage | (() => Usage) | undefined): Usage | undefined {
  if (seen && seen.completionTokens > 0) return seen;
  const local = resolveFallback(fallback);
  if (!seen) return local;
  return local ? { ...seen, completionTokens: local.completionTokens } : seen;
}
