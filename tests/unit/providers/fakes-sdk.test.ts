/**
 * The fakes speak the providers' real wire formats: the official OpenAI and Anthropic clients
 * are pointed at them and must understand every answer.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { AzureOpenAI, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeClaude, startFakeClaude } from '../../fakes/claude';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai';

let openaiFake: FakeOpenAI;
let claudeFake: FakeClaude;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  [openaiFake, claudeFake] = await Promise.all([startFakeOpenAI(), startFakeClaude()]);
  openai = new OpenAI({ apiKey: 'sk-fake-good', baseURL: `${openaiFake.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: 'sk-ant-fake-good', baseURL: claudeFake.url, maxRetries: 0 });
});
afterAll(async () => {
  await Promise.all([openaiFake.close(), claudeFake.close()]);
});

describe('fake OpenAI with the OpenAI client', () => {
  it('answers chat with text, tool calls and usage', async () => {
    openaiFake.script({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }], usage: { prompt: 20, completion: 7 } });
    const answer = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    const call = answer.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 });
    expect(openaiFake.requests.at(-1)!.bearer).toBe('sk-fake-good');
  });

  it('streams chat, with the usage chunk only when include_usage is asked', async () => {
    openaiFake.script({ text: 'one two three' }, { text: 'four' });
    const withUsage = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    for await (const chunk of withUsage) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('one two three');
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3 });
    const chunks = [];
    for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true })) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('answers errors in OpenAI format and can reset a stream mid-way', async () => {
    openaiFake.script({ error: { status: 429, message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } });
    await expect(openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    openaiFake.script({ text: 'a b c d e f', resetAfter: 2 });
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow();
    const bad = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${openaiFake.url}/v1`, maxRetries: 0 });
    await expect(bad.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 401 });
  });

  it('serves completions, embeddings (base64 by default in the client), images, moderations', async () => {
    const completion = await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' });
    expect(completion.choices[0].text).toBe('Hello from the fake upstream.');
    const embedding = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['hello world', 'x'] });
    expect(embedding.data.map((d) => d.embedding)).toEqual([
      [11, 2, 104, 0.5],
      [1, 1, 120, 0.5],
    ]);
    expect(embedding.usage.prompt_tokens).toBe(3);
    const image = await openai.images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 2 });
    expect(image.data).toHaveLength(2);
    const moderation = await openai.moderations.create({ model: 'omni-moderation-latest', input: ['a', 'b'] });
    expect(moderation.results).toHaveLength(2);
  });

  it('serves speech audio and multipart transcriptions', async () => {
    const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello' });
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    expect((await speech.arrayBuffer()).byteLength).toBe(3 + 50);
    openaiFake.script({ text: 'transcribed words' });
    const transcript = await openai.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('RIFF....WAVE'), 'a.wav') });
    expect(transcript.text).toBe('transcribed words');
    expect(String(openaiFake.requests.at(-1)!.headers['content-type'])).toMatch(/^multipart\/form-data/);
  });

  it('serves Azure deployment paths with api-key and api-version', async () => {
    const azure = new AzureOpenAI({ apiKey: 'sk-fake-good', endpoint: openaiFake.url, apiVersion: '2024-10-21', deployment: 'gpt-4o', maxRetries: 0 });
    const answer = await azure.chat.completions.create({ model: 'ignored', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.model).toBe('gpt-4o');
    const request = openaiFake.requests.at(-1)!;
    expect(request.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(request.query.get('api-version')).toBe('2024-10-21');
    expect(request.headers['api-key']).toBe('sk-fake-good');
  });
});

describe('fake Claude with the Anthropic client', () => {
  it('answers messages with thinking, text, tool use and cache usage', async () => {
    claudeFake.script({
      reasoning: 'Let me think',
      text: 'Calling a tool.',
      toolCalls: [{ id: 'toolu_x', name: 'weather', arguments: { city: 'Rome' } }],
      usage: { prompt: 30, completion: 9, cacheRead: 100, cacheCreation: 20 },
    });
    const message = await anthropic.messages.create({ model: 'claude-3-7-sonnet-20250219', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 30, output_tokens: 9, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 });
    expect(claudeFake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-ant-fake-good');
  });

  it('streams events the client assembles into the same message', async () => {
    claudeFake.script({ reasoning: 'Hmm ok', text: 'Streaming works fine.', toolCalls: [{ name: 'f', arguments: { a: [1, 2] } }], usage: { prompt: 11, completion: 5, cacheRead: 3 } });
    const stream = anthropic.messages.stream({ model: 'claude-3-7-sonnet-20250219', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'Hmm ok', signature: 'sig-fake' },
      { type: 'text', text: 'Streaming works fine.' },
      { type: 'tool_use', id: 'toolu_fake0', name: 'f', input: { a: [1, 2] } },
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 11, output_tokens: 5, cache_read_input_tokens: 3 });
  });

  it('answers errors in Claude format, also as a stream event', async () => {
    claudeFake.script({ error: { status: 529, message: 'Overloaded' } });
    await expect(anthropic.messages.create({ model: 'claude-3-5-haiku-20241022', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 529 });
    claudeFake.script({ text: 'a b c d', streamErrorAfter: 3 });
    const stream = anthropic.messages.stream({ model: 'claude-3-5-haiku-20241022', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    const missingVersion = await fetch(`${claudeFake.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-ant-fake-good', 'content-type': 'application/json' }, body: '{}' });
    expect(missingVersion.status).toBe(400);
    expect(await missingVersion.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
    const models = await anthropic.models.list();
    expect(models.data.map((m) => m.id)).toContain('claude-3-7-sonnet-20250219');
  });
});
