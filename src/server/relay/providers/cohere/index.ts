/**
 * Cohere (type 34): its own v2 API — chat (`/v2/chat`, streamed as typed events), embeddings
 * (`/v2/embed`) and rerank (`/v2/rerank`) — converted from and to the OpenAI / rerank formats.
 * Errors are `{message}` (read by the shared error reader).
 */
import { parseUpstreamError } from '../common/errors';
import type { JsonObject } from '../common/json';
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { cohereChatRequest } from './chat-request';
import { openaiChatFromCohere } from './chat-response';
import { CohereToOpenAIStream } from './chat-stream';
import { cohereEmbedRequest, openaiEmbeddingsFromCohere } from './embed';
import { COHERE_PATHS, cohereHeaders, cohereUrl } from './api';
import { cohereRerankRequest, rerankFromCohere } from './rerank';

function cohereBody(mode: RelayMode, body: JsonObject, model: string, stream: boolean, safetyMode?: string): JsonObject {
  if (mode === 'embeddings') return cohereEmbedRequest(body, model);
  if (mode === 'rerank') return cohereRerankRequest(body, model);
  return cohereChatRequest(body, model, stream, safetyMode);
}

export const cohereProvider: Provider = {
  id: 'cohere',
  modes: new Set(Object.keys(COHERE_PATHS) as RelayMode[]),

  buildRequest(mode, body, target, stream) {
    const path = COHERE_PATHS[mode];
    if (!path) throw new ProviderRequestError(`${mode} is not supported by this channel type`, 'not_supported');
    const model = target.upstreamModel;
    const json = cohereBody(mode, body, model, stream, target.options.cohereSafetyMode);
    return { url: cohereUrl(target, path), method: 'POST', headers: cohereHeaders(target, stream), model, body: JSON.stringify(json) };
  },

  parseResponse(mode, json, target) {
    if (mode === 'embeddings') return openaiEmbeddingsFromCohere(json, target.upstreamModel);
    if (mode === 'rerank') return rerankFromCohere(json, target.upstreamModel);
    return openaiChatFromCohere(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    if (mode !== 'chat') throw new ProviderRequestError(`${mode} does not stream`, 'not_supported');
    return new CohereToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseUpstreamError,
};
