/** Claude Messages answer -> OpenAI chat completion (docs/relay.md#claude). */
import { chatCompletion, type ToolCallOut } from '../common/chunks';
import { errorFromBody } from '../common/errors';
import { arr, isRecord, obj, str } from '../common/json';
import type { ParsedResponse } from '../types';
import { finishReasonFromClaude, usageFromClaude } from './usage';
import { nowSeconds } from '../../../../shared/time';

/** A Claude error object (`{type:"error", error:{...}}`) answered with HTTP 200 is a failure (500). */
export function claudeBodyError(json: unknown): ParsedResponse['error'] {
  if (isRecord(json) && (json.type === 'error' || (isRecord(json.error) && str(obj(json.error).type)))) return errorFromBody(500, json);
  return undefined;
}

export function openaiResponseFromClaude(json: unknown): ParsedResponse {
  const error = claudeBodyError(json);
  if (error) return { body: json, error };
  const message = obj(json);
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCallOut[] = [];
  for (const raw of arr(message.content)) {
    const block = obj(raw);
    if (block.type === 'text') text += str(block.text) ?? '';
    else if (block.type === 'thinking') reasoning += str(block.thinking) ?? '';
    else if (block.type === 'tool_use') toolCalls.push({ id: str(block.id) ?? '', name: str(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) });
  }
  const usage = usageFromClaude(message.usage);
  const body = chatCompletion({
    meta: { id: str(message.id) ?? '', created: nowSeconds(), model: str(message.model) ?? '' },
    // Every text block is kept (the reference kept only the last, losing text around tool calls).
    content: text,
    reasoning,
    toolCalls,
    finishReason: finishReasonFromClaude(message.stop_reason),
    usage,
  });
  return { body, usage, text: text + reasoning + toolCalls.map((c) => c.name + c.arguments).join('') };
}
