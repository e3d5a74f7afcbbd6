/**
 * Baidu Qianfan v1 (type 15): ERNIE chat and the embedding models through wenxinworkshop,
 * converted from and to OpenAI chat / embeddings. `authorize` adds the access token (the
 * key's own, or the client-credentials token the relay fetches and caches, api.ts).
 */
import { withQuery } from '../common/urls';
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { baiduKey, baiduTokenGrant, baiduUrl, isBaiduEmbeddingModel } from './api';
import { baiduChatBody, baiduEmbeddingBody } from './request';
import { parseBaiduChat, parseBaiduEmbeddings, parseBaiduError } from './response';
import { BaiduToOpenAIStream } from './stream';

const MODES: ReadonlySet<RelayMode> = new Set(['chat', 'embeddings']);

function assertMode(mode: RelayMode, model: string): void {
  if (!MODES.has(mode)) throw new ProviderRequestError(`${mode} is not supported by Baidu v1 channels`, 'not_supported');
  if ((mode === 'embeddings') !== isBaiduEmbeddingModel(model)) throw new ProviderRequestError(`model ${model} does not serve ${mode} on Baidu v1 channels`, 'not_supported');
}

export const baiduProvider: Provider = {
  id: 'baidu',
  modes: MODES,

  buildRequest(mode, body, target, stream) {
    const model = target.upstreamModel;
    assertMode(mode, model);
    baiduKey(target.key);
    const upstreamBody = mode === 'embeddings' ? baiduEmbeddingBody(body) : baiduChatBody(body, stream);
    return { url: baiduUrl(target, model), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(upstreamBody), model };
  },

  async authorize(request, target, services) {
    const key = baiduKey(target.key);
    const token = 'accessToken' in key ? key.accessToken : await services.accessToken(baiduTokenGrant(target, key));
    return { ...request, url: withQuery(request.url, { access_token: token }) };
  },

  parseResponse(mode, json, target) {
    return mode === 'embeddings' ? parseBaiduEmbeddings(json, target.upstreamModel) : parseBaiduChat(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertMode(mode, target.upstreamModel);
    return new BaiduToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseBaiduError,
};
