/**
 * OpenAI chat -> Zhipu v3 `{prompt, temperature, top_p}`. The v3 prompt knows only user and
 * assistant turns: a system message becomes a user turn answered "Okay". `top_p` must stay
 * below 1.
 */
import { type JsonObject, arr, isRecord, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

export interface ZhipuMessage {
  role: string;
  content: string;
}

export function zhipuPrompt(messages: unknown): ZhipuMessage[] {
  const prompt: ZhipuMessage[] = [];
  for (const message of arr(messages)) {
    if (!isRecord(message)) continue;
    const role = str(message.role) ?? 'user';
    const content = contentText(message.content);
    if (role === 'system') prompt.push({ role: 'user', content }, { role: 'assistant', content: 'Okay' });
    else prompt.push({ role: role === 'assistant' ? 'assistant' : 'user', content });
  }
  return prompt;
}

export function zhipuRequestBody(body: JsonObject): JsonObject {
  const prompt = zhipuPrompt(body.messages);
  if (prompt.length === 0) throw new ProviderRequestError('messages must not be empty');
  const out: JsonObject = { prompt };
  if (typeof body.temperature === 'number') out.temperature = body.temperature;
  if (typeof body.top_p === 'number') out.top_p = body.top_p >= 1 ? 0.99 : body.top_p;
  return out;
}
