/**
 * OpenAI chat -> AIProxy's `/api/library/ask` body. The library API takes one question, not a
 * conversation: the last user message's text is the `query` (the knowledge base, not the
 * client's history, is the context), `libraryId` names the knowledge base.
 */
import { type JsonObject, arr, obj } from '../common/json';
import { contentText } from '../common/openai-text';
import { ProviderRequestError } from '../types';

export function aiproxyAskRequest(body: JsonObject, model: string, libraryId: string, stream: boolean): JsonObject {
  const messages = arr(body.messages).map(obj);
  const last = messages.findLast((m) => m.role === 'user');
  const query = last ? contentText(last.content) : '';
  if (!query) throw new ProviderRequestError('an AI Proxy Library channel needs a user message with text to ask', 'invalid_request');
  return { model, query, libraryId, stream };
}
