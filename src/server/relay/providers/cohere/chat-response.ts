/** Cohere's v2 chat answer -> OpenAI `chat.completion`. */
import { chatCompletion, type ToolCallOut } from '../common/chunks';
import { arr, obj, str } from '../common/json';
import type { ParsedResponse } from '../types';
import { finishReasonFromCohere, usageFromCohere } from './usage';
import { nowSeconds } from '../../../../shared/time';

/** Text and thinking of a v2 content list (`[{type: "text", text}, {type: "thinking", thinking}]`). */
export function cohereContent(content: unknown): { text: string; thinking: string } {
  let text = '';
  let thinking = '';
  for (const part of arr(content)) {
    const p = obj(part);
    if (p.type === 'thinking') thinking += str(p.thinking) ?? '';
    else text += str(p.text) ?? '';
  }
  return { text, thinking };
}

export function openaiChatFromCohere(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const message = obj(answer.message);
  const { text, thinking } = cohereContent(message.content);
  const toolCalls: ToolCallOut[] = arr(message.tool_calls).map((call) => {
    const fn = obj(obj(call).function);
    return { id: str(obj(call).id) ?? '', name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '{}' };
  });
  const usage = usageFromCohere(answer.usage);
  const body = chatCompletion({
    meta: { id: str(answer.id) ?? '', created: nowSeconds(), model },
    content: text,
    reasoning: thinking || undefined,
    toolCalls,
    finishReason: finishReasonFromCohere(answer.finish_reason),
    usage,
  });
  return usage ? { body, usage } : { body, text: text + thinking + toolCalls.map((c) => c.name + c.arguments).join('') };
}
