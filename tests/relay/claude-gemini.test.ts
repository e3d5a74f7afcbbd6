/**
 * The done-criterion: the real `openai` and `@anthropic-ai/sdk` clients against our endpoints
 * for OpenAI, Claude and Gemini channels, streaming and not, with each upstream's own usage
 * billed by its own rules (Claude's formula with cache reads and writes).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';

describeEachDialect('relay across providers (openai and anthropic clients)', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    await seedChannel(b.s, { type: 3, base_url: openai.url, key: 'sk-fake-good', models: 'gpt-4o', other: '2024-10-21' });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
  });

  async function cost(run: () => Promise<unknown>): Promise<number> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    await run();
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    return before.quota - after.quota;
  }

  it('anthropic client → /v1/messages → Claude channel (native), non-stream, with Claude billing', async () => {
    claude.script({ text: 'Bonjour', usage: { prompt: 100, completion: 20, cacheRead: 50, cacheCreation: 10 } });
    const q = await cost(async () => {
      const msg = await b.anthropic().messages.create({ model: CLAUDE, max_tokens: 256, messages: [{ role: 'user', content: 'Salut' }] });
      expect(msg.content[0]).toMatchObject({ type: 'text', text: 'Bonjour' });
      expect(msg.usage.cache_read_input_tokens).toBe(50);
    });
    // (100 + 50 × 0.1 + 10 × 1.25 + 20 × 5) × 1.5, truncated
    expect(q).toBe(326);
    const upstream = claude.requests.at(-1)!;
    expect(upstream.headers['x-api-key']).toBe('sk-ant-fake-good');
  });

  it('anthropic client → /v1/messages → Claude channel, streamed', async () => {
    claude.script({ text: 'one two three', usage: { prompt: 10, completion: 3 } });
    const q = await cost(async () => {
      const stream = b.anthropic().messages.stream({ model: CLAUDE, max_tokens: 100, messages: [{ role: 'user', content: 'count' }] });
      let text = '';
      stream.on('text', (t) => (text += t));
      const final = await stream.finalMessage();
      expect(text).toBe('one two three');
      expect(final.usage.output_tokens).toBe(3);
    });
    // (10 + 3 × 5) × 1.5 = 37.5 → 37
    expect(q).toBe(37);
  });

  it('anthropic client → /v1/messages → OpenAI channel (converted both ways), stream and not', async () => {
    openai.script({ text: 'converted answer', usage: { prompt: 8, completion: 2 } });
    const msg = await b.anthropic().messages.create({ model: GPT, max_tokens: 50, system: 'be brief', messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.type).toBe('message');
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'converted answer' });
    expect(msg.usage).toMatchObject({ input_tokens: 8, output_tokens: 2 });
    const sent = JSON.parse(openai.requests.at(-1)!.body);
    expect(sent.messages[0]).toMatchObject({ role: 'system' });

    openai.script({ text: 'streamed back', usage: { prompt: 8, completion: 2 } });
    const stream = b.anthropic().messages.stream({ model: GPT, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    expect(text).toBe('streamed back');
    expect(final.stop_reason).toBe('end_turn');
  });

  it('anthropic client → /v1/messages → Gemini channel, streamed', async () => {
    gemini.script({ text: 'from gemini', usage: { prompt: 7, completion: 2 } });
    const stream = b.anthropic().messages.stream({ model: GEMINI, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (t) => (text += t));
    await stream.finalMessage();
    expect(text).toBe('from gemini');
  });

  it('openai client → /v1/chat/completions → Claude channel, stream and not', async () => {
    claude.script({ text: 'claude says hi', usage: { prompt: 20, completion: 4 } });
    const q = await cost(async () => {
      const res = await b.openai().chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'hello' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('claude says hi');
      expect(res.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 4 });
    });
    // (20 + 4 × 5) × 1.5 = 60
    expect(q).toBe(60);
    const upstream = JSON.parse(claude.requests.at(-1)!.body);
    expect(upstream.system).toBe('sys');

    claude.script({ text: 'a b c', usage: { prompt: 20, completion: 3 } });
    const stream = await b.openai().chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: { completion_tokens?: number } | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('a b c');
    expect(usage?.completion_tokens).toBe(3);
  });

  it('openai client → /v1/chat/completions → Gemini channel, stream and not', async () => {
    gemini.script({ text: 'gemini text', usage: { prompt: 100, completion: 50 } });
    const q = await cost(async () => {
      const res = await b.openai().chat.completions.create({ model: GEMINI, messages: [{ role: 'user', content: 'hello' }] });
      expect(res.choices[0]!.message.content).toBe('gemini text');
    });
    // (100 + 50 × 4) × 0.05 = 15
    expect(q).toBe(15);
    expect(gemini.requests.at(-1)!.headers['x-goog-api-key']).toBe('gm-fake-good');

    gemini.script({ text: 'streaming gemini words', usage: { prompt: 10, completion: 3 } });
    const stream = await b.openai().chat.completions.create({ model: GEMINI, messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('streaming gemini words');
  });

  it('openai client → /v1/chat/completions → Azure channel (deployment URL, api-key, api-version)', async () => {
    openai.script({ text: 'azure says hi', usage: { prompt: 10, completion: 2 } });
    const res = await b.openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.choices[0]!.message.content).toBe('azure says hi');
    const upstream = openai.requests.at(-1)!;
    expect(upstream.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(upstream.query.get('api-version')).toBe('2024-10-21');
    expect(upstream.headers['api-key']).toBe('sk-fake-good');
    openai.script({ text: 'azure streams', usage: { prompt: 10, completion: 2 } });
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('azure streams');
  });
});
