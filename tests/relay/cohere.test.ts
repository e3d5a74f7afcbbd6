/**
 * Cohere channels (type 34) through the real `openai` client: chat (v2, streamed and not),
 * embeddings (v2 embed, float and the SDK's default base64) and rerank (plain fetch to
 * /v1/rerank), each billed exactly — Cohere's `billed_units`, never its larger `tokens` — and
 * its `{message}` errors passed on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { COHERE_PREAMBLE_TOKENS, startFakeCohere, type FakeCohere } from '../fakes/cohere';
import { billedOnce, notBilled, setRatios, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const CHAT = 'co-test-chat';
const EMBED = 'co-test-embed';
const RERANK = 'co-test-rerank';

describeEachDialect('Cohere channels', (dialect) => {
  let fake: FakeCohere;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeCohere();
    b = await startBench(dialect);
    await setRatios(b, { [CHAT]: 1, [EMBED]: 2, [RERANK]: 1 }, { [CHAT]: 2 });
    await seedChannel(b.s, { type: 34, base_url: fake.url, key: 'co-fake-good', models: `${CHAT},${EMBED},${RERANK}` });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  const charged = async (run: () => Promise<unknown>) => (await billedOnce(b, run)).quota;

  it('chat, not streamed: v2 request, OpenAI answer, billed_units billed', async () => {
    fake.script({ text: 'Bonjour à tous', usage: { prompt: 30, completion: 7 } });
    const cost = await charged(async () => {
      const res = await b.openai().chat.completions.create({
        model: CHAT,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'Salut' },
          { role: 'assistant', content: 'Oui?' },
          { role: 'user', content: 'Bonjour' },
        ],
        max_tokens: 64,
        top_p: 0.5,
        stop: 'END',
      });
      expect(res.choices[0]!.message.content).toBe('Bonjour à tous');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 });
    });
    // 30 + 7 × 2 (not the preamble-inflated tokens.input_tokens)
    expect(cost).toBe(44);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v2/chat');
    expect(sent.headers.authorization).toBe('Bearer co-fake-good');
    expect(sent.json).toMatchObject({
      model: CHAT,
      stream: false,
      max_tokens: 64,
      p: 0.5,
      stop_sequences: ['END'],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Salut' },
        { role: 'assistant', content: 'Oui?' },
        { role: 'user', content: 'Bonjour' },
      ],
    });
  });

  it('chat, streamed: content-delta events become chunks, message-end usage is billed', async () => {
    fake.script({ text: 'one two three four', usage: { prompt: 9, completion: 4 }, finishReason: 'MAX_TOKENS' });
    const cost = await charged(async () => {
      const stream = await b.openai().chat.completions.create({ model: CHAT, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let finish: string | null = null;
      let usage: unknown;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('one two three four');
      expect(finish).toBe('length');
      expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
    });
    expect(cost).toBe(9 + 4 * 2);
    expect(fake.requests.at(-1)!.json).toMatchObject({ stream: true });
  });

  it('a stream without usage is billed by the local count; an upstream error is passed on and billed nothing', async () => {
    fake.script({ text: 'local count', noUsage: true });
    const cost = await charged(async () => {
      const stream = await b.openai().chat.completions.create({ model: CHAT, messages: [{ role: 'user', content: 'x' }], stream: true });
      for await (const chunk of stream) void chunk;
    });
    expect(cost).toBeGreaterThan(0);
    expect(cost).toBeLessThan(9 + COHERE_PREAMBLE_TOKENS);

    fake.script(
      { error: { status: 400, message: 'invalid request: temperature must be between 0 and 1' } },
      { error: { status: 400, message: 'invalid request: temperature must be between 0 and 1' } },
    );
    await notBilled(b, async () => {
      const err = await b
        .openai()
        .chat.completions.create({ model: CHAT, messages: [{ role: 'user', content: 'x' }], temperature: 3 })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400 });
      expect((err as { error: { message: string } }).error.message).toContain('temperature must be between 0 and 1');
    });
  });

  it('embeddings: v2 embed with input_type, floats and base64, billed_units billed', async () => {
    const cost = await charged(async () => {
      const res = await b.openai().embeddings.create({ model: EMBED, input: ['alpha beta', 'gamma'], encoding_format: 'float' });
      expect(res.data).toHaveLength(2);
      expect(res.data[1]!.embedding).toEqual([1.5, 5, -1]);
      expect(res.usage).toMatchObject({ prompt_tokens: 3 });
    });
    // 3 words billed × 2
    expect(cost).toBe(6);
    expect(fake.requests.at(-1)!.json).toMatchObject({ model: EMBED, texts: ['alpha beta', 'gamma'], input_type: 'search_document', embedding_types: ['float'] });
    // The SDK's default asks base64 and decodes it back into the very floats.
    const res = await b.openai().embeddings.create({ model: EMBED, input: 'delta' });
    expect(res.data[0]!.embedding).toEqual([0.5, 5, -1]);
  });

  it('rerank: v2 rerank with string documents, results by index, billed by the local count', async () => {
    const cost = await charged(async () => {
      const res = await fetch(`${b.s.url}/v1/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: RERANK, query: 'red apple', documents: ['a green pear', { text: 'a red apple' }, 'red wine'], top_n: 2 }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { index: number; relevance_score: number }[] };
      expect(body.results.map((r) => r.index)).toEqual([1, 2]);
      expect(body.results[0]!.relevance_score).toBeCloseTo(0.2);
    });
    expect(cost).toBeGreaterThan(0);
    expect(fake.requests.at(-1)!.json).toEqual({ model: RERANK, query: 'red apple', documents: ['a green pear', 'a red apple', 'red wine'], top_n: 2 });
  });
});
