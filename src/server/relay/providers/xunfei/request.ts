/**
 * OpenAI chat -> Spark's request message: `{header: {app_id}, parameter: {chat: {domain,
 * temperature, max_tokens, top_k}}, payload: {message: {text: [{role, content}]}}}`. Versions
 * before 3.5 know no system role: a system message becomes a user turn answered "Okay".
 */
import { type JsonObject, arr, isRecord, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

export function xunfeiRequestBody(body: JsonObject, appId: string, domain: string, version: string): JsonObject {
  const systemRole = Number.parseFloat(version.slice(1)) >= 3.5;
  const text: { role: string; content: string }[] = [];
  for (const message of arr(body.messages)) {
    if (!isRecord(message)) continue;
    const role = str(message.role) ?? 'user';
    const content = contentText(message.content);
    if (role === 'system' || role === 'developer') {
      if (systemRole) text.push({ role: 'system', content });
      else text.push({ role: 'user', content }, { role: 'assistant', content: 'Okay' });
    } else {
      text.push({ role: role === 'assistant' ? 'assistant' : 'user', content });
    }
  }
  if (text.length === 0) throw new ProviderRequestError('messages must not be empty');
  const chat: JsonObject = { domain };
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  const maxTokens = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof maxTokens === 'number' && maxTokens > 0) chat.max_tokens = maxTokens;
  if (typeof body.top_k === 'number') chat.top_k = body.top_k;
  const header: JsonObject = { app_id: appId };
  if (str(body.user)) header.uid = String(body.user).slice(0, 32);
  return { header, parameter: { chat }, payload: { message: { text } } };
}
