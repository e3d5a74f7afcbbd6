/**
 * Xunfei Spark (type 18): OpenAI chat to Spark's WebSocket API and back. The request goes to a
 * `wss://` URL (the relay's WebSocket transport sends the body as the one message and presents
 * the answer frames as SSE events); `authorize` signs the URL (meta.ts).
 */
import { type Provider, ProviderRequestError, type RelayMode } from '../types';
import { signXunfeiUrl, xunfeiDomain, xunfeiKey, xunfeiUrl, xunfeiVersion } from './meta';
import { xunfeiRequestBody } from './request';
import { parseXunfeiError, parseXunfeiResponse } from './response';
import { XunfeiToOpenAIStream } from './stream';

const MODES: ReadonlySet<RelayMode> = new Set(['chat']);

function assertChat(mode: RelayMode): void {
  if (mode !== 'chat') throw new ProviderRequestError(`${mode} is not supported by Xunfei Spark channels`, 'not_supported');
}

export const xunfeiProvider: Provider = {
  id: 'xunfei',
  modes: MODES,

  buildRequest(mode, body, target) {
    assertChat(mode);
    const key = xunfeiKey(target.key);
    const version = xunfeiVersion(target);
    const domain = xunfeiDomain(version);
    return { url: xunfeiUrl(target, version), method: 'GET', headers: {}, body: JSON.stringify(xunfeiRequestBody(body, key.appId, domain, version)), model: domain };
  },

  async authorize(request, target) {
    return { ...request, url: signXunfeiUrl(request.url, xunfeiKey(target.key)) };
  },

  parseResponse(mode, json, target) {
    assertChat(mode);
    return parseXunfeiResponse(json, target.upstreamModel);
  },

  createStream(mode, target, client) {
    assertChat(mode);
    return new XunfeiToOpenAIStream(target.upstreamModel, client.includeUsage);
  },

  parseError: parseXunfeiError,
};
