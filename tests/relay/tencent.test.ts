/**
 * Tencent Hunyuan channels (type 23, key `AppId|SecretId|SecretKey`) against a fake Tencent
 * Cloud API that recomputes every TC3-HMAC-SHA256 signature: ChatCompletions plain and
 * streamed, a channel param_override changing the body after it was built (the signature
 * covers the bytes sent), Tencent's `{Response: {Error}}` refusals (also as the answer to a
 * stream request), keys that cannot sign; every answer billed exactly once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeTencent, TENCENT_KEY, TENCENT_SECRET_ID, type FakeTencent } from '../fakes/tencent';
import { billedOnce, notBilled, readChatStream, setRatios, startBench, type Bench } from './harness';
import { relayOf } from '../../src/server/relay/runtime';
import { seedChannel, storeChannelKey } from './seed';

const MODEL = 'hunyuan-pro';

describeEachDialect('Tencent Hunyuan channels (TC3 signature, ChatCompletions)', (dialect) => {
  let tencent: FakeTencent;
  let b: Bench;
  let channel: number;

  beforeAll(async () => {
    tencent = await startFakeTencent();
    b = await startBench(dialect);
    await setRatios(b, { [MODEL]: 0.5, 'hunyuan-lite': 1, 'hunyuan-standard': 1, 'hunyuan-turbo': 1 }, { [MODEL]: 2, 'hunyuan-lite': 1, 'hunyuan-standard': 1, 'hunyuan-turbo': 1 });
    channel = await seedChannel(b.s, { type: 23, base_url: tencent.url, key: TENCENT_KEY, models: MODEL });
  });
  afterAll(async () => {
    await b?.close();
    await tencent?.close();
  });

  it("the console's channel test passes (signed)", async () => {
    const seen = tencent.requests.length;
    const res = await (await b.s.root()).get(`/api/channel/test/${channel}?model=${MODEL}`);
    expect(res.body).toMatchObject({ success: true });
    expect(tencent.requests.length).toBe(seen + 1);
  });

  it("chat: the ChatCompletions action, signed; billed by Hunyuan's usage", async () => {
    tencent.script({ text: '你好，我是腾讯混元。', usage: { prompt: 30, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: MODEL,
        temperature: 0.5,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('你好，我是腾讯混元。');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 });
    });
    const sent = tencent.requests.at(-1)!;
    expect(sent.headers['x-tc-action']).toBe('ChatCompletions');
    expect(sent.headers.authorization).toMatch(
      new RegExp(`^TC3-HMAC-SHA256 Credential=${TENCENT_SECRET_ID}/\\d{4}-\\d{2}-\\d{2}/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$`),
    );
    expect(sent.json).toEqual({
      Model: MODEL,
      Messages: [
        { Role: 'system', Content: 'be brief' },
        { Role: 'user', Content: 'hi' },
      ],
      Stream: false,
      Temperature: 0.5,
    });
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 30, completion_tokens: 10, channel_id: channel });
    // (30 + 10 × 2) × 0.5
    expect(quota).toBe(25);
  });

  it('chat streamed: Delta events become chunks; the last usage is billed', async () => {
    tencent.script({ text: 'one two three four', usage: { prompt: 20, completion: 8 } });
    const { quota } = await billedOnce(b, async () => {
      const read = await readChatStream(
        await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } }),
      );
      expect(read).toMatchObject({ text: 'one two three four', finish: 'stop', usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } });
      expect(read.error).toBeUndefined();
    });
    expect(tencent.requests.at(-1)!.json).toMatchObject({ Stream: true });
    // (20 + 8 × 2) × 0.5
    expect(quota).toBe(18);
  });

  it('a param_override that changes the body is covered by the signature', async () => {
    const id = await seedChannel(b.s, { type: 23, base_url: tencent.url, key: TENCENT_KEY, models: 'hunyuan-turbo' });
    const saved = await (await b.s.root()).put('/api/channel/', { id, param_override: JSON.stringify({ TopP: 0.3 }) });
    expect(saved.body).toMatchObject({ success: true });
    await relayOf(b.s.app.ctx)?.channels.refresh();
    tencent.script({ text: 'overridden', usage: { prompt: 4, completion: 2 } });
    const { quota } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({ model: 'hunyuan-turbo', messages: [{ role: 'user', content: 'x' }] });
      expect(res.choices[0]!.message.content).toBe('overridden');
    });
    expect(tencent.requests.at(-1)!.json).toMatchObject({ TopP: 0.3 });
    // 4 + 2 × 1
    expect(quota).toBe(6);
  });

  it('refusals ({Response: {Error}}), plain and as the answer to a stream request; nothing billed', async () => {
    const refusal = { error: { status: 200, code: 'InvalidParameter', message: 'Temperature 取值超出范围' } };
    tencent.script(refusal, refusal);
    await notBilled(b, async () => {
      const plain = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(plain).toMatchObject({ status: 400 });
      expect(String((plain as Error).message)).toContain('Temperature 取值超出范围');
      const streamed = await (async () => {
        const stream = await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], stream: true });
        for await (const chunk of stream) void chunk;
      })().catch((err: unknown) => err);
      expect(streamed).toMatchObject({ status: 400 });
    });
  });

  it("keys that cannot sign: a wrong secret fails the fake's signature check, a malformed key never leaves", async () => {
    await seedChannel(b.s, { type: 23, base_url: tencent.url, key: `1300000001|${TENCENT_SECRET_ID}|wrong-secret`, models: 'hunyuan-lite' });
    await storeChannelKey(b.s, await seedChannel(b.s, { type: 23, base_url: tencent.url, key: TENCENT_KEY, models: 'hunyuan-standard' }), 'SecretId|SecretKey');
    const seen = tencent.requests.length;
    await notBilled(b, async () => {
      const wrong = await b
        .openai()
        .chat.completions.create({ model: 'hunyuan-lite', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(wrong).toMatchObject({ status: 401 });
      expect(String((wrong as Error).message)).toContain('Please check your signature is correct');
      const malformed = await b
        .openai()
        .chat.completions.create({ model: 'hunyuan-standard', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
    });
    expect(tencent.requests.length).toBe(seen + 1);
  });
});
