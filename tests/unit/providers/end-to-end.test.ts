/**
 * Each provider against its fake upstream, with no server in between: build the request,
 * send it with fetch, parse the answer or run the stream through the SSE parser and the
 * provider's converter — the path the pipeline takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaudeStreamFromOpenAI, claudeMessageFromOpenAI, openaiRequestFromClaude } from '../../../src/server/relay/formats/claude-openai';
import { azureProvider } from '../../../src/server/relay/providers/azure';
import { claudeProvider } from '../../../src/server/relay/providers/claude';
import { geminiProvider } from '../../../src/server/relay/providers/gemini';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import type { ParsedResponse, Provider, RelayMode, Target, UpstreamRequest } from '../../../src/server/relay/providers/types';
import { SseParser } from '../../../src/server/relay/stream/sse-parser';
import { type FakeClaude, startFakeClaude } from '../../fakes/claude';
import { type FakeGemini, startFakeGemini } from '../../fakes/gemini';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai';
import { type StreamRun, runStream, target } from './helpers';

let openaiFake: FakeOpenAI;
let claudeFake: FakeClaude;
let geminiFake: FakeGemini;

beforeAll(async () => {
  [openaiFake, claudeFake, geminiFake] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
});
afterAll(async () => {
  await Promise.all([openaiFake.close(), claudeFake.close(), geminiFake.close()]);
});

function send(request: UpstreamRequest): Promise<Response> {
  return fetch(request.url, { method: request.method, headers: request.headers, body: request.body as BodyInit });
}

/** Non-stream call: status, parsed answer (or normalised error). */
async function call(provider: Provider, mode: RelayMode, body: Record<string, unknown>, t: Target): Promise<ParsedResponse & { status: number }> {
  const response = await send(provider.buildRequest(mode, body, t, false));
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, body: undefined, error: provider.parseError(response.status, text) };
  return { status: 200, ...provider.parseResponse(mode, JSON.parse(text), t) };
}

/** Stream call: every upstream byte chunk through the SSE parser and the converter. */
async function stream(
  provider: Provider,
  mode: RelayMode,
  body: Record<string, unknown>,
  t: Target,
  includeUsage = false,
  wrap?: (c: ReturnType<NonNullable<Provider['createStream']>>) => ReturnType<NonNullable<Provider['createStream']>>,
): Promise<StreamRun> {
  const response = await send(provider.buildRequest(mode, { ...body, stream: true }, t, true));
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const parser = new SseParser();
  const upstream = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) upstream.push(...parser.push(chunk));
  upstream.push(...parser.end());
  const converter = provider.createStream!(mode, t, { includeUsage });
  return runStream(wrap ? wrap(converter) : converter, upstream, { promptTokens: 1, completionTokens: 1 });
}

const hi = { model: 'client-name', messages: [{ role: 'user', content: 'hi' }] };

describe('OpenAI and Azure against the fake', () => {
  const t = () => target({ baseUrl: openaiFake.url, key: 'sk-fake-good', upstreamModel: 'gpt-4o' });

  it('chat answers and streams with real usage; the forced usage chunk stays hidden', async () => {
    openaiFake.script({ text: 'a b', usage: { prompt: 5, completion: 2 } }, { text: 'c d e', usage: { prompt: 6, completion: 3 } });
    const answer = await call(openaiProvider, 'chat', hi, t());
    expect(answer.usage).toEqual({ promptTokens: 5, completionTokens: 2 });
    const run = await stream(openaiProvider, 'chat', hi, t());
    expect(JSON.parse(openaiFake.requests.at(-1)!.body).stream_options).toEqual({ include_usage: true });
    expect(run.usage).toEqual({ promptTokens: 6, completionTokens: 3 });
    expect(run.text).toBe('c d e');
    expect(run.json.some((c) => typeof c === 'object' && (c as { usage?: unknown }).usage)).toBe(false);
  });

  it('normalises upstream errors and HTML failures', async () => {
    openaiFake.script({ error: { status: 429, message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } }, { rawError: { status: 502, body: '<html>Bad Gateway</html>' } });
    expect((await call(openaiProvider, 'chat', hi, t())).error).toEqual({ status: 429, message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' });
    expect((await call(openaiProvider, 'chat', hi, t())).error).toEqual({ status: 502, message: 'bad response status code 502', type: 'upstream_error', code: 'bad_response_status_code' });
    expect((await call(openaiProvider, 'chat', hi, { ...t(), key: 'sk-bad' })).error).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('sends transcriptions as multipart and embeddings with usage', async () => {
    openaiFake.script({ text: 'spoken' });
    const file = new File([new Uint8Array([82, 73, 70, 70])], 'a.wav', { type: 'audio/wav' });
    expect((await call(openaiProvider, 'transcriptions', { model: 'x', file }, t())).body).toEqual({ text: 'spoken' });
    const embedded = await call(openaiProvider, 'embeddings', { model: 'x', input: 'one two' }, t());
    expect(embedded.usage).toEqual({ promptTokens: 2, completionTokens: 0 });
  });

  it('reaches Azure deployments', async () => {
    const azure = target({ channelType: 3, baseUrl: openaiFake.url, key: 'sk-fake-good', upstreamModel: 'gpt-4.1', other: '2025-01-01-preview' });
    const answer = await call(azureProvider, 'chat', hi, azure);
    expect((answer.body as { model: string }).model).toBe('gpt-41');
    expect(openaiFake.requests.at(-1)!.query.get('api-version')).toBe('2025-01-01-preview');
  });
});

describe('Claude against the fake', () => {
  const t = (model = 'claude-3-7-sonnet-20250219') => target({ channelType: 14, baseUrl: claudeFake.url, key: 'sk-ant-fake-good', requestModel: model, upstreamModel: model });

  it('chat: OpenAI in, Claude upstream, OpenAI out with cache usage', async () => {
    claudeFake.script({ text: 'Bonjour', toolCalls: [{ id: 'toolu_1', name: 'f', arguments: { a: 1 } }], usage: { prompt: 9, completion: 4, cacheRead: 30, cacheCreation: 5 } });
    const answer = await call(claudeProvider, 'chat', hi, t());
    expect(answer.usage).toEqual({ promptTokens: 9, completionTokens: 4, cachedTokens: 30, cacheCreationTokens: 5, promptExcludesCache: true });
    expect(answer.body).toMatchObject({ choices: [{ message: { content: 'Bonjour', tool_calls: [{ id: 'toolu_1', function: { name: 'f', arguments: '{"a":1}' } }] }, finish_reason: 'tool_calls' }] });
    expect(claudeFake.requests.at(-1)!.headers['x-api-key']).toBe('sk-ant-fake-good');
  });

  it('chat stream with thinking (the -thinking adapter) and usage chunk', async () => {
    claudeFake.script({ reasoning: 'Think first', text: 'Done now', usage: { prompt: 7, completion: 6, cacheRead: 2 } });
    const run = await stream(claudeProvider, 'chat', hi, t('claude-3-7-sonnet-20250219-thinking'), true);
    expect(JSON.parse(claudeFake.requests.at(-1)!.body)).toMatchObject({ model: 'claude-3-7-sonnet-20250219', thinking: { type: 'enabled' } });
    expect(run.text).toBe('Think firstDone now');
    expect(run.usage).toEqual({ promptTokens: 7, completionTokens: 6, cachedTokens: 2, promptExcludesCache: true });
    expect(run.json.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 6 } });
  });

  it('messages pass-through: events forwarded as sent, usage read', async () => {
    claudeFake.script({ text: 'x y', usage: { prompt: 3, completion: 2, cacheCreation: 4 } });
    const run = await stream(claudeProvider, 'messages', { model: 'a', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, t());
    expect(run.out[0].event).toBe('message_start');
    expect(run.out.at(-1)).toEqual({ event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(run.usage).toEqual({ promptTokens: 3, completionTokens: 2, cacheCreationTokens: 4, promptExcludesCache: true });
  });

  it('legacy claude-2 goes to /v1/complete', async () => {
    claudeFake.script({ text: 'Old model' });
    const answer = await call(claudeProvider, 'chat', hi, t('claude-2.1'));
    expect(claudeFake.requests.at(-1)!.path).toBe('/v1/complete');
    expect(answer.text).toBe('Old model');
  });

  it('errors keep Claude type and message', async () => {
    claudeFake.script({ error: { status: 529, message: 'Overloaded' } });
    expect((await call(claudeProvider, 'chat', hi, t())).error).toEqual({ status: 529, message: 'Overloaded', type: 'overloaded_error', code: null });
  });
});

describe('Gemini against the fake', () => {
  const t = (model = 'gemini-2.0-flash') => target({ channelType: 24, baseUrl: geminiFake.url, key: 'gm-fake-good', requestModel: model, upstreamModel: model });

  it('generateContent with function calls and thinking usage', async () => {
    geminiFake.script({ text: 'Sure', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }], usage: { prompt: 10, completion: 3, reasoning: 4 } });
    const answer = await call(geminiProvider, 'chat', hi, t());
    expect(answer.usage).toEqual({ promptTokens: 10, completionTokens: 7, reasoningTokens: 4 });
    expect(answer.body).toMatchObject({ choices: [{ message: { content: 'Sure', tool_calls: [{ function: { name: 'lookup', arguments: '{"q":"x"}' } }] }, finish_reason: 'tool_calls' }] });
    expect(geminiFake.requests.at(-1)!.headers['x-goog-api-key']).toBe('gm-fake-good');
  });

  it('streamGenerateContent?alt=sse (CRLF events) with the last usage', async () => {
    geminiFake.script({ text: 'one two three', usage: { prompt: 4, completion: 3 } });
    const run = await stream(geminiProvider, 'chat', hi, t(), true);
    expect(geminiFake.requests.at(-1)!.query.get('alt')).toBe('sse');
    expect(run.text).toBe('one two three');
    expect(run.usage).toEqual({ promptTokens: 4, completionTokens: 3 });
    const finishes = run.json.map((c) => {
      const choices = (c as { choices: { finish_reason: string | null }[] }).choices;
      return choices.length > 0 ? choices[0].finish_reason : 'usage';
    });
    expect(finishes).toEqual([null, null, null, 'stop', 'usage']);
  });

  it('embeddings (batch) and Imagen images', async () => {
    const embedded = await call(geminiProvider, 'embeddings', { input: ['a b', 'c'] }, t('text-embedding-004'));
    expect((embedded.body as { data: { embedding: number[] }[] }).data.map((d) => d.embedding)).toEqual([
      [3, 2, 97, 0.5],
      [1, 1, 99, 0.5],
    ]);
    const images = await call(geminiProvider, 'images', { prompt: 'a cat', n: 2 }, t('imagen-3.0-generate-002'));
    expect((images.body as { data: unknown[] }).data).toHaveLength(2);
  });

  it('normalises Gemini errors (bad key, unknown model)', async () => {
    expect((await call(geminiProvider, 'chat', hi, { ...t(), key: 'nope' })).error).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
      code: 400,
    });
    expect((await call(geminiProvider, 'chat', hi, t('gemini-9'))).error).toMatchObject({ status: 404, type: 'NOT_FOUND' });
  });
});

describe('/v1/messages through an OpenAI channel', () => {
  it('converts the Claude request, the OpenAI stream and the answer back', async () => {
    const claudeBody = { model: 'claude-3-5-sonnet-20241022', max_tokens: 100, system: 'Short.', messages: [{ role: 'user', content: 'hi' }] };
    const t = target({ baseUrl: openaiFake.url, key: 'sk-fake-good', upstreamModel: 'gpt-4o' });
    openaiFake.script({ text: 'Hello you', usage: { prompt: 8, completion: 2 } }, { text: 'Plain', usage: { prompt: 8, completion: 1 } });
    const run = await stream(openaiProvider, 'chat', openaiRequestFromClaude(claudeBody), t, false, (inner) => new ClaudeStreamFromOpenAI(inner, { model: claudeBody.model, promptTokens: 6 }));
    expect(run.out.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(run.json.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 8, output_tokens: 2 } });
    const answer = await call(openaiProvider, 'chat', openaiRequestFromClaude({ ...claudeBody, stream: false }), t);
    expect(claudeMessageFromOpenAI(answer.body, claudeBody.model)).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'Plain' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 8, output_tokens: 1 },
    });
  });
});
