/** Baidu v1's pure adaptors: key and token grant, endpoints, ERNIE body, answers, errors, stream. */
import { describe, expect, it } from 'vitest';
import { baiduKey, baiduTokenGrant, baiduUrl } from '../../../src/server/relay/providers/baidu/api';
import { baiduChatBody } from '../../../src/server/relay/providers/baidu/request';
import { baiduErrorOf, parseBaiduChat } from '../../../src/server/relay/providers/baidu/response';
import { BaiduToOpenAIStream } from '../../../src/server/relay/providers/baidu/stream';
import { ChannelKeyError } from '../../../src/server/relay/providers/types';
import { events, runStream, target } from './helpers';

const t = target({ channelType: 15, baseUrl: 'https://aip.baidubce.com', key: 'id|secret' });

describe('Baidu v1 key, token grant and endpoints', () => {
  it('reads ClientId|ClientSecret or an access token; refuses anything else', () => {
    expect(baiduKey('id|secret')).toEqual({ clientId: 'id', clientSecret: 'secret' });
    expect(baiduKey('24.abc')).toEqual({ accessToken: '24.abc' });
    for (const bad of ['', 'a|b|c', '|b', 'a|']) expect(() => baiduKey(bad), bad).toThrow(ChannelKeyError);
  });

  it("asks the base URL's token endpoint with the client credentials in the query", async () => {
    const grant = baiduTokenGrant(t, { clientId: 'id', clientSecret: 's/e' });
    expect(await grant.request()).toEqual({ url: 'https://aip.baidubce.com/oauth/2.0/token?grant_type=client_credentials&client_id=id&client_secret=s%2Fe', form: {}, fromKey: false });
    expect(grant.secret).not.toBe(baiduTokenGrant({ ...t, baseUrl: 'https://mirror.example.com' }, { clientId: 'id', clientSecret: 's/e' }).secret);
  });

  it('names the wenxinworkshop endpoint of a model', () => {
    expect(baiduUrl(t, 'ERNIE-4.0-8K')).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(baiduUrl(t, 'ERNIE-Character-8K')).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-character-8k');
    expect(baiduUrl(t, 'Embedding-V1')).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
  });
});

describe('Baidu v1 bodies and answers', () => {
  it('puts system apart and maps the sampling fields', () => {
    expect(
      baiduChatBody(
        {
          messages: [
            { role: 'system', content: 's' },
            { role: 'user', content: 'hi' },
          ],
          max_tokens: 1,
          temperature: 0.5,
          user: 'u',
        },
        true,
      ),
    ).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      system: 's',
      temperature: 0.5,
      max_output_tokens: 2,
      user_id: 'u',
      stream: true,
    });
    expect(() => baiduChatBody({ messages: [{ role: 'system', content: 's' }] }, false)).toThrow(/user message/);
  });

  it('reads result and usage (completion = total − prompt); error codes get their status', () => {
    const ok = parseBaiduChat({ id: 'as-1', created: 1, result: 'hi', usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 5 } }, 'ERNIE-3.5-8K');
    expect(ok.body).toMatchObject({ id: 'as-1', choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] });
    expect(ok.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    expect(baiduErrorOf({ error_code: 110, error_msg: 'Access token invalid or no longer valid' })).toMatchObject({ status: 401, code: 110 });
    expect(baiduErrorOf({ error_code: 18, error_msg: 'Open api qps request limit reached' })).toMatchObject({ status: 429 });
    expect(baiduErrorOf({ error_code: 336003, error_msg: 'bad' })).toMatchObject({ status: 400 });
    expect(baiduErrorOf({ result: 'fine' })).toBeUndefined();
  });
});

describe('Baidu v1 stream', () => {
  it('turns data events into chunks, finishes on is_end, bills the last usage', () => {
    const run = runStream(
      new BaiduToOpenAIStream('ERNIE-3.5-8K', true),
      events({ result: 'a', is_end: false, usage: { prompt_tokens: 4, total_tokens: 5 } }, { result: 'b', is_end: true, usage: { prompt_tokens: 4, total_tokens: 7 } }),
    );
    expect(run.text).toBe('ab');
    expect(run.usage).toEqual({ promptTokens: 4, completionTokens: 3 });
    expect(run.json.at(-2)).toMatchObject({ choices: [{ delta: { content: 'b' }, finish_reason: 'stop' }] });
  });

  it('reports a JSON error body in place of the stream, and an error event', () => {
    const stream = new BaiduToOpenAIStream('m', false);
    expect(stream.onChunk('{"error_code":17,"error_msg":"Open api daily request limit reached"}')).toMatchObject({ status: 429, message: 'Open api daily request limit reached' });
    expect(stream.onChunk('data: {"result":"a"}\n\n')).toBeUndefined();
    const run = runStream(new BaiduToOpenAIStream('m', false), events({ error_code: 336100, error_msg: 'internal error' }));
    expect(run.errors).toEqual([{ status: 500, message: 'internal error', type: 'baidu_error', code: 336100 }]);
  });
});
