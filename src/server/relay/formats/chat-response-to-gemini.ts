/**
 * OpenAI chat completion -> Gemini `GenerateContentResponse`, for Gemini-native callers served
 * by chat channels: one candidate with text, thought and functionCall parts, the finish
 * reason in Gemini's words, and usageMetadata from the normalised usage.
 */
import { type JsonObject, arr, compact, isRecord, obj, parseJson, str } from '../providers/common/json';
import { contentText } from '../providers/common/openai-text';
import type { Usage } from '../providers/types';

/** stop -> STOP, length -> MAX_TOKENS, content_filter -> SAFETY; Gemini ends a function call with STOP. */
export function geminiFinishReason(finishReason: unknown): string | undefined {
  switch (finishReason) {
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return undefined;
  }
}

/**
 * Gemini's counts: the prompt includes cached tokens (Claude's usage excludes them), and the
 * candidates exclude the thoughts, which Gemini reports apart.
 */
export function geminiUsageMetadata(usage: Usage): JsonObject {
  const cached = usage.cachedTokens ?? 0;
  const prompt = usage.promptExcludesCache ? usage.promptTokens + cached + (usage.cacheCreationTokens ?? 0) : usage.promptTokens;
  const thoughts = Math.min(usage.reasoningTokens ?? 0, usage.completionTokens);
  return compact({
    promptTokenCount: prompt,
    candidatesTokenCount: usage.completionTokens - thoughts,
    totalTokenCount: prompt + usage.completionTokens,
    thoughtsTokenCount: thoughts || undefined,
    cachedContentTokenCount: cached || undefined,
  });
}

/** One tool call's arguments as the object Gemini's functionCall carries (bad JSON: empty). */
export function callArgs(text: string): JsonObject {
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : {};
}

/** `model` is the name the client asked for; `usage` the answer's normalised usage. */
export function geminiResponseFromChat(body: unknown, model: string, usage: Usage | undefined): JsonObject {
  const answer = obj(body);
  const choice = obj(arr(answer.choices)[0]);
  const message = obj(choice.message);
  const parts: JsonObject[] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning) parts.push({ text: reasoning, thought: true });
  const text = contentText(message.content, '');
  if (text) parts.push({ text });
  for (const raw of arr(message.tool_calls)) {
    const fn = obj(obj(raw).function);
    parts.push({ functionCall: compact({ id: str(obj(raw).id), name: str(fn.name) ?? '', args: callArgs(str(fn.arguments) ?? '') }) });
  }
  if (parts.length === 0) parts.push({ text: '' });
  return compact({
    candidates: [compact({ content: { role: 'model', parts }, finishReason: geminiFinishReason(choice.finish_reason) ?? 'STOP', index: 0 })],
    usageMetadata: usage ? geminiUsageMetadata(usage) : undefined,
    modelVersion: model,
    responseId: str(answer.id),
  });
}
