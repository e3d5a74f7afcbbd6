/**
 * Dify (type 37): an app's chat API (`/v1/chat-messages`, the app's API key as Bearer), blocking
 * or streamed, converted from and to OpenAI chat. The model name only prices the call: the app
 * behind the key decides what answers. Errors are `{code, message, status}` (read by the shared
 * error reader).
 */
import { newId } from '../common/chunks';
import { parseUpstreamError } from '../common/errors';
import { type Provider, ProviderRequestError } from '../types';
import { difyChatUrl, difyHeaders } from './api';
import { difyChatRequest } from './request';
import { openaiChatFromDify } from './response';
import { DifyToOpenAIStream } from './stream';

export const difyProvider: Provider = {
  id: 'dify',
  modes: new Set(['chat']),

  buildRequest(mode, body, target, stream) {
    if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by this channel type`, 'not_supported');
    const json = difyChatRequest(body, stream, newId('chatcmpl-'));
    return { url: difyChatUrl(target), method: 'POST', headers: difyHeaders(target, stream), model: target.upstreamModel, body: JSON.stringify(json) };
  },

  parseResponse(_mode, json, target) {
    return openaiChatFromDify(json, target.upstreamModel);
  },

  createStream(_mode, target, client) {
    return new DifyToOpenAIStream(target.upstreamModel, client.includeUsage, target.options.difyDebug ?? true);
  },

  parseError: parseUpstreamError,
};
