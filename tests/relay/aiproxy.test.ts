/**
 * AI Proxy Library channels (type 21) through the real `openai` client: the last user message
 * asked of the channel's knowledge base (its `other` field), answers streamed and not with the
 * cited documents appended, billed exactly by the local count (the API reports no usage), and
 * its `{success: false, errCode, message}` errors passed on and billed nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countChatPromptTokens, countTokens } from '../../src/server/relay/tokenizer';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeAiproxy, type FakeAiproxy } from '../fakes/aiproxy';
import { billedOnce, notBilled, readChatStream, setRatios, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const MODEL = 'ap-test-library';
const OTHER_LIBRARY = 'ap-test-missing-library';
const REFERENCES = '\n\n参考文档：\n1. [Switchyard manual](https://docs.example.com/manual)\n';

describeEachDialect('AI Proxy Library channels', (dialect) => {
  let fake: FakeAiproxy;
  let b: Bench;
  let channel: number;
  beforeAll(async () => {
    fake = await startFakeAiproxy();
    b = await startBench(dialect);
    await setRatios(b, { [MODEL]: 1, [OTHER_LIBRARY]: 1 }, { [MODEL]: 2 });
    channel = await seedChannel(b.s, { type: 21, base_url: fake.url, key: 'ap-fake-good', other: 'lib-42', models: MODEL });
    await seedChannel(b.s, { type: 21, base_url: fake.url, key: 'ap-fake-good', other: 'lib-unknown', models: OTHER_LIBRARY });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  const charged = async (run: () => Promise<unknown>) => (await billedOnce(b, run)).quota;
  // Local count: the chat prompt as the relay counts it, the answer (references included) as text.
  const expected = (messages: { role: 'system' | 'user' | 'assistant'; content: string }[], answer: string) => countChatPromptTokens({ messages }, MODEL) + countTokens(answer, MODEL) * 2;

  it("the console's channel test asks the library and passes on the local count (the API has no usage)", async () => {
    const seen = fake.requests.length;
    const res = await (await b.s.root()).get(`/api/channel/test/${channel}?model=${MODEL}`);
    expect(res.body).toMatchObject({ success: true });
    expect(fake.requests.length).toBe(seen + 1);
    expect(fake.requests.at(-1)!.json).toMatchObject({ model: MODEL, libraryId: 'lib-42' });
  });

  it('not streamed: the last user message asked of the library, references appended, billed by the local count', async () => {
    fake.script({ text: 'Switchyard relays requests to providers.' });
    const messages = [
      { role: 'system' as const, content: 'Answer from the manual.' },
      { role: 'user' as const, content: 'What is Switchyard?' },
      { role: 'assistant' as const, content: 'A gateway.' },
      { role: 'user' as const, content: 'What does it relay?' },
    ];
    const answer = `Switchyard relays requests to providers.${REFERENCES}`;
    const cost = await charged(async () => {
      const res = await b.openai().chat.completions.create({ model: MODEL, messages });
      expect(res.object).toBe('chat.completion');
      expect(res.choices[0]!.message.content).toBe(answer);
      expect(res.choices[0]!.finish_reason).toBe('stop');
    });
    expect(cost).toBe(expected(messages, answer));
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer ap-fake-good');
    expect(sent.json).toEqual({ model: MODEL, query: 'What does it relay?', libraryId: 'lib-42', stream: false });
  });

  it('streamed: content lines become chunks, the documents close the answer, billed by the local count', async () => {
    fake.script({ text: 'one two three' });
    const messages = [{ role: 'user' as const, content: 'count' }];
    const answer = `one two three${REFERENCES}`;
    const cost = await charged(async () => {
      const stream = await b.openai().chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } });
      const read = await readChatStream(stream);
      expect(read.error).toBeUndefined();
      expect(read.text).toBe(answer);
      expect(read.finish).toBe('stop');
      expect(read.usage).toMatchObject({ prompt_tokens: countChatPromptTokens({ messages }, MODEL), completion_tokens: countTokens(answer, MODEL) });
    });
    expect(cost).toBe(expected(messages, answer));
    expect(fake.requests.at(-1)!.json).toEqual({ model: MODEL, query: 'count', libraryId: 'lib-42', stream: true });
  });

  it('errors: an HTTP error, a refusal inside a 200 answer and a request with no question are billed nothing', async () => {
    // A 400 of the upstream is not retried: one scripted answer.
    fake.script({ error: { status: 400, code: 40001, message: 'model not available for library' } });
    await notBilled(b, async () => {
      const err = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400 });
      expect((err as { error: { message: string } }).error.message).toContain('model not available for library');
    });

    await notBilled(b, async () => {
      const err = await b
        .openai()
        .chat.completions.create({ model: OTHER_LIBRARY, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect((err as { status: number }).status).toBeGreaterThanOrEqual(500);
      expect((err as { error: { message: string } }).error.message).toContain('library lib-unknown not found');
    });

    const asked = fake.requests.length;
    await notBilled(b, async () => {
      const err = await b
        .openai()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'system', content: 'only a system prompt' }] })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400 });
    });
    expect(fake.requests.length).toBe(asked);
  });

  it('a stream broken by an error line after the first words is billed once for what reached the client', async () => {
    fake.script({ text: 'alpha beta gamma delta', streamErrorAfter: 2 });
    const messages = [{ role: 'user' as const, content: 'letters' }];
    const cost = await charged(async () => {
      const stream = await b.openai().chat.completions.create({ model: MODEL, messages, stream: true });
      const read = await readChatStream(stream);
      expect(read.text).toBe('alpha beta ');
      expect(String((read.error as Error | undefined)?.message)).toContain('library answer interrupted');
    });
    expect(cost).toBe(expected(messages, 'alpha beta '));
  });
});
