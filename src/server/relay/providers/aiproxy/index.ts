/**
 * AI Proxy Library (type 21): questions to a knowledge base of AIProxy's library API
 * (`/api/library/ask`), streamed or not, converted from and to OpenAI chat. The model name is
 * passed on and prices the call; the answer's references are appended as Markdown. The API
 * reports no usage, so the relay counts both sides locally.
 */
import { parseUpstreamError } from '../common/errors';
import { type Provider, ProviderRequestError } from '../types';
import { aiproxyAskUrl, aiproxyHeaders, aiproxyLibraryId } from './api';
import { aiproxyAskRequest } from './request';
import { openaiChatFromAiproxy } from './response';
import { AiproxyToOpenAIStream } from './stream';

export const aiproxyProvider: Provider = {
  id: 'aiproxy',
  modes: new Set(['chat']),
  usageCountedLocally: true,

  buildRequest(mode, body, target, stream) {
    if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by this channel type`, 'not_supported');
    const json = aiproxyAskRequest(body, target.upstreamModel, aiproxyLibraryId(target), stream);
    return { url: aiproxyAskUrl(target), method: 'POST', headers: aiproxyHeaders(target, stream), model: target.upstreamModel, body: JSON.stringify(json) };
  },

  parseResponse(_mode, json, target) {
    return openaiChatFromAiproxy(json, target.upstreamModel);
  },

  createStream(_mode, target, client) {
    return new AiproxyToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  // Non-2xx answers carry `{errCode, message}` (its `message` is what the shared reader takes).
  parseError: parseUpstreamError,
};
