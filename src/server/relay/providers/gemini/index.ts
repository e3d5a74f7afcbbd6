/**
 * Google Gemini (type 24): chat (plain and streamed), embeddings and Imagen images, and
 * Gemini's own API for Gemini-native callers (modes `gemini`, `gemini-embeddings`).
 */
import { parseUpstreamError } from '../common/errors';
import { joinUrl } from '../common/urls';
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { geminiRequestFromOpenAI } from './chat-request';
import { openaiResponseFromGemini } from './chat-response';
import { GeminiToOpenAIStream } from './chat-stream';
import { geminiEmbeddingRequest, openaiEmbeddingsFromGemini } from './embeddings';
import { imagenRequest, openaiImagesFromImagen } from './images';
import { embeddingAction, GeminiPassThroughStream, nativeEmbeddingBody, nativeGenerateBody, parseNativeResponse } from './native';
import { geminiHeaders, isImagenModel, modelActionUrl } from './api';

const MODES: ReadonlySet<RelayMode> = new Set(['chat', 'embeddings', 'images', 'gemini', 'gemini-embeddings']);

export const geminiProvider: Provider = {
  id: 'gemini',
  modes: MODES,

  buildRequest(mode, body, target, stream) {
    const model = target.upstreamModel;
    const headers = geminiHeaders(target, stream);
    switch (mode) {
      case 'chat': {
        const url = modelActionUrl(target, model, stream ? 'streamGenerateContent' : 'generateContent') + (stream ? '?alt=sse' : '');
        return { url, method: 'POST', headers, body: JSON.stringify(geminiRequestFromOpenAI(body, target.options)), model };
      }
      case 'embeddings': {
        const { action, json } = geminiEmbeddingRequest(body, model);
        return { url: modelActionUrl(target, model, action), method: 'POST', headers, body: JSON.stringify(json), model };
      }
      case 'images':
        if (!isImagenModel(model)) throw new ProviderRequestError(`${model} is not an Imagen model`, 'not_supported');
        return { url: modelActionUrl(target, model, 'predict'), method: 'POST', headers, body: JSON.stringify(imagenRequest(body)), model };
      case 'gemini': {
        // Upstream streams always come as SSE; a client that asked for a JSON array gets one from the relay.
        const url = modelActionUrl(target, model, stream ? 'streamGenerateContent' : 'generateContent') + (stream ? '?alt=sse' : '');
        return { url, method: 'POST', headers, body: nativeGenerateBody(body, target), model };
      }
      case 'gemini-embeddings':
        return { url: modelActionUrl(target, model, embeddingAction(body)), method: 'POST', headers, body: nativeEmbeddingBody(body, target), model };
      default:
        throw new ProviderRequestError(`${mode} is not supported by Gemini channels`, 'not_supported');
    }
  },

  parseResponse(mode, json, target) {
    if (mode === 'embeddings') return openaiEmbeddingsFromGemini(json, target.upstreamModel);
    if (mode === 'images') return openaiImagesFromImagen(json);
    if (mode === 'gemini' || mode === 'gemini-embeddings') return parseNativeResponse(json);
    return openaiResponseFromGemini(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    if (mode === 'gemini') return new GeminiPassThroughStream();
    if (mode !== 'chat') throw new ProviderRequestError(`${mode} does not stream`, 'not_supported');
    return new GeminiToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseUpstreamError,

  modelsRequest(target) {
    return { url: joinUrl(target.baseUrl, '/v1beta/models?pageSize=1000'), method: 'GET', headers: { 'x-goog-api-key': target.key } };
  },
};
