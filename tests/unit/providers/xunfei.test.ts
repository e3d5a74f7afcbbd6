/** Xunfei Spark's pure adaptors: key, version and domain, the signed URL, the request message, frames. */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signXunfeiUrl, xunfeiDomain, xunfeiKey, xunfeiUrl, xunfeiVersion } from '../../../src/server/relay/providers/xunfei/api';
import { xunfeiRequestBody } from '../../../src/server/relay/providers/xunfei/request';
import { parseXunfeiResponse } from '../../../src/server/relay/providers/xunfei/response';
import { XunfeiToOpenAIStream } from '../../../src/server/relay/providers/xunfei/stream';
import { ChannelKeyError } from '../../../src/server/relay/providers/types';
import { runStream, target } from './helpers';

const KEY = { appId: 'app', apiSecret: 'secret', apiKey: 'key' };

describe('Xunfei key, version, URL and signature', () => {
  it('reads AppId|APISecret|APIKey and refuses anything else', () => {
    expect(xunfeiKey('app|secret|key')).toEqual(KEY);
    for (const bad of ['app|secret', 'a||k', 'a|b|c|d']) expect(() => xunfeiKey(bad), bad).toThrow(ChannelKeyError);
  });

  it('takes the version from the model suffix, else other, else v2.1; the domain per version', () => {
    expect(xunfeiVersion(target({ upstreamModel: 'SparkDesk-v3.5', other: 'v1.1' }))).toBe('v3.5');
    expect(xunfeiVersion(target({ upstreamModel: 'SparkDesk', other: 'v4.0' }))).toBe('v4.0');
    expect(xunfeiVersion(target({ upstreamModel: 'SparkDesk', other: '' }))).toBe('v2.1');
    expect(['v1.1', 'v2.1', 'v3.1', 'v3.5', 'v4.0', 'v9'].map(xunfeiDomain)).toEqual(['lite', 'generalv2', 'generalv3', 'generalv3.5', '4.0Ultra', 'generalv9']);
    expect(xunfeiUrl(target({ baseUrl: '' }), 'v3.5')).toBe('wss://spark-api.xf-yun.com/v3.5/chat');
    expect(xunfeiUrl(target({ baseUrl: 'http://127.0.0.1:9/' }), 'v1.1')).toBe('ws://127.0.0.1:9/v1.1/chat');
  });

  it('signs host, date and the request line with the API secret into the URL', () => {
    const now = new Date(Date.UTC(2026, 10, 25, 6, 0, 0));
    const url = new URL(signXunfeiUrl('wss://spark-api.xf-yun.com/v3.5/chat', KEY, now));
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    expect(url.searchParams.get('date')).toBe('Wed, 25 Nov 2026 06:00:00 GMT');
    const signature = createHmac('sha256', 'secret').update('host: spark-api.xf-yun.com\ndate: Wed, 25 Nov 2026 06:00:00 GMT\nGET /v3.5/chat HTTP/1.1').digest('base64');
    expect(Buffer.from(url.searchParams.get('authorization')!, 'base64').toString()).toBe(`api_key="key", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`);
  });
});

describe('Xunfei request and frames', () => {
  it('keeps system from v3.5 on, turns it into a user turn answered Okay before', () => {
    const body = {
      max_tokens: 10,
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'hi' },
      ],
    };
    expect(xunfeiRequestBody(body, 'app', 'generalv3.5', 'v3.5')).toEqual({
      header: { app_id: 'app' },
      parameter: { chat: { domain: 'generalv3.5', max_tokens: 10 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 's' },
            { role: 'user', content: 'hi' },
          ],
        },
      },
    });
    expect((xunfeiRequestBody(body, 'app', 'lite', 'v1.1').payload as { message: { text: unknown[] } }).message.text).toEqual([
      { role: 'user', content: 's' },
      { role: 'assistant', content: 'Okay' },
      { role: 'user', content: 'hi' },
    ]);
  });

  const frame = (status: number, content: string, usage?: object) =>
    JSON.stringify({
      header: { code: 0, message: 'Success', sid: 'cht1', status },
      payload: { choices: { status, seq: 0, text: [{ content, role: 'assistant', index: 0 }] }, ...(usage ? { usage: { text: usage } } : {}) },
    });

  it('joins the frames of a whole answer (as SSE events) and bills the last usage; an error frame is an error', () => {
    const text = [frame(0, 'Hel'), frame(2, 'lo', { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })].map((f) => `data: ${f}\n\n`).join('');
    const ok = parseXunfeiResponse(text, 'SparkDesk');
    expect(ok.body).toMatchObject({ id: 'cht1', choices: [{ message: { content: 'Hello' }, finish_reason: 'stop' }] });
    expect(ok.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    const refused = parseXunfeiResponse(`data: ${JSON.stringify({ header: { code: 11201, message: 'licc limit', sid: 's', status: 2 } })}\n\n`, 'SparkDesk');
    expect(refused.error).toMatchObject({ status: 429, message: 'licc limit', code: 11201 });
  });

  it('streams each frame as a chunk and finishes on status 2', () => {
    const run = runStream(new XunfeiToOpenAIStream('SparkDesk', true), [{ data: frame(0, 'a') }, { data: frame(2, 'b', { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }) }]);
    expect(run.text).toBe('ab');
    expect(run.usage).toEqual({ promptTokens: 1, completionTokens: 2 });
    expect(run.json.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });
});
