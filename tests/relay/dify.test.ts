/**
 * Dify channels (type 37) through the real `openai` client: the conversation flattened into
 * `query` as the reference does, blocking and streaming answers, `metadata.usage` billed
 * exactly, Dify's `{code, message, status}` errors and mid-stream `error` events passed on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeDify, type FakeDify } from '../fakes/dify';
import { billedOnce, notBilled, setRatios, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const MODEL = 'dify-test-app';

describeEachDialect('Dify channels', (dialect) => {
  let fake: FakeDify;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeDify();
    b = await startBench(dialect);
    await setRatios(b, { [MODEL]: 1 }, { [MODEL]: 3 });
    await seedChannel(b.s, { type: 37, base_url: fake.url, key: 'app-fake-good', models: MODEL });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  const charged = async (run: () => Promise<unknown>) => (await billedOnce(b, run)).quota;

  it('blocking: the history flattened into query, the conversation id as the answer id, usage billed', async () => {
    fake.script({ text: 'Paris, bien sûr.', usage: { prompt: 40, completion: 5 } });
    const cost = await charged(async () => {
      const res = await b.openai().chat.completions.create({
        model: MODEL,
        user: 'alice',
        messages: [
          { role: 'system', content: 'Réponds en français.' },
          { role: 'user', content: 'Capitale de la France ?' },
          { role: 'assistant', content: 'Paris.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Sûr ?' },
              { type: 'image_url', image_url: { url: 'https://example.com/paris.png' } },
            ],
          },
        ],
      });
      expect(res.id).toMatch(/^conv-/);
      expect(res.choices[0]!.message.content).toBe('Paris, bien sûr.');
      expect(res.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 5 });
    });
    expect(cost).toBe(40 + 5 * 3);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer app-fake-good');
    expect(sent.json).toEqual({
      inputs: {},
      query: 'SYSTEM: \nRéponds en français.\nUSER: \nCapitale de la France ?\nASSISTANT: \nParis.\nUSER: \nSûr ?\n',
      response_mode: 'blocking',
      user: 'alice',
      auto_generate_name: false,
      files: [{ type: 'image', transfer_mode: 'remote_url', url: 'https://example.com/paris.png' }],
    });
  });

  it('streaming: message events become chunks, workflow steps reasoning, message_end usage billed', async () => {
    fake.script({ text: 'un deux trois', usage: { prompt: 11, completion: 3 } });
    const cost = await charged(async () => {
      const stream = await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'compte' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let reasoning = '';
      let usage: unknown;
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('un deux trois');
      // DIFY_DEBUG is on by default: the app's steps arrive as reasoning.
      expect(reasoning).toBe('Workflow: wf-1\nNode: llm\nNode: llm succeeded\n');
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    });
    expect(cost).toBe(11 + 3 * 3);
    const sent = fake.requests.at(-1)!.json as { response_mode: string; user: string };
    expect(sent.response_mode).toBe('streaming');
    // No user from the client: a fresh one per request.
    expect(sent.user).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
  });

  it('errors: an HTTP error is passed on and billed nothing; an inline image is refused before any call', async () => {
    fake.script({ error: { status: 400, code: 'app_unavailable', message: 'App unavailable, please check your app configurations.' } });
    await notBilled(b, async () => {
      const err = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400 });
      expect((err as { error: { message: string } }).error.message).toContain('App unavailable');
    });
    const calls = fake.requests.length;
    const inline = await b
      .openai()
      .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] })
      .catch((e: unknown) => e);
    expect(inline).toMatchObject({ status: 400 });
    expect((inline as { error: { message: string } }).error.message).toContain('http(s) URL only');
    expect(fake.requests.length).toBe(calls);
  });

  it('a mid-stream error event ends the stream with the error', async () => {
    fake.script({ text: 'a b c d e', streamErrorAfter: 3 });
    const err = await (async () => {
      const stream = await b.openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], stream: true });
      for await (const chunk of stream) void chunk;
    })().catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain('model quota exceeded');
  });
});
