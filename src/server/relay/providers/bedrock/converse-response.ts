/** Bedrock Converse answers -> OpenAI chat: usage, stop reasons and the content blocks. */
import { chatCompletion, newId, nowSeconds, type ToolCallOut } from '../common/chunks';
import { type JsonObject, arr, isRecord, num, obj, str } from '../common/json';
import type { ParsedResponse, Usage } from '../types';

/** Converse's `inputTokens` leave the cache reads and writes out; they come apart. */
export function usageFromConverse(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { promptTokens: num(raw.inputTokens), completionTokens: num(raw.outputTokens), promptExcludesCache: true };
  const cacheRead = num(raw.cacheReadInputTokens);
  const cacheWrite = num(raw.cacheWriteInputTokens);
  if (cacheRead) usage.cachedTokens = cacheRead;
  if (cacheWrite) usage.cacheCreationTokens = cacheWrite;
  if (!usage.promptTokens && !usage.completionTokens && !cacheRead && !cacheWrite) return undefined;
  return usage;
}

export function finishReasonFromConverse(reason: unknown): string | null {
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
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return String(reason);
  }
}

/** The text of a reasoning block: `reasoningText.text` (whole answers) or `text` (stream deltas). */
export function reasoningText(block: JsonObject): string {
  return str(obj(block.reasoningText).text) ?? str(block.text) ?? '';
}

export function openaiResponseFromConverse(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const message = obj(obj(answer.output).message);
  if (!Array.isArray(message.content)) {
    return { body: json, error: { status: 500, message: 'invalid Bedrock Converse answer: no output message', type: 'upstream_error', code: 'bad_response_body' } };
  }
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCallOut[] = [];
  for (const raw of arr(message.content)) {
    const block = obj(raw);
    if (typeof block.text === 'string') text += block.text;
    else if (isRecord(block.reasoningContent)) reasoning += reasoningText(block.reasoningContent);
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      toolCalls.push({ id: str(use.toolUseId) ?? newId('call_'), name: str(use.name) ?? '', arguments: JSON.stringify(use.input ?? {}) });
    }
  }
  const usage = usageFromConverse(answer.usage);
  const body = chatCompletion({
    meta: { id: newId('chatcmpl-'), created: nowSeconds(), model },
    content: text,
    reasoning,
    toolCalls,
    finishReason: finishReasonFromConverse(answer.stopReason),
    usage,
  });
  return usage ? { body, usage } : { body, text: text + reasoning + toolCalls.map((c) => c.name + c.arguments).join('') };
}
