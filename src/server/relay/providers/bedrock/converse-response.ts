/** Bedrock Converse answers -> OpenAI chat: usage, stop reasons and the content blocks. */
import { chatCompletion, newId, type ToolCallOut } from '../common/chunks';
import { finishReasonFromClaude, usageFromClaude } from '../claude/usage';
import { type JsonObject, arr, isRecord, obj, str } from '../common/json';
import type { ParsedResponse, Usage } from '../types';
import { nowSeconds } from '../../../../shared/time';

/** Converse's usage is Claude's under other names (`inputTokens` leave the cache reads and writes out). */
export function usageFromConverse(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  return usageFromClaude({
    input_tokens: raw.inputTokens,
    output_tokens: raw.outputTokens,
    cache_read_input_tokens: raw.cacheReadInputTokens,
    cache_creation_input_tokens: raw.cacheWriteInputTokens,
  });
}

/** Converse's stop reasons are Claude's, and two of its own for filtered answers. */
export function finishReasonFromConverse(reason: unknown): string | null {
  return reason === 'guardrail_intervened' || reason === 'content_filtered' ? 'content_filter' : finishReasonFromClaude(reason);
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
