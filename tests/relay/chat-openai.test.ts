/**
 * Chat through an OpenAI channel with the real `openai` client: non-stream and stream,
 * usage hidden or shown as asked, the consume log and the ledger after each.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';
import { countText } from '../../src/server/relay/pipeline/token-count';

describeEachDialect('relay chat (OpenAI channel)', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  let channelId: number;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect);
    channelId = await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini,gpt-4o' });
    await b.relay.channels.refresh();
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  it('answers a non-stream chat and bills the upstream usage', async () => {
    fake.script({ text: 'Hi there friend', usage: { prompt: 20, completion: 10 } });
    const before = await balances(b.s, b.user.id, b.token.id);
    const res = await b.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.choices[0]!.message.content).toBe('Hi there friend');
    expect(res.usage?.prompt_tokens).toBe(20);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    // gpt-4o-mini: ratio 0.075, completion ratio 4 → (20 + 10 × 4) × 0.075 = 4.5 → 5
    expect(before.quota - after.quota).toBe(5);
    expect(after.logSum - before.logSum).toBe(5);
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: 2, model_name: 'gpt-4o-mini', prompt_tokens: 20, completion_tokens: 10, quota: 5, channel_id: channelId });
    const other = JSON.parse(log.other);
    expect(other).toMatchObject({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1, model_price: -1, admin_info: { use_channel: [String(channelId)] } });
    expect(log.content).toBe('模型倍率 0.07，补全倍率 4.00，分组倍率 1.00');
  });

  it('sends the client bytes upstream when nothing changes, and a rewritten body when something does', async () => {
    const send = async (body: string) => {
      fake.script({ text: 'ok', usage: { prompt: 3, completion: 1 } });
      const res = await fetch(`${b.s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' }, body });
      expect(res.status).toBe(200);
      await res.text();
      return fake.requests.at(-1)!.body;
    };
    // Odd spacing and key order, `stream: false`, known fields only: forwarded byte for byte.
    const asIs = '{ "messages" : [{"role":"user","content":"hi"}],\n "metadata": {"a": "1"}, "model":"gpt-4o-mini", "stream": false }';
    expect(await send(asIs)).toBe(asIs);
    // A stream asked without usage gets `stream_options` added: re-serialised, nothing lost.
    const streamed = '{"model":"gpt-4o-mini","stream":true, "seed":1,"messages":[{"role":"user","content":"hi"}]}';
    const sent = JSON.parse(await send(streamed)) as Record<string, unknown>;
    expect(sent).toEqual({ ...(JSON.parse(streamed) as object), stream_options: { include_usage: true } });
    await b.flush();
  });

  it('streams, hides the forced usage chunk from a client that did not ask, and bills it', async () => {
    fake.script({ text: 'one two three four', usage: { prompt: 30, completion: 4 } });
    const before = await balances(b.s, b.user.id, b.token.id);
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'count' }], stream: true });
    let text = '';
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe('one two three four');
    expect(sawUsage).toBe(false);
    const upstreamBody = JSON.parse(fake.requests.at(-1)!.body);
    expect(upstreamBody.stream_options).toEqual({ include_usage: true });
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    // (30 + 4 × 4) × 0.075 = 3.45 → 3
    expect(before.quota - after.quota).toBe(3);
    expect(after.openCount).toBe(0);
  });

  it('passes a burst of events on byte for byte: the usage chunk hidden or shown as asked, [DONE] once at the end', async () => {
    const chunk = (id: string, choices: unknown[], usage?: unknown) => ({ id, object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices, ...(usage ? { usage } : {}) });
    const content = ['价格 ', 'ünïcode ', 'done'].map((text, i) => chunk('c1', [{ index: 0, delta: { content: text }, finish_reason: i === 2 ? 'stop' : null }]));
    // Non-ASCII in the chunk the relay drops too: what is cut off is counted in bytes.
    const usageChunk = chunk('c1-用量', [], { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    const sse = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    const events = [...content, usageChunk, '[DONE]'];
    const streamed = async (includeUsage: boolean) => {
      // The fake writes every event at once: the relay gets them in one read.
      fake.script({ events: events.map((data) => ({ data })) });
      const res = await fetch(`${b.s.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) }),
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await streamed(false)).toBe(content.map(sse).join('') + sse('[DONE]'));
    expect(await streamed(true)).toBe(events.map(sse).join(''));
  });

  it('passes events that arrive one read at a time on as they came, and counts what it did not read when upstream sends no usage', async () => {
    const piece = (n: number) => `第${n}段：价格合理，lorem ipsum dolor sit amet, consectetur adipiscing elit. `.repeat(6);
    const content = Array.from({ length: 30 }, (_, n) => ({
      id: 'c2',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { content: piece(n) }, finish_reason: null }],
    }));
    // Paced: each event reaches the relay in a read of its own, most of them after the
    // count's sample is full (those are passed on without being decoded).
    fake.script({ events: [...content.map((data) => ({ data })), { data: '[DONE]' }], delayMs: 5 });
    const res = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(await res.text()).toBe(content.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n');
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const exact = countText(content.map((_, n) => piece(n)).join(''), 'gpt-4o-mini');
    expect(Math.abs(log.completion_tokens - exact) / exact).toBeLessThan(0.05);
  });

  it('streams the usage chunk to a client that asked for it', async () => {
    fake.script({ text: 'a b', usage: { prompt: 5, completion: 2 } });
    const stream = await b.openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: unknown;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
  });
});
