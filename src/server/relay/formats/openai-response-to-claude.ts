/** OpenAI chat completion -> Claude `message` (docs/relay.md#claude), for `/v1/messages` callers. */
import { type JsonObject, arr, isRecord, obj, parseJson, str } from '../providers/common/json';
import { contentText } from '../providers/common/openai-text';
import { usageFromOpenAI } from '../providers/common/usage';
import type { Usage } from '../providers/types';
import { claudeStopReason } from './claude-stop-reason';

/** Claude's usage object: its input count excludes cache reads, which are reported apart. */
export function claudeUsageBody(usage: Usage | undefined): JsonObject {
  if (!usage) return { input_tokens: 0, output_tokens: 0 };
  const cached = usage.cachedTokens ?? 0;
  const body: JsonObject = {
    input_tokens: usage.promptExcludesCache ? usage.promptTokens : Math.max(0, usage.promptTokens - cached),
    output_tokens: usage.completionTokens,
  };
  if (cached) body.cache_read_input_tokens = cached;
  if (usage.cacheCreationTokens) body.cache_creation_input_tokens = usage.cacheCreationTokens;
  return body;
}

/** `model` is the name the client asked for. */
export function claudeMessageFromOpenAI(body: unknown, model: string): JsonObject {
  const answer = obj(body);
  const choice = obj(arr(answer.choices)[0]);
  const message = obj(choice.message);
  const content: JsonObject[] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = contentText(message.content, '');
  if (text) content.push({ type: 'text', text });
  for (const raw of arr(message.tool_calls)) {
    const call = obj(raw);
    const fn = obj(call.function);
    const input = parseJson(str(fn.arguments) ?? '');
    content.push({ type: 'tool_use', id: str(call.id) ?? '', name: str(fn.name) ?? '', input: isRecord(input) ? input : {} });
  }
  const hasTools = content.some((block) => block.type === 'tool_use');
  return {
    id: str(answer.id) ?? '',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: hasTools ? 'tool_use' : claudeStopReason(choice.finish_reason),
    stop_sequence: null,
    usage: claudeUsageBody(usageFromOpenAI(answer.usage)),
  };
}
