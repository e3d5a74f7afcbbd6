/**
 * Xunfei Spark (type 18): OpenAI chat to Spark's WebSocket API and back. The request goes to a
 * `wss://` URL (the relay's WebSocket transport sends the body as the one message and presents
 * the answer frames as SSE events); `authorize` signs the URL (api.ts).
 */
import { chatOnlyProvider } from '../common/chat-only';
import { signXunfeiUrl, xunfeiDomain, xunfeiKey, xunfeiUrl, xunfeiVersion } from './api';
import { xunfeiRequestBody } from './request';
import { parseXunfeiError, parseXunfeiResponse } from './response';
import { XunfeiToOpenAIStream } from './stream';

export const xunfeiProvider = chatOnlyProvider({
  id: 'xunfei',
  label: 'Xunfei Spark',

  request(body, target) {
    const key = xunfeiKey(target.key);
    const version = xunfeiVersion(target);
    const domain = xunfeiDomain(version);
    return { url: xunfeiUrl(target, version), method: 'GET', headers: {}, body: JSON.stringify(xunfeiRequestBody(body, key.appId, domain, version)), model: domain };
  },

  authorize: async (request, target) => ({ ...request, url: signXunfeiUrl(request.url, xunfeiKey(target.key)) }),
  response: (json, target) => parseXunfeiResponse(json, target.upstreamModel),
  stream: (target, includeUsage) => new XunfeiToOpenAIStream(target.upstreamModel, includeUsage),
  parseError: parseXunfeiError,
});
