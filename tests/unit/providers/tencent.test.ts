/** Tencent Hunyuan's pure adaptors: key, TC3 signature, body, answer, errors, stream. */
import { describe, expect, it } from 'vitest';
import { tencentKey } from '../../../src/server/relay/providers/tencent/api';
import { tencentChatBody } from '../../../src/server/relay/providers/tencent/request';
import { parseTencentError, parseTencentResponse } from '../../../src/server/relay/providers/tencent/response';
import { signTencentRequest, tc3Authorization } from '../../../src/server/relay/providers/tencent/sign';
import { TencentToOpenAIStream } from '../../../src/server/relay/providers/tencent/stream';
import { ChannelKeyError } from '../../../src/server/relay/providers/types';
import { events, runStream } from './helpers';

const KEY = { appId: '1', secretId: 'AKIDexample', secretKey: 'secret' };

describe('Tencent key and TC3 signature', () => {
  it('reads AppId|SecretId|SecretKey and refuses anything else', () => {
    expect(tencentKey('1300|sid|skey')).toEqual({ appId: '1300', secretId: 'sid', secretKey: 'skey' });
    for (const bad of ['sid|skey', 'app|sid|skey', '1||skey', '1|a|b|c']) expect(() => tencentKey(bad), bad).toThrow(ChannelKeyError);
  });

  it('signs with the UTC date of the timestamp and over the body: another body, another signature', () => {
    const args = { host: 'hunyuan.tencentcloudapi.com', contentType: 'application/json', action: 'ChatCompletions', body: '{"a":1}', timestamp: 1_700_000_000 };
    const one = tc3Authorization(KEY, args);
    expect(one).toMatch(/^TC3-HMAC-SHA256 Credential=AKIDexample\/2023-11-14\/hunyuan\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$/);
    expect(tc3Authorization(KEY, args)).toBe(one);
    expect(tc3Authorization(KEY, { ...args, body: '{"a":2}' })).not.toBe(one);
    expect(tc3Authorization({ ...KEY, secretKey: 'other' }, args)).not.toBe(one);
  });

  it('adds the action, version and timestamp headers', () => {
    const signed = signTencentRequest({ url: 'https://hunyuan.tencentcloudapi.com/', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, KEY, 1_700_000_000_500);
    expect(signed.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01', 'x-tc-timestamp': '1700000000' });
    expect(signed.headers.authorization).toBe(
      tc3Authorization(KEY, { host: 'hunyuan.tencentcloudapi.com', contentType: 'application/json', action: 'ChatCompletions', body: '{}', timestamp: 1_700_000_000 }),
    );
  });
});

describe('Tencent bodies, answers and stream', () => {
  it('builds Model, Messages and the sampling fields', () => {
    expect(
      tencentChatBody(
        {
          top_p: 0.5,
          messages: [
            { role: 'developer', content: 's' },
            { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          ],
        },
        'hunyuan-lite',
        true,
      ),
    ).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 's' },
        { Role: 'user', Content: 'hi' },
      ],
      Stream: true,
      TopP: 0.5,
    });
  });

  it('reads the Response envelope and its errors', () => {
    const ok = parseTencentResponse(
      { Response: { Id: 'x', Created: 5, Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: 'hi' } }], Usage: { PromptTokens: 3, CompletionTokens: 1, TotalTokens: 4 } } },
      'hunyuan-lite',
    );
    expect(ok.body).toMatchObject({ id: 'x', created: 5, choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] });
    expect(ok.usage).toEqual({ promptTokens: 3, completionTokens: 1 });
    expect(parseTencentResponse({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad sig' } } }, 'm').error).toMatchObject({
      status: 401,
      message: 'bad sig',
      code: 'AuthFailure.SignatureFailure',
    });
    expect(parseTencentError(200, '{"Response":{"Error":{"Code":"RequestLimitExceeded","Message":"slow down"}}}')).toMatchObject({ status: 429 });
  });

  it('streams Delta contents, finishes on stop, bills the last usage; a JSON error body in place of the stream', () => {
    const run = runStream(
      new TencentToOpenAIStream('m', true),
      events(
        { Choices: [{ Delta: { Role: 'assistant', Content: 'a' }, FinishReason: '' }], Usage: { PromptTokens: 2, CompletionTokens: 1 } },
        { Choices: [{ Delta: { Role: 'assistant', Content: 'b' }, FinishReason: 'stop' }], Usage: { PromptTokens: 2, CompletionTokens: 2 } },
      ),
    );
    expect(run.text).toBe('ab');
    expect(run.usage).toEqual({ promptTokens: 2, completionTokens: 2 });
    expect(run.json.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    expect(new TencentToOpenAIStream('m', false).onChunk('{"Response":{"Error":{"Code":"InvalidParameter","Message":"bad"}}}')).toMatchObject({ status: 400, message: 'bad' });
  });
});
