/**
 * Xunfei Spark channels (type 18, key `AppId|APISecret|APIKey`, API version in `other`) against
 * a fake Spark speaking its WebSocket protocol and checking the signed URL: chat streamed and
 * not (the frames joined), the domain of the version, usage of the last frame billed once,
 * error frames (also mid-answer), refused handshakes and malformed keys as channel faults;
 * a channel with a proxy opens its socket through it (CONNECT or SOCKS5), never direct.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startConnectProxy, startSocks5Proxy, type TestProxy } from '../helpers/proxies';
import { startFakeXunfei, XUNFEI_APP_ID, XUNFEI_KEY, type FakeXunfei } from '../fakes/xunfei';
import { billedOnce, notBilled, readChatStream, setRatios, startBench, type Bench } from './harness';
import { seedChannel, storeChannelKey } from './seed';

const MODEL = 'SparkDesk-v3.5';

describeEachDialect('Xunfei Spark channels (WebSocket, signed URL)', (dialect) => {
  let xunfei: FakeXunfei;
  let b: Bench;
  let channel: number;

  beforeAll(async () => {
    xunfei = await startFakeXunfei();
    b = await startBench(dialect);
    await setRatios(b, { [MODEL]: 0.5, SparkDesk: 1, 'SparkDesk-v1.1': 1, 'SparkDesk-v3.1': 1 }, { [MODEL]: 2, SparkDesk: 1, 'SparkDesk-v1.1': 1, 'SparkDesk-v3.1': 1 });
    channel = await seedChannel(b.s, { type: 18, base_url: xunfei.url, key: XUNFEI_KEY, other: 'v3.5', models: `${MODEL},SparkDesk` });
  });
  afterAll(async () => {
    await b?.close();
    await xunfei?.close();
  });

  it("the console's channel test passes over the WebSocket", async () => {
    const seen = xunfei.requests.length;
    const res = await (await b.s.root()).get(`/api/channel/test/${channel}?model=${MODEL}`);
    expect(res.body).toMatchObject({ success: true });
    expect(xunfei.requests.length).toBe(seen + 1);
  });

  it("chat: one request message at /v3.5/chat with its domain; the frames joined; billed by the last frame's usage", async () => {
    xunfei.script({ text: '你好，我是讯飞星火。', usage: { prompt: 30, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: MODEL,
        max_tokens: 100,
        temperature: 0.5,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('你好，我是讯飞星火。');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 });
    });
    const sent = xunfei.requests.at(-1)!;
    expect(sent.path).toBe('/v3.5/chat');
    expect(sent.json).toEqual({
      header: { app_id: XUNFEI_APP_ID },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'hi' },
          ],
        },
      },
    });
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 30, completion_tokens: 10, channel_id: channel });
    // (30 + 10 × 2) × 0.5
    expect(quota).toBe(25);
  });

  it("chat streamed: each frame a chunk, status 2 finishes; a model without a version takes the channel's", async () => {
    xunfei.script({ text: 'one two three four', usage: { prompt: 20, completion: 8 } });
    const { quota } = await billedOnce(b, async () => {
      const read = await readChatStream(
        await b.openai().chat.completions.create({ model: 'SparkDesk', messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } }),
      );
      expect(read).toMatchObject({ text: 'one two three four', finish: 'stop', usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } });
      expect(read.error).toBeUndefined();
    });
    expect(xunfei.requests.at(-1)!.path).toBe('/v3.5/chat');
    // (20 + 8 × 1) × 1
    expect(quota).toBe(28);
  });

  it('an error frame: a refusal before any text reaches the client with its message, nothing billed; mid-answer it ends the stream, what came is billed once', async () => {
    xunfei.script({ error: { status: 200, code: 10013, message: '输入内容审核不通过，涉嫌违规，请重新调整输入内容' } });
    await notBilled(b, async () => {
      const failure = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(failure).toMatchObject({ status: 400 });
      expect(String((failure as Error).message)).toContain('输入内容审核不通过');
    });
    xunfei.script({ text: 'a b c d e f', streamErrorAfter: 3, usage: { prompt: 10, completion: 6 } });
    await billedOnce(b, async () => {
      const read = await readChatStream(await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], stream: true }));
      expect(String((read.error as Error | undefined)?.message)).toContain('输入内容审核不通过');
      expect(read.text).toBe('a b c ');
    });
  });

  it('keys: a wrong API secret fails the URL signature (HTTP 403 at the upgrade), a malformed key never leaves', async () => {
    await seedChannel(b.s, { type: 18, base_url: xunfei.url, key: `${XUNFEI_APP_ID}|wrong-secret|fakeApiKey0001`, other: 'v1.1', models: 'SparkDesk-v1.1' });
    await storeChannelKey(b.s, await seedChannel(b.s, { type: 18, base_url: xunfei.url, key: XUNFEI_KEY, other: 'v3.1', models: 'SparkDesk-v3.1' }), 'only|two');
    const refused = xunfei.refused;
    const seen = xunfei.requests.length;
    await notBilled(b, async () => {
      const wrong = await b
        .openai()
        .chat.completions.create({ model: 'SparkDesk-v1.1', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(wrong).toMatchObject({ status: 403 });
      expect(String((wrong as Error).message)).toContain('HMAC signature does not match');
      const malformed = await b
        .openai()
        .chat.completions.create({ model: 'SparkDesk-v3.1', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
    });
    expect(xunfei.refused).toBe(refused + 1);
    expect(xunfei.requests.length).toBe(seen);
  });
  it('a channel with a proxy reaches Spark through it, streamed and not, by CONNECT or SOCKS5; a proxy that is down fails the call, never direct', async () => {
    const target = new URL(xunfei.url).host;
    const proxies: TestProxy[] = [await startConnectProxy({ user: 'relay', pass: 'http-pa55word' }), await startSocks5Proxy({ user: 'relay', pass: 'socks-pa55word' })];
    try {
      for (const [i, p] of proxies.entries()) {
        // A model of its own per proxied channel (no version in the name: the channel's v3.5).
        const model = `spark-via-proxy-${i}`;
        await setRatios(b, { [model]: 1 });
        await seedChannel(b.s, { type: 18, base_url: xunfei.url, key: XUNFEI_KEY, other: 'v3.5', models: model, setting: JSON.stringify({ proxy: p.url }) });
        const before = xunfei.requests.length;
        xunfei.script({ text: 'through the proxy', usage: { prompt: 4, completion: 3 } }, { text: 'streamed through', usage: { prompt: 4, completion: 2 } });
        const res = await b.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
        expect(res.choices[0]!.message.content).toBe('through the proxy');
        const read = await readChatStream(await b.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true }));
        expect(read.text).toBe('streamed through');
        // One tunnel per call (a WebSocket holds its connection), each to the fake, and the fake saw the proxy's side of it.
        expect(p.tunnels).toEqual([target, target]);
        const seen = xunfei.requests.slice(before);
        expect(seen).toHaveLength(2);
        expect(seen.every((r) => p.carried.has(r.remotePort!))).toBe(true);
        expect(p.refused).toBe(0);
      }

      // The same channel's proxy gone: the call fails as a transport error and nothing reaches Spark directly.
      const down = proxies[0]!;
      await down.close();
      const before = xunfei.requests.length;
      await notBilled(b, async () => {
        const err = await b
          .openai()
          .chat.completions.create({ model: 'spark-via-proxy-0', messages: [{ role: 'user', content: 'hi' }] })
          .catch((e: unknown) => e);
        expect((err as { status: number }).status).toBeGreaterThanOrEqual(500);
        expect(JSON.stringify((err as { error: unknown }).error)).not.toContain('http-pa55word');
      });
      expect(xunfei.requests.length).toBe(before);
    } finally {
      await Promise.all(proxies.map((p) => p.close().catch(() => undefined)));
    }
  });
});
