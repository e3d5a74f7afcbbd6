/**
 * Zhipu ChatGLM v3 channels (type 16, key `id.secret`) against a fake v3 model API that checks
 * the HS256 JWT made from the key: OpenAI chat converted to Zhipu's `prompt`, plain (`invoke`)
 * and streamed (`sse-invoke`: `add` events, `finish` with the usage in `meta`), Zhipu's
 * refusals and stream errors, keys that cannot sign; every answer billed exactly once from
 * the upstream's usage.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeZhipu, ZHIPU_KEY, type FakeZhipu } from '../fakes/zhipu';
import { billedOnce, notBilled, readChatStream, setRatios, startBench, type Bench } from './harness';
import { seedChannel, storeChannelKey } from './seed';

const MODEL = 'chatglm_pro';

describeEachDialect('Zhipu v3 channels (JWT from the key, invoke, sse-invoke)', (dialect) => {
  let zhipu: FakeZhipu;
  let b: Bench;
  let channel: number;

  beforeAll(async () => {
    zhipu = await startFakeZhipu();
    b = await startBench(dialect);
    await setRatios(b, { [MODEL]: 0.5, chatglm_std: 1, chatglm_lite: 1 }, { [MODEL]: 2 });
    channel = await seedChannel(b.s, { type: 16, base_url: zhipu.url, key: ZHIPU_KEY, models: MODEL });
  });
  afterAll(async () => {
    await b?.close();
    await zhipu?.close();
  });

  it("the console's channel test passes (signed with the key's JWT)", async () => {
    const seen = zhipu.requests.length;
    const res = await (await b.s.root()).get(`/api/channel/test/${channel}?model=${MODEL}`);
    expect(res.body).toMatchObject({ success: true });
    expect(zhipu.requests.length).toBe(seen + 1);
  });

  it("chat: the prompt body at /invoke, the quoted answer unquoted; billed by Zhipu's usage", async () => {
    zhipu.script({ text: 'Hello from GLM.', usage: { prompt: 30, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: MODEL,
        temperature: 0.3,
        top_p: 1,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('Hello from GLM.');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 });
    });
    const sent = zhipu.requests.at(-1)!;
    expect(sent.path).toBe(`/api/paas/v3/model-api/${MODEL}/invoke`);
    expect(sent.json).toEqual({
      prompt: [
        { role: 'user', content: 'be brief' },
        { role: 'assistant', content: 'Okay' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.3,
      top_p: 0.99,
    });
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 30, completion_tokens: 10, channel_id: channel });
    // (30 + 10 × 2) × 0.5
    expect(quota).toBe(25);
  });

  it("chat streamed: add events (a multi-line piece kept whole) become chunks; finish's meta usage billed", async () => {
    zhipu.script({ text: 'one two\nthree four', usage: { prompt: 20, completion: 8 } });
    const { quota } = await billedOnce(b, async () => {
      const read = await readChatStream(
        await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } }),
      );
      expect(read).toMatchObject({ text: 'one two\nthree four', finish: 'stop', usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } });
      expect(read.error).toBeUndefined();
    });
    expect(zhipu.requests.at(-1)!.path).toBe(`/api/paas/v3/model-api/${MODEL}/sse-invoke`);
    // (20 + 8 × 2) × 0.5
    expect(quota).toBe(18);
  });

  it("a refusal in Zhipu's shape reaches the client with its message; nothing billed", async () => {
    zhipu.script({ error: { status: 400, code: 1261, message: 'Prompt 超长' } });
    await notBilled(b, async () => {
      const failure = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(failure).toMatchObject({ status: 400 });
      expect(String((failure as Error).message)).toContain('Prompt 超长');
    });
  });

  it("an error event ends the client's stream with an error; what was delivered is billed once", async () => {
    zhipu.script({ text: 'a b c d e f', streamErrorAfter: 3, usage: { prompt: 10, completion: 6 } });
    await billedOnce(b, async () => {
      const read = await readChatStream(await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], stream: true }));
      expect(String((read.error as Error | undefined)?.message)).toContain('系统繁忙');
      expect(read.text).toBe('a b c ');
    });
  });

  it("keys that cannot sign: a wrong secret is refused by the fake's JWT check, a malformed key never leaves", async () => {
    await seedChannel(b.s, { type: 16, base_url: zhipu.url, key: 'fakeid0123.not-the-secret', models: 'chatglm_std' });
    await storeChannelKey(b.s, await seedChannel(b.s, { type: 16, base_url: zhipu.url, key: ZHIPU_KEY, models: 'chatglm_lite' }), 'no-dot-in-this-key');
    const seen = zhipu.requests.length;
    await notBilled(b, async () => {
      const wrong = await b
        .openai()
        .chat.completions.create({ model: 'chatglm_std', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(wrong).toMatchObject({ status: 401 });
      expect(String((wrong as Error).message)).toContain('令牌已过期或验证不正确');
      const malformed = await b
        .openai()
        .chat.completions.create({ model: 'chatglm_lite', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
    });
    expect(zhipu.requests.length).toBe(seen + 1);
  });
});
