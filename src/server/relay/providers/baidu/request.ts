/**
 * OpenAI chat -> ERNIE's body: system messages go to `system`, the others to `messages`
 * (text only); `frequency_penalty` -> `penalty_score`, `max_tokens` -> `max_output_tokens`
 * (at least 2, ERNIE's minimum), `user` -> `user_id`. Embeddings: `{input: [texts]}`.
 */
import { type JsonObject, arr, isRecord, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

export function baiduChatBody(body: JsonObject, stream: boolean): JsonObject {
  const system: string[] = [];
  const messages: { role: string; content: string }[] = [];
  for (const message of arr(body.messages)) {
    if (!isRecord(message)) continue;
    const content = contentText(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(content);
    else messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
  }
  if (messages.length === 0) throw new ProviderRequestError('messages must contain a user message');
  const out: JsonObject = { messages };
  if (system.length > 0) out.system = system.join('\n');
  if (typeof body.temperature === 'number') out.temperature = body.temperature;
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  if (typeof body.frequency_penalty === 'number' && body.frequency_penalty !== 0) out.penalty_score = body.frequency_penalty;
  const maxTokens = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof maxTokens === 'number' && maxTokens > 0) out.max_output_tokens = Math.max(2, maxTokens);
  if (str(body.user)) out.user_id = body.user;
  if (stream) out.stream = true;
  return out;
}

export function baiduEmbeddingBody(body: JsonObject): JsonObject {
  const input = typeof body.input === 'string' ? [body.input] : arr(body.input).filter((item): item is string => typeof item === 'string');
  if (input.length === 0) throw new ProviderRequestError('input must be a string or an array of strings');
  return { input };
}
