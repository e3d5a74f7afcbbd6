/**
 * Zhipu ChatGLM, v3 model API (type 16): OpenAI chat in, Zhipu's `prompt` body out, its
 * answer and `add`/`finish` stream back as OpenAI chat. The JWT made from the key is added
 * by `authorize` (api.ts).
 */
import { chatOnlyProvider } from '../common/chat-only';
import { jsonHeaders } from '../common/headers';
import { zhipuKey, zhipuToken, zhipuUrl } from './api';
import { zhipuRequestBody } from './request';
import { parseZhipuError, parseZhipuResponse } from './response';
import { ZHIPU_META_FIELD, ZhipuToOpenAIStream } from './stream';

export const zhipuProvider = chatOnlyProvider({
  id: 'zhipu',
  label: 'Zhipu v3',

  request(body, target, stream) {
    zhipuKey(target.key);
    const model = target.upstreamModel;
    return { url: zhipuUrl(target, model, stream), method: 'POST', headers: jsonHeaders(stream), body: JSON.stringify(zhipuRequestBody(body)), model };
  },

  async authorize(request, target) {
    const token = await zhipuToken(zhipuKey(target.key));
    return { ...request, headers: { ...request.headers, authorization: token } };
  },

  response: (json, target) => parseZhipuResponse(json, target.upstreamModel),
  stream: (target, includeUsage) => new ZhipuToOpenAIStream(target.upstreamModel, includeUsage),
  sseExtraField: ZHIPU_META_FIELD,
  parseError: parseZhipuError,
});
