/** Zhipu v3's pure adaptors: key, JWT, prompt, answer, the `meta:` usage of its stream. */
import { compactVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { zhipuKey, zhipuToken } from '../../../src/server/relay/providers/zhipu/api';
import { zhipuRequestBody } from '../../../src/server/relay/providers/zhipu/request';
import { parseZhipuError, parseZhipuResponse } from '../../../src/server/relay/providers/zhipu/response';
import { ZhipuToOpenAIStream } from '../../../src/server/relay/providers/zhipu/stream';
import { SseParser } from '../../../src/server/relay/stream/sse-parser';
import { zhipuProvider } from '../../../src/server/relay/providers/zhipu';
import { ChannelKeyError } from '../../../src/server/relay/providers/types';
import { runStream, target } from './helpers';

describe('Zhipu v3 key and token', () => {
  it('reads id.secret and refuses anything else', () => {
    expect(zhipuKey('abc.def')).toEqual({ id: 'abc', secret: 'def' });
    for (const bad of ['abc', 'a.b.c', '.def', 'abc.']) expect(() => zhipuKey(bad), bad).toThrow(ChannelKeyError);
  });

  it('signs an HS256 JWT with sign_type SIGN, api_key and millisecond exp/timestamp', async () => {
    const token = await zhipuToken({ id: 'abc', secret: 'def' }, 1_700_000_000_000);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    const { payload } = await compactVerify(token, new TextEncoder().encode('def'));
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ api_key: 'abc', exp: 1_700_000_300_000, timestamp: 1_700_000_000_000 });
    await expect(compactVerify(token, new TextEncoder().encode('other'))).rejects.toThrow();
  });
});

describe('Zhipu v3 request and answer', () => {
  it('builds the invoke / sse-invoke URL and the prompt (system as a user turn answered Okay, top_p below 1)', () => {
    const t = target({ channelType: 16, baseUrl: 'https://open.bigmodel.cn', key: 'abc.def', upstreamModel: 'chatglm_pro' });
    const body = {
      model: 'chatglm_pro',
      top_p: 1,
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      ],
    };
    expect(zhipuProvider.buildRequest('chat', body, t, false).url).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_pro/invoke');
    expect(zhipuProvider.buildRequest('chat', body, t, true).url).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_pro/sse-invoke');
    expect(zhipuRequestBody(body)).toEqual({
      prompt: [
        { role: 'user', content: 's' },
        { role: 'assistant', content: 'Okay' },
        { role: 'user', content: 'hi' },
      ],
      top_p: 0.99,
    });
    expect(() => zhipuProvider.buildRequest('embeddings', body, t, false)).toThrow(/not supported/);
  });

  it("unquotes the answer and reads usage; success false is an error with Zhipu's message and code", () => {
    const ok = parseZhipuResponse(
      {
        code: 200,
        msg: '操作成功',
        success: true,
        data: { task_id: 't1', choices: [{ role: 'assistant', content: '"Hi \\"there\\""' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      },
      'chatglm_pro',
    );
    expect(ok.body).toMatchObject({ id: 't1', choices: [{ message: { content: 'Hi "there"' }, finish_reason: 'stop' }] });
    expect(ok.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    const refused = parseZhipuResponse({ code: 1261, msg: 'Prompt 超长', success: false }, 'chatglm_pro');
    expect(refused.error).toMatchObject({ message: 'Prompt 超长', code: 1261 });
    expect(parseZhipuError(401, '{"code":401,"msg":"令牌已过期或验证不正确！","success":false}')).toMatchObject({ status: 401, message: '令牌已过期或验证不正确！' });
  });
});

describe('Zhipu v3 stream', () => {
  it('keeps the meta line of finish on the event and bills its usage', () => {
    const decoder = new SseParser({ extraField: zhipuProvider.sseExtraField! });
    const wire =
      'id: 1\nevent: add\ndata: Hel\n\nid: 1\nevent: add\ndata: lo\ndata: you\n\nid: 1\nevent: finish\ndata: \nmeta: {"task_status":"SUCCESS","usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7}}\n\n';
    const events = decoder.push(new TextEncoder().encode(wire));
    expect(events).toEqual([
      { event: 'add', data: 'Hel' },
      { event: 'add', data: 'lo\nyou' },
      { event: 'finish', data: '', extra: '{"task_status":"SUCCESS","usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7}}' },
    ]);
    const run = runStream(new ZhipuToOpenAIStream('chatglm_pro', true), events);
    expect(run.text).toBe('Hello\nyou');
    expect(run.usage).toEqual({ promptTokens: 4, completionTokens: 3 });
    expect(run.json.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } });
    expect(run.json.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });

  it('ends with an error on error and interrupted events', () => {
    const run = runStream(new ZhipuToOpenAIStream('m', false), [
      { event: 'add', data: 'x' },
      { event: 'error', data: '系统繁忙' },
    ]);
    expect(run.errors).toEqual([{ status: 500, message: '系统繁忙', type: 'zhipu_error', code: 'error' }]);
  });
});
