/**
 * Tencent Hunyuan (type 23): OpenAI chat to the ChatCompletions action and back, plain and
 * streamed; `authorize` signs the final body with TC3-HMAC-SHA256 (sign.ts).
 */
import { chatOnlyProvider } from '../common/chat-only';
import { joinUrl } from '../common/urls';
import { tencentKey } from './api';
import { tencentChatBody } from './request';
import { parseTencentError, parseTencentResponse } from './response';
import { signTencentRequest } from './sign';
import { TencentToOpenAIStream } from './stream';

export const tencentProvider = chatOnlyProvider({
  id: 'tencent',
  label: 'Tencent Hunyuan',

  request(body, target, stream) {
    tencentKey(target.key);
    const model = target.upstreamModel;
    return { url: joinUrl(target.baseUrl, '/'), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tencentChatBody(body, model, stream)), model };
  },

  authorize: async (request, target) => signTencentRequest(request, tencentKey(target.key)),
  response: (json, target) => parseTencentResponse(json, target.upstreamModel),
  stream: (target, includeUsage) => new TencentToOpenAIStream(target.upstreamModel, includeUsage),
  parseError: parseTencentError,
});
