/**
 * Zhipu ChatGLM, v3 model API (type 16): OpenAI chat in, Zhipu's `prompt` body out, its
 * answer and `add`/`finish` stream back as OpenAI chat. The JWT made from the key is added
 * by `authorize` (meta.ts).
 */
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { zhipuKey, zhipuToken, zhipuUrl } from './meta';
import { zhipuRequestBody } from './request';
import { parseZhipuError, parseZhipuResponse } from './response';
import { ZHIPU_META_FIELD, ZhipuToOpenAIStream } from './stream';

const MODES: ReadonlySet<RelayMode> = new Set(['chat']);

function assertChat(mode: RelayMode): void {
  if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by Zhipu v3 channels`, 'not_supported');
}

export const zhipuProvider: Provider = {
  id: 'zhipu',
  modes: MODES,

  buildRequest(mode, body, target, stream) {
    assertChat(mode);
    zhipuKey(target.key);
    const model = target.upstreamModel;
    const headers: Record<string, string> = stream ? { 'content-type': 'application/json', accept: 'text/event-stream' } : { 'content-type': 'application/json' };
    return { url: zhipuUrl(target, model, stream), method: 'POST', headers, body: JSON.stringify(zhipuRequestBody(body)), model };
  },

  async authorize(request, target) {
    const token = await zhipuToken(zhipuKey(target.key));
    return { ...request, headers: { ...request.headers, authorization: token } };
  },

  parseResponse(mode, json, target) {
    assertChat(mode);
    return parseZhipuResponse(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertChat(mode);
    return new ZhipuToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  sseExtraField: ZHIPU_META_FIELD,
  parseError: parseZhipuError,
};
