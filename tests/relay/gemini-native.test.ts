/**
 * Gemini's own API (issue #14 item 2) with Google's real client, @google/genai: passed
 * through to Gemini channels, converted through OpenAI chat for OpenAI and Claude channels,
 * plain and streamed, with a function-calling round trip, each billed once by the upstream's
 * usage; countTokens answered locally, embeddings, the model list, `?key=` auth, and bad
 * requests answered 4xx in Google's error shape before any upstream call.
 */
import { GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { billedOnce, startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';

const WEATHER_TOOL = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'The weather in a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describeEachDialect('Gemini-native API (@google/genai client)', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  let ai: GoogleGenAI;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    channels.openai = await seedChannel(b.s, { type: 1, base_url: openai.url, models: `${GPT},text-embedding-3-small` });
    channels.claude = await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    channels.gemini = await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: `${GEMINI},text-embedding-004` });
    ai = new GoogleGenAI({ apiKey: b.token.apiKey, httpOptions: { baseUrl: b.s.url } });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
  });

  const billed = (run: () => Promise<unknown>) => billedOnce(b, run);

  it('Gemini channel: generateContent passes through (body, key, usage with thoughts and cache)', async () => {
    gemini.script({ text: 'native answer', reasoning: 'hmm', usage: { prompt: 40, completion: 10, reasoning: 20, cacheRead: 8 } });
    const { quota, log } = await billed(async () => {
      const res = await ai.models.generateContent({
        model: GEMINI,
        contents: 'hello',
        config: { temperature: 0.3, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }] },
      });
      expect(res.text).toBe('native answer');
      expect(res.usageMetadata).toMatchObject({ promptTokenCount: 40, candidatesTokenCount: 10, thoughtsTokenCount: 20 });
    });
    const upstream = gemini.requests.at(-1)!;
    expect(upstream.path).toBe(`/v1beta/models/${GEMINI}:generateContent`);
    expect(upstream.headers['x-goog-api-key']).toBe('gm-fake-good');
    const sent = upstream.json as { contents: unknown; generationConfig: unknown; safetySettings: unknown };
    expect(sent.contents).toEqual([{ parts: [{ text: 'hello' }], role: 'user' }]);
    expect(sent.generationConfig).toEqual({ temperature: 0.3 });
    expect(sent.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    expect(log).toMatchObject({ model_name: GEMINI, prompt_tokens: 40, completion_tokens: 30, channel_id: channels.gemini });
    // (40 + (10 + 20 thoughts) × 4) × 0.05; the cached 8 at this model's cache ratio 1
    expect(quota).toBe(8);
    expect(JSON.parse(log.other)).toMatchObject({ cache_tokens: 8 });
  });

  it('Gemini channel: streamed with alt=sse, usage of the last chunk billed', async () => {
    gemini.script({ text: 'one two three', usage: { prompt: 100, completion: 50 } });
    const { quota } = await billed(async () => {
      let text = '';
      for await (const chunk of await ai.models.generateContentStream({ model: GEMINI, contents: 'count' })) text += chunk.text ?? '';
      expect(text).toBe('one two three');
    });
    expect(gemini.requests.at(-1)!.path).toBe(`/v1beta/models/${GEMINI}:streamGenerateContent`);
    expect(gemini.requests.at(-1)!.query.get('alt')).toBe('sse');
    // (100 + 50 × 4) × 0.05
    expect(quota).toBe(15);
  });

  it('Gemini channel: a function-calling round trip', async () => {
    gemini.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 30, completion: 5 } });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'weather in Paris?' }] }];
    const first = await ai.models.generateContent({ model: GEMINI, contents, config: { tools: [WEATHER_TOOL] } });
    expect(first.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
    contents.push(first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] });
    gemini.script({ text: 'It is 21 degrees in Paris.', usage: { prompt: 50, completion: 8 } });
    const second = await ai.models.generateContent({ model: GEMINI, contents, config: { tools: [WEATHER_TOOL] } });
    expect(second.text).toBe('It is 21 degrees in Paris.');
    const sent = gemini.requests.at(-1)!.json as { contents: Content[] };
    expect(sent.contents[2]!.parts![0]!.functionResponse).toMatchObject({ name: 'get_weather', response: { temperature: 21 } });
  });

  it('OpenAI channel: converted both ways, plain and streamed, billed by the OpenAI usage', async () => {
    openai.script({ text: 'converted answer', usage: { prompt: 40, completion: 20 } });
    const { quota, log } = await billed(async () => {
      const res = await ai.models.generateContent({
        model: GPT,
        contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }],
        config: { systemInstruction: 'be brief', temperature: 0.5, maxOutputTokens: 100, stopSequences: ['END'], responseMimeType: 'application/json' },
      });
      expect(res.text).toBe('converted answer');
      expect(res.candidates![0]!.finishReason).toBe('STOP');
      expect(res.usageMetadata).toMatchObject({ promptTokenCount: 40, candidatesTokenCount: 20, totalTokenCount: 60 });
    });
    const sent = JSON.parse(openai.requests.at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: GPT,
      max_tokens: 100,
      temperature: 0.5,
      stop: ['END'],
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    // (40 + 20 × 4) × 0.075
    expect(quota).toBe(9);
    expect(log).toMatchObject({ model_name: GPT, prompt_tokens: 40, completion_tokens: 20, channel_id: channels.openai });

    openai.script({ text: 'streamed back to gemini', usage: { prompt: 40, completion: 20 } });
    const streamed = await billed(async () => {
      let text = '';
      let last: { finishReason?: string; usage?: unknown } = {};
      for await (const chunk of await ai.models.generateContentStream({ model: GPT, contents: 'go' })) {
        text += chunk.text ?? '';
        if (chunk.candidates?.[0]?.finishReason) last = { finishReason: chunk.candidates[0].finishReason, usage: chunk.usageMetadata };
      }
      expect(text).toBe('streamed back to gemini');
      expect(last).toEqual({ finishReason: 'STOP', usage: expect.objectContaining({ promptTokenCount: 40, candidatesTokenCount: 20 }) });
    });
    expect(streamed.quota).toBe(9);
    expect(JSON.parse(openai.requests.at(-1)!.body)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('OpenAI channel: a function-calling round trip (streamed), tool call ids matched', async () => {
    openai.script({ toolCalls: [{ id: 'call_abc', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 30, completion: 5 } });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'weather in Paris?' }] }];
    const calls = [];
    let modelTurn: Content | undefined;
    for await (const chunk of await ai.models.generateContentStream({ model: GPT, contents, config: { tools: [WEATHER_TOOL] } })) {
      calls.push(...(chunk.functionCalls ?? []));
      if (chunk.functionCalls) modelTurn = chunk.candidates![0]!.content;
    }
    expect(calls).toEqual([{ id: 'call_abc', name: 'get_weather', args: { city: 'Paris' } }]);
    const tools = (JSON.parse(openai.requests.at(-1)!.body) as { tools: unknown }).tools;
    expect(tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: WEATHER_TOOL.functionDeclarations[0]!.parametersJsonSchema } }]);

    contents.push(modelTurn!, { role: 'user', parts: [{ functionResponse: { id: 'call_abc', name: 'get_weather', response: { temperature: 21 } } }] });
    openai.script({ text: 'It is 21 degrees.', usage: { prompt: 50, completion: 6 } });
    const final = await ai.models.generateContent({ model: GPT, contents, config: { tools: [WEATHER_TOOL] } });
    expect(final.text).toBe('It is 21 degrees.');
    const sent = JSON.parse(openai.requests.at(-1)!.body) as { messages: unknown[] };
    expect(sent.messages).toEqual([
      { role: 'user', content: 'weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc', content: '{"temperature":21}' },
    ]);
  });

  it('Claude channel: converted through chat, plain and streamed, with Claude billing', async () => {
    claude.script({ text: 'claude via gemini', usage: { prompt: 20, completion: 4 } });
    const { quota, log } = await billed(async () => {
      const res = await ai.models.generateContent({ model: CLAUDE, contents: 'hello', config: { systemInstruction: 'sys', maxOutputTokens: 64 } });
      expect(res.text).toBe('claude via gemini');
      expect(res.usageMetadata).toMatchObject({ promptTokenCount: 20, candidatesTokenCount: 4 });
    });
    // (20 + 4 × 5) × 1.5
    expect(quota).toBe(60);
    expect(log).toMatchObject({ model_name: CLAUDE, channel_id: channels.claude });
    const upstream = JSON.parse(claude.requests.at(-1)!.body) as Record<string, unknown>;
    expect(upstream).toMatchObject({ system: 'sys', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] });

    claude.script({ toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }], usage: { prompt: 20, completion: 3 } });
    const calls = [];
    for await (const chunk of await ai.models.generateContentStream({ model: CLAUDE, contents: 'weather in Oslo?', config: { tools: [WEATHER_TOOL] } })) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([{ id: 'toolu_1', name: 'get_weather', args: { city: 'Oslo' } }]);
  });

  it('Claude channel: a thinking budget becomes Claude extended thinking', async () => {
    claude.script({ reasoning: 'let me think', text: 'thought it through', usage: { prompt: 20, completion: 9 } });
    const res = await ai.models.generateContent({ model: CLAUDE, contents: 'think first', config: { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 20000, includeThoughts: true } } });
    expect(res.text).toBe('thought it through');
    const upstream = JSON.parse(claude.requests.at(-1)!.body) as { thinking?: { type: string; budget_tokens: number }; max_tokens: number };
    expect(upstream.thinking).toMatchObject({ type: 'enabled' });
    expect(upstream.thinking!.budget_tokens).toBeGreaterThanOrEqual(1024);
    expect(upstream.max_tokens).toBeGreaterThan(upstream.thinking!.budget_tokens);
  });

  it('streamGenerateContent without alt=sse answers one JSON array', async () => {
    const post = (model: string) =>
      fetch(`${b.s.url}/v1beta/models/${model}:streamGenerateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': b.token.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
      });
    gemini.script({ text: 'array of chunks', usage: { prompt: 5, completion: 3 } });
    let res = await post(GEMINI);
    expect(res.headers.get('content-type')).toContain('application/json');
    let chunks = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[];
    expect(chunks.map((c) => c.candidates[0]!.content.parts[0]!.text).join('')).toBe('array of chunks');
    openai.script({ text: 'converted array', usage: { prompt: 5, completion: 2 } });
    res = await post(GPT);
    chunks = (await res.json()) as typeof chunks;
    expect(chunks.map((c) => c.candidates[0]!.content.parts.map((p) => p.text).join('')).join('')).toBe('converted array');
  });

  it('a stream broken upstream ends with an error in Google shape (SSE and JSON array), billed for what came', async () => {
    const post = (query: string) =>
      fetch(`${b.s.url}/v1beta/models/${GEMINI}:streamGenerateContent${query}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': b.token.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
      });
    gemini.script({ text: 'one two three four', resetAfter: 2 });
    const sse = await billed(async () => {
      const text = await (await post('?alt=sse')).text();
      const events = text
        .split('\n\n')
        .filter((e) => e.startsWith('data: '))
        .map((e) => JSON.parse(e.slice(6)) as Record<string, unknown>);
      expect(events).toHaveLength(3);
      expect(events[2]).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    });
    expect(sse.log.content).toContain('上游中途断开');
    gemini.script({ text: 'one two three four', resetAfter: 2 });
    const array = (await (await post('')).json()) as Record<string, unknown>[];
    expect(array).toHaveLength(3);
    expect(array[2]).toMatchObject({ error: { status: 'INTERNAL' } });
  });

  it('countTokens is answered locally: no upstream call, nothing billed', async () => {
    const calls = gemini.requests.length + openai.requests.length;
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const res = await ai.models.countTokens({ model: GEMINI, contents: 'The quick brown fox jumps over the lazy dog' });
    expect(res.totalTokens).toBeGreaterThan(8);
    expect(res.totalTokens).toBeLessThan(20);
    const other = await ai.models.countTokens({ model: `models/${GPT}`, contents: 'hi' });
    expect(other.totalTokens).toBeGreaterThan(0);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.quota).toBe(before.quota);
    expect(gemini.requests.length + openai.requests.length).toBe(calls);
  });

  it('embedContent and batchEmbedContents: Gemini channel natively, OpenAI channel converted', async () => {
    const native = await billed(async () => {
      const res = await ai.models.embedContent({ model: 'text-embedding-004', contents: 'hello world' });
      expect(res.embeddings).toEqual([{ values: [11, 2, 104, 0.5] }]);
    });
    expect(native.log).toMatchObject({ model_name: 'text-embedding-004', channel_id: channels.gemini });
    expect(native.log.prompt_tokens).toBeGreaterThan(0);
    expect(gemini.requests.at(-1)!.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');

    const batch = await ai.models.embedContent({ model: 'text-embedding-3-small', contents: ['one', 'two words'] });
    expect(batch.embeddings).toHaveLength(2);
    expect(batch.embeddings![0]!.values!.length).toBeGreaterThan(0);
    expect(JSON.parse(openai.requests.at(-1)!.body)).toMatchObject({ model: 'text-embedding-3-small', input: ['one', 'two words'] });

    const single = await fetch(`${b.s.url}/v1beta/models/text-embedding-3-small:embedContent?key=${b.token.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'solo' }] } }),
    });
    expect(single.status).toBe(200);
    const body = (await single.json()) as { embedding: { values: number[] } };
    expect(body.embedding.values.length).toBeGreaterThan(0);
    expect(JSON.parse(openai.requests.at(-1)!.body)).toMatchObject({ input: 'solo' });
  });

  it('lists the models the token may use, in Gemini shape', async () => {
    const names: string[] = [];
    for await (const model of await ai.models.list()) names.push(model.name!);
    expect(names.sort()).toEqual([CLAUDE, GEMINI, GPT, 'text-embedding-004', 'text-embedding-3-small'].map((m) => `models/${m}`).sort());
    const one = await ai.models.get({ model: GEMINI });
    expect(one).toMatchObject({ name: `models/${GEMINI}`, supportedActions: expect.arrayContaining(['generateContent']) });
    const res = await fetch(`${b.s.url}/v1beta/models/unknown-model?key=${b.token.apiKey}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });

  it('takes the key from ?key=, x-goog-api-key or Bearer, and /v1 paths too; refuses a bad key in Google shape', async () => {
    const body = JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] });
    const post = (path: string, headers: Record<string, string> = {}) => fetch(`${b.s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    gemini.script({ text: 'by query key' });
    let res = await post(`/v1beta/models/${GEMINI}:generateContent?key=${b.token.key}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { candidates: unknown[] }).candidates).toHaveLength(1);
    // The client's key never goes upstream.
    expect(gemini.requests.at(-1)!.query.get('key')).toBeNull();
    gemini.script({ text: 'by bearer' });
    res = await post(`/v1/models/models/${GEMINI}:generateContent`, { authorization: `Bearer ${b.token.apiKey}` });
    expect(res.status).toBe(200);
    await res.text();

    // A path that is not valid percent-encoding: refused without repeating the URL's key.
    for (const path of ['/v1beta/models/bad%ED%A0%80:generateContent', '/v1/models/bad%ED%A0%80:generateContent']) {
      res = await post(`${path}?key=${b.token.key}`);
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toContain('is not a valid url component');
      expect(text).not.toContain(b.token.key);
    }

    res = await post(`/v1beta/models/${GEMINI}:generateContent`, { 'x-goog-api-key': 'sk-not-a-token' });
    expect(res.status).toBe(401);
    const error = ((await res.json()) as { error: { code: number; status: string; message: string } }).error;
    expect(error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('bad requests are 4xx in Google shape, before any upstream call', async () => {
    const calls = gemini.requests.length + openai.requests.length + claude.requests.length;
    const post = async (path: string, body: string) => {
      const res = await fetch(`${b.s.url}${path}`, { method: 'POST', headers: { 'x-goog-api-key': b.token.apiKey, 'content-type': 'application/json' }, body });
      return { status: res.status, body: (await res.json()) as { error: { code: number; status: string; message: string } } };
    };
    const cases: [string, string, number][] = [
      [`/v1beta/models/${GEMINI}:generateContent`, '{}', 400],
      [`/v1beta/models/${GEMINI}:generateContent`, '{"contents":"hi"}', 400],
      [`/v1beta/models/${GEMINI}:generateContent`, '{"contents":[{"parts":[]}]}', 400],
      [`/v1beta/models/${GEMINI}:generateContent`, '{"contents":[{"parts":[{"text":5}]}]}', 400],
      [`/v1beta/models/${GEMINI}:generateContent`, '{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"maxOutputTokens":-1}}', 400],
      [`/v1beta/models/${GEMINI}:generateContent`, 'not json', 400],
      [`/v1beta/models/${GEMINI}:streamGenerateContent`, '[]', 400],
      [`/v1beta/models/${GEMINI}:embedContent`, '{"content":{}}', 400],
      [`/v1beta/models/${GEMINI}:batchEmbedContents`, '{"requests":[]}', 400],
      [`/v1beta/models/${GEMINI}:countTokens`, '{"contents":[1]}', 400],
      [`/v1beta/models/${GEMINI}:explode`, '{}', 404],
      [`/v1beta/models/${GEMINI}`, '{}', 404],
      ['/v1beta/models/:generateContent', '{}', 400],
      [`/v1beta/models/${'m'.repeat(200)}:generateContent`, '{}', 400],
      [`/v1beta/models/${GPT}:generateContent`, '{"contents":[{"parts":[{"fileData":{"fileUri":"gs://bucket/video.mp4","mimeType":"video/mp4"}}]}]}', 400],
      ['/v1beta/models/bad%00name:generateContent', '{"contents":[{"parts":[{"text":"x"}]}]}', 400],
      ['/v1beta/models/bad%ED%A0%80name:generateContent', '{"contents":[{"parts":[{"text":"x"}]}]}', 400],
      // The prompt's sensitive-word check (the default dictionary) applies here as on chat.
      [`/v1beta/models/${GPT}:generateContent`, '{"contents":[{"parts":[{"text":"say TEST_sensitive"}]}]}', 400],
      ['/v1beta/nothing-here', '{}', 404],
    ];
    for (const [path, body, status] of cases) {
      const res = await post(path, body);
      expect({ path, body, status: res.status }).toEqual({ path, body, status });
      expect(res.body.error).toMatchObject({ code: status, status: expect.any(String), message: expect.any(String) });
    }
    expect(gemini.requests.length + openai.requests.length + claude.requests.length).toBe(calls);
    await b.flush();
    expect((await balances(b.s, b.user.id, b.token.id)).openCount).toBe(0);
  });

  it('an upstream error reaches the client in Google shape', async () => {
    gemini.script({ error: { status: 400, message: 'Invalid JSON payload received.', type: 'INVALID_ARGUMENT' } });
    const error = await ai.models.generateContent({ model: GEMINI, contents: 'x' }).catch((err: unknown) => err as { status?: number; message: string });
    expect(error).toMatchObject({ status: 400 });
    expect((error as { message: string }).message).toContain('Invalid JSON payload received.');
  });
});
