/**
 * Tencent Hunyuan (type 23): OpenAI chat to the ChatCompletions action and back, plain and
 * streamed; `authorize` signs the final body with TC3-HMAC-SHA256 (sign.ts).
 */
import { joinUrl } from '../common/urls';
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { tencentKey } from './meta';
import { tencentChatBody } from './request';
import { parseTencentError, parseTencentResponse } from './response';
import { signTencentRequest } from './sign';
import { TencentToOpenAIStream } from './stream';

const MODES: ReadonlySet<RelayMode> = new Set(['chat']);

function assertChat(mode: RelayMode): void {
  if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by Tencent Hunyuan channels`, 'not_supported');
}

export const tencentProvider: Provider = {
  id: 'tencent',
  modes: MODES,

  buildRequest(mode, body, target, stream) {
    assertChat(mode);
    tencentKey(target.key);
    const model = target.upstreamModel;
    return { url: joinUrl(target.baseUrl, '/'), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tencentChatBody(body, model, stream)), model };
  },

  async authorize(request, target) {
    return signTencentRequest(request, tencentKey(target.key));
  },

  parseResponse(mode, json, target) {
    assertChat(mode);
    return parseTencentResponse(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertChat(mode);
    return new TencentToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseTencentError,
};
