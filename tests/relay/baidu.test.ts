/**
 * Baidu Qianfan v1 channels (type 15, key `ClientId|ClientSecret` or an access token) against
 * a fake wenxinworkshop with its OAuth token endpoint: the client-credentials token fetched
 * once and reused in the `access_token` query parameter, ERNIE chat plain and streamed
 * (`is_end`, usage in every event), embeddings, `{error_code, error_msg}` refusals (also as
 * the JSON answer to a stream request), keys that cannot be used; every answer billed exactly
 * once from the upstream's usage.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { BAIDU_CLIENT_ID, BAIDU_KEY, startFakeBaidu, type FakeBaidu } from '../fakes/baidu';
import { billedOnce, notBilled, readChatStream, setRatios, startBench, type Bench } from './harness';
import { seedChannel, storeChannelKey } from './seed';

const ERNIE = 'ERNIE-3.5-8K';
const EMBEDDING = 'Embedding-V1';
const CHAT_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions';

describeEachDialect('Baidu v1 channels (access token, ERNIE chat and stream, embeddings)', (dialect) => {
  let baidu: FakeBaidu;
  let b: Bench;
  let channel: number;

  beforeAll(async () => {
    baidu = await startFakeBaidu();
    b = await startBench(dialect);
    await setRatios(b, { [ERNIE]: 0.5, [EMBEDDING]: 0.1, 'ERNIE-Speed-8K': 1, 'ERNIE-Lite-8K': 1, 'ERNIE-Tiny-8K': 1 }, { [ERNIE]: 2 });
    channel = await seedChannel(b.s, { type: 15, base_url: baidu.url, key: BAIDU_KEY, models: `${ERNIE},${EMBEDDING}` });
  });
  afterAll(async () => {
    await b?.close();
    await baidu?.close();
  });

  it("the console's channel test passes (token fetched from the channel's token endpoint)", async () => {
    const res = await (await b.s.root()).get(`/api/channel/test/${channel}?model=${ERNIE}`);
    expect(res.body).toMatchObject({ success: true });
    expect(baidu.tokensIssued).toBe(1);
  });

  it("chat: system apart, the access token in the query, fetched once; billed by ERNIE's usage", async () => {
    baidu.script({ text: '你好，我是文心一言。', usage: { prompt: 30, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: ERNIE,
        max_tokens: 1,
        frequency_penalty: 1.2,
        user: 'u-1',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('你好，我是文心一言。');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 });
    });
    const sent = baidu.requests.at(-1)!;
    expect(sent.path).toBe(CHAT_PATH);
    expect(sent.query.get('access_token')).toMatch(/^24\.fake/);
    expect(sent.json).toEqual({ messages: [{ role: 'user', content: 'hi' }], system: 'be brief', penalty_score: 1.2, max_output_tokens: 2, user_id: 'u-1' });
    expect(baidu.tokensIssued).toBe(1);
    expect(log).toMatchObject({ model_name: ERNIE, prompt_tokens: 30, completion_tokens: 10, channel_id: channel });
    // (30 + 10 × 2) × 0.5
    expect(quota).toBe(25);
  });

  it('chat streamed: data events become chunks, is_end finishes, the last usage is billed', async () => {
    baidu.script({ text: 'one two three four', usage: { prompt: 20, completion: 8 } });
    const { quota } = await billedOnce(b, async () => {
      const read = await readChatStream(
        await b.openai().chat.completions.create({ model: ERNIE, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } }),
      );
      expect(read).toMatchObject({ text: 'one two three four', finish: 'stop', usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } });
      expect(read.error).toBeUndefined();
    });
    expect(baidu.requests.at(-1)!.json).toMatchObject({ stream: true });
    expect(baidu.tokensIssued).toBe(1);
    // (20 + 8 × 2) × 0.5
    expect(quota).toBe(18);
  });

  it('embeddings: {input} to the embeddings endpoint; billed by the prompt tokens', async () => {
    baidu.script({ usage: { prompt: 40 } });
    const { quota } = await billedOnce(b, async () => {
      const res = await b.openai().embeddings.create({ model: EMBEDDING, input: ['a', 'b'], encoding_format: 'float' });
      expect(res.data.map((d) => d.embedding)).toEqual([
        [0.125, -0.25, 0.5],
        [0.125, -0.25, 0.5],
      ]);
      expect(res.usage).toMatchObject({ prompt_tokens: 40 });
    });
    expect(baidu.requests.at(-1)!.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
    expect(baidu.requests.at(-1)!.json).toEqual({ input: ['a', 'b'] });
    // 40 × 0.1
    expect(quota).toBe(4);
  });

  it('refusals ({error_code, error_msg} on HTTP 200), plain and as the answer to a stream request; nothing billed', async () => {
    baidu.script(
      { error: { status: 200, code: 336003, message: 'the max length of current question is 2000' } },
      { error: { status: 200, code: 336003, message: 'the max length of current question is 2000' } },
    );
    await notBilled(b, async () => {
      const plain = await b
        .openai()
        .chat.completions.create({ model: ERNIE, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(plain).toMatchObject({ status: 400 });
      expect(String((plain as Error).message)).toContain('the max length of current question is 2000');
      const streamed = await (async () => {
        const stream = await b.openai().chat.completions.create({ model: ERNIE, messages: [{ role: 'user', content: 'x' }], stream: true });
        for await (const chunk of stream) void chunk;
      })().catch((err: unknown) => err);
      expect(streamed).toMatchObject({ status: 400 });
      expect(String((streamed as Error).message)).toContain('the max length of current question is 2000');
    });
  });

  it('keys: an access token as the key is used as is; a refused client and a malformed key are channel faults', async () => {
    const issued = baidu.tokensIssued;
    await seedChannel(b.s, { type: 15, base_url: baidu.url, key: baidu.issueToken(), models: 'ERNIE-Speed-8K' });
    baidu.script({ text: 'direct token', usage: { prompt: 5, completion: 2 } });
    const { quota } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'x' }] });
      expect(res.choices[0]!.message.content).toBe('direct token');
    });
    expect(baidu.requests.at(-1)!.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie_speed');
    expect(baidu.tokensIssued).toBe(issued);
    // (5 + 2 × 2) × 1: the price rules fix ERNIE's completion ratio at 2
    expect(quota).toBe(9);

    await seedChannel(b.s, { type: 15, base_url: baidu.url, key: `${BAIDU_CLIENT_ID}|wrong-secret`, models: 'ERNIE-Lite-8K' });
    await storeChannelKey(b.s, await seedChannel(b.s, { type: 15, base_url: baidu.url, key: BAIDU_KEY, models: 'ERNIE-Tiny-8K' }), 'a|b|c');
    await notBilled(b, async () => {
      const refused = await b
        .openai()
        .chat.completions.create({ model: 'ERNIE-Lite-8K', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(refused).toMatchObject({ status: 401 });
      expect(String((refused as Error).message)).toContain('Client authentication failed');
      const malformed = await b
        .openai()
        .chat.completions.create({ model: 'ERNIE-Tiny-8K', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
    });
  });
});
