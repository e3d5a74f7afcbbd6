/** OpenAI chat -> Hunyuan's ChatCompletions body (`Model`, `Messages` of `{Role, Content}`, `Stream`, `TopP`, `Temperature`). */
import { type JsonObject, arr, isRecord, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

export function tencentChatBody(body: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = arr(body.messages)
    .filter(isRecord)
    .map((message) => ({ Role: str(message.role) === 'developer' ? 'system' : (str(message.role) ?? 'user'), Content: contentText(message.content) }));
  if (messages.length === 0) throw new ProviderRequestError('messages must not be empty');
  const out: JsonObject = { Model: model, Messages: messages, Stream: stream };
  if (typeof body.top_p === 'number') out.TopP = body.top_p;
  if (typeof body.temperature === 'number') out.Temperature = body.temperature;
  return out;
}
