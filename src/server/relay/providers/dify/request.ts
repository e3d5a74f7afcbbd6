/**
 * OpenAI chat -> Dify's `/v1/chat-messages` body. As the reference does, every turn goes into
 * `query` as one transcript (`SYSTEM: `, `ASSISTANT: `, `USER: ` blocks) and no
 * `conversation_id` is sent: each request is a new Dify conversation, and the client's history
 * is what the app sees. Images by URL become `remote_url` files; inline (data URL) images would
 * need an upload to Dify first, which a pure request conversion cannot make, so they are refused.
 */
import { type JsonObject, arr, obj, str } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

interface DifyFile {
  type: 'image';
  transfer_mode: 'remote_url';
  url: string;
}

function userParts(content: unknown, files: DifyFile[]): string {
  if (typeof content === 'string') return `USER: \n${content}\n`;
  let text = '';
  for (const part of arr(content)) {
    const p = obj(part);
    if (p.type === 'text') text += `USER: \n${str(p.text) ?? ''}\n`;
    else if (p.type === 'image_url') {
      const url = str(obj(p.image_url).url) ?? str(p.image_url) ?? '';
      if (!/^https?:\/\//i.test(url)) throw new ProviderRequestError('Dify channels take images by http(s) URL only', 'invalid_request');
      files.push({ type: 'image', transfer_mode: 'remote_url', url });
    }
  }
  return text;
}

/** `user`: the client's own, else `fallbackUser` (a fresh id per request, as the reference's response id). */
export function difyChatRequest(body: JsonObject, stream: boolean, fallbackUser: string): JsonObject {
  const messages = arr(body.messages);
  if (messages.length === 0) throw new ProviderRequestError('messages must not be empty', 'invalid_request');
  const files: DifyFile[] = [];
  let query = '';
  for (const raw of messages) {
    const m = obj(raw);
    if (m.role === 'system' || m.role === 'developer') query += `SYSTEM: \n${contentText(m.content)}\n`;
    else if (m.role === 'assistant') query += `ASSISTANT: \n${contentText(m.content, '')}\n`;
    else query += userParts(m.content, files);
  }
  return {
    inputs: {},
    query,
    response_mode: stream ? 'streaming' : 'blocking',
    user: str(body.user) || fallbackUser,
    auto_generate_name: false,
    files,
  };
}
