/**
 * `/v1/responses` (issue #14 item 1) with the real `openai` SDK: passed through to OpenAI and
 * Azure channels, converted through chat for Claude and Gemini channels; streamed and not; a
 * function tool round trip (a function_call, then its function_call_output sent with
 * previous_response_id); each upstream's usage billed in the consume log; stored responses
 * read and deleted by id and scoped to their token; bad requests refused before any upstream.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel, seedToken, type SeededToken } from './seed';
import { ResponsesStore } from '../../src/server/relay/responses/store';

const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';
const AZURE_MODEL = 'gpt-4.1';
/** On a Moonshot channel (an OpenAI-compatible chat family): no Responses API, so converted through chat. */
const MOONSHOT = 'deepseek-chat';

const WEATHER_TOOL = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

describeEachDialect('/v1/responses (openai SDK)', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  let other: SeededToken;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    other = await seedToken(b.s, b.user.id);
    channels.openai = await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    channels.claude = await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    channels.gemini = await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    channels.azure = await seedChannel(b.s, { type: 3, base_url: openai.url, key: 'sk-fake-good', models: AZURE_MODEL, other: '2024-10-21' });
    channels.moonshot = await seedChannel(b.s, { type: 25, base_url: openai.url, key: 'sk-fake-good', models: MOONSHOT });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
  });

  /** The consume log of the last request (after the settlement is written). */
  async function lastLog() {
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return { ...log, quota: Number(log.quota), channel_id: Number(log.channel_id), other: JSON.parse(log.other) as Record<string, unknown> };
  }

  async function quotaSpent(run: () => Promise<unknown>): Promise<number> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    await run();
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    expect(after.logSum - before.logSum).toBe(before.quota - after.quota);
    return before.quota - after.quota;
  }

  async function collect(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; text: string; final: OpenAI.Responses.Response }> {
    const events: StreamEvent[] = [];
    let text = '';
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const done = events.at(-1);
    if (done?.type !== 'response.completed') throw new Error(`stream ended with ${done?.type}`);
    events.forEach((event, i) => expect(event.sequence_number).toBe(i));
    return { events, text, final: done.response };
  }

  function functionCall(response: OpenAI.Responses.Response): OpenAI.Responses.ResponseFunctionToolCall {
    const call = response.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('no function_call in the output');
    return call;
  }

  it('OpenAI channel: passed through, non-stream, function tool round trip with previous_response_id, billed from the upstream usage', async () => {
    openai.script({ toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 1000, completion: 200, cacheRead: 400, reasoning: 50 } });
    let first!: OpenAI.Responses.Response;
    const q1 = await quotaSpent(async () => {
      first = await b.openai().responses.create({ model: GPT, instructions: 'Answer briefly.', input: 'What is the weather in Paris?', tools: [WEATHER_TOOL], reasoning: { effort: 'low' } });
    });
    const call = functionCall(first);
    expect(call).toMatchObject({ name: 'get_weather', call_id: 'call_w1' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(first.usage).toMatchObject({ input_tokens: 1000, output_tokens: 200, input_tokens_details: { cached_tokens: 400 }, output_tokens_details: { reasoning_tokens: 50 } });
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.bearer).toBe('sk-fake-good');
    expect(JSON.parse(sent.body)).toMatchObject({ model: GPT, instructions: 'Answer briefly.', input: 'What is the weather in Paris?', tools: [WEATHER_TOOL], reasoning: { effort: 'low' } });
    const log1 = await lastLog();
    expect(log1).toMatchObject({ model_name: GPT, prompt_tokens: 1000, completion_tokens: 200, channel_id: channels.openai, quota: q1 });
    expect(log1.other).toMatchObject({ cache_tokens: 400, model_ratio: 0.075, completion_ratio: 4 });
    // (1000 − 400 + 400 × 0.5 + 200 × 4) × 0.075 = 120
    expect(q1).toBe(120);

    openai.script({ text: 'It is sunny in Paris.', usage: { prompt: 1200, completion: 8 } });
    const second = await b.openai().responses.create({
      model: GPT,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
      tools: [WEATHER_TOOL],
    });
    expect(second.output_text).toBe('It is sunny in Paris.');
    const followUp = JSON.parse(openai.requests.at(-1)!.body);
    expect(followUp.previous_response_id).toBe(first.id);
    expect(followUp.input).toEqual([{ type: 'function_call_output', call_id: 'call_w1', output: '{"sky":"sunny"}' }]);
    expect(await lastLog()).toMatchObject({ prompt_tokens: 1200, completion_tokens: 8, channel_id: channels.openai });

    // GET, its input items and DELETE go to the upstream that stores it, for the token that made it only.
    const items = await b.openai().responses.inputItems.list(second.id, { order: 'asc', limit: 10 });
    expect(items.data).toMatchObject([{ type: 'function_call_output', call_id: 'call_w1' }]);
    expect(openai.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/responses/${second.id}/input_items` });
    expect(openai.requests.at(-1)!.query.get('order')).toBe('asc');
    expect(openai.requests.at(-1)!.query.get('limit')).toBe('10');
    const read = await b.openai().responses.retrieve(first.id);
    expect(read.id).toBe(first.id);
    expect(openai.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/responses/${first.id}`, bearer: 'sk-fake-good' });
    await expect(b.openai(other.apiKey).responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    const asked = openai.requests.length;
    await expect(b.openai(other.apiKey).responses.delete(first.id)).rejects.toMatchObject({ status: 404 });
    expect(openai.requests.length).toBe(asked);
    await b.openai().responses.delete(first.id);
    expect(openai.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/responses/${first.id}` });
    await expect(b.openai().responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
  });

  it('OpenAI channel: streamed events pass through as they came, usage read from response.completed', async () => {
    openai.script({ text: 'one two three', usage: { prompt: 40, completion: 3 } });
    let result!: Awaited<ReturnType<typeof collect>>;
    const q = await quotaSpent(async () => {
      result = await collect(await b.openai().responses.create({ model: GPT, input: 'count', stream: true }));
    });
    expect(result.text).toBe('one two three');
    expect(result.final.usage).toMatchObject({ input_tokens: 40, output_tokens: 3 });
    expect(result.events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    // (40 + 3 × 4) × 0.075 = 3.9 → 4
    expect(q).toBe(4);
    expect(await lastLog()).toMatchObject({ prompt_tokens: 40, completion_tokens: 3, is_stream: expect.anything() });

    // The SDK's own stream helper builds the final response from the same events.
    openai.script({ toolCalls: [{ id: 'call_s1', name: 'get_weather', arguments: { city: 'Oslo' } }], usage: { prompt: 30, completion: 9 } });
    const stream = b.openai().responses.stream({ model: GPT, input: 'Oslo weather?', tools: [WEATHER_TOOL] });
    const final = await stream.finalResponse();
    expect(JSON.parse(functionCall(final).arguments)).toEqual({ city: 'Oslo' });
  });

  it('Azure channel: /openai/v1/responses with the deployment as model and the api-key header', async () => {
    openai.script({ text: 'azure responds', usage: { prompt: 10, completion: 2 } });
    const res = await b.openai().responses.create({ model: AZURE_MODEL, input: 'hi' });
    expect(res.output_text).toBe('azure responds');
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe('/openai/v1/responses');
    expect(sent.headers['api-key']).toBe('sk-fake-good');
    expect(sent.headers.authorization).toBeUndefined();
    expect(JSON.parse(sent.body).model).toBe('gpt-41');
    expect(await lastLog()).toMatchObject({ prompt_tokens: 10, completion_tokens: 2, channel_id: channels.azure });
    await b.openai().responses.delete(res.id);
    expect(openai.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/openai/v1/responses/${res.id}` });
  });

  it('Claude channel: converted through chat, non-stream, tool round trip from the stored conversation, Claude billing', async () => {
    claude.script({ toolCalls: [{ id: 'toolu_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 100, completion: 20 } });
    let first!: OpenAI.Responses.Response;
    const q1 = await quotaSpent(async () => {
      first = await b.openai().responses.create({ model: CLAUDE, instructions: 'Answer briefly.', input: 'What is the weather in Paris?', tools: [WEATHER_TOOL], max_output_tokens: 300 });
    });
    expect(first).toMatchObject({ object: 'response', status: 'completed', model: CLAUDE, usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } });
    expect(first.id).toMatch(/^resp_/);
    const call = functionCall(first);
    expect(call).toMatchObject({ name: 'get_weather', call_id: 'toolu_w1' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const sent = JSON.parse(claude.requests.at(-1)!.body);
    expect(sent).toMatchObject({ system: 'Answer briefly.', max_tokens: 300, messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
    expect(sent.tools[0]).toMatchObject({ name: 'get_weather', input_schema: WEATHER_TOOL.parameters });
    // (100 + 20 × 5) × 1.5 = 300
    expect(q1).toBe(300);
    expect(await lastLog()).toMatchObject({ model_name: CLAUDE, prompt_tokens: 100, completion_tokens: 20, channel_id: channels.claude, quota: 300 });

    claude.script({ text: 'Sunny in Paris.', usage: { prompt: 150, completion: 6 } });
    const q2 = await quotaSpent(async () => {
      const second = await b
        .openai()
        .responses.create({ model: CLAUDE, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny, 21°C' }], tools: [WEATHER_TOOL] });
      expect(second.output_text).toBe('Sunny in Paris.');
      expect(second.previous_response_id).toBe(first.id);
    });
    // (150 + 6 × 5) × 1.5 = 270
    expect(q2).toBe(270);
    // The stored conversation went first: the question, the assistant's tool call, its result.
    const followUp = JSON.parse(claude.requests.at(-1)!.body);
    expect(followUp.messages).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w1', content: 'sunny, 21°C' }] },
    ]);

    // Stored here: GET answers the object and its input items, for the token that made it
    // only; DELETE removes it.
    const page = await b.openai().responses.inputItems.list(first.id);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] });
    const secondItems = await fetch(`${b.s.url}/v1/responses/${first.id}/input_items?order=asc&limit=1`, { headers: { authorization: `Bearer ${b.token.apiKey}` } });
    expect(await secondItems.json()).toMatchObject({ object: 'list', data: [{ type: 'message' }], has_more: false });
    const badLimit = await fetch(`${b.s.url}/v1/responses/${first.id}/input_items?limit=0`, { headers: { authorization: `Bearer ${b.token.apiKey}` } });
    expect(badLimit.status).toBe(400);
    const othersItems = await fetch(`${b.s.url}/v1/responses/${first.id}/input_items`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(othersItems.status).toBe(404);
    expect(await b.openai().responses.retrieve(first.id)).toMatchObject({ id: first.id, output: first.output });
    const refused = await fetch(`${b.s.url}/v1/responses/${first.id}`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining(first.id), type: 'invalid_request_error', code: 'response_not_found' } });
    await expect(b.openai(other.apiKey).responses.delete(first.id)).rejects.toMatchObject({ status: 404 });
    await b.openai().responses.delete(first.id);
    await expect(b.openai().responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(b.openai().responses.create({ model: CLAUDE, previous_response_id: first.id, input: 'and tomorrow?' })).rejects.toMatchObject({
      status: 400,
      error: { code: 'previous_response_not_found' },
    });
  });

  it('Claude channel: streamed as the Responses event stream, text and tool calls, usage in response.completed', async () => {
    claude.script({ text: 'Let me check.', toolCalls: [{ id: 'toolu_s1', name: 'get_weather', arguments: { city: 'Rome' } }], usage: { prompt: 60, completion: 12 } });
    let result!: Awaited<ReturnType<typeof collect>>;
    const q = await quotaSpent(async () => {
      result = await collect(await b.openai().responses.create({ model: CLAUDE, input: 'Rome?', tools: [WEATHER_TOOL], stream: true }));
    });
    expect(result.text).toBe('Let me check.');
    const types = result.events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    for (const type of ['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.function_call_arguments.delta', 'response.function_call_arguments.done'])
      expect(types).toContain(type);
    expect(result.final.usage).toMatchObject({ input_tokens: 60, output_tokens: 12, total_tokens: 72, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } });
    expect(result.final.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    // (60 + 12 × 5) × 1.5 = 180
    expect(q).toBe(180);

    // Round trip on the streamed response, through the SDK's stream helper.
    const call = functionCall(result.final);
    claude.script({ text: 'Warm in Rome.', usage: { prompt: 80, completion: 4 } });
    const stream = b
      .openai()
      .responses.stream({ model: CLAUDE, previous_response_id: result.final.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'warm' }], tools: [WEATHER_TOOL] });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Warm in Rome.');
    const followUp = JSON.parse(claude.requests.at(-1)!.body);
    expect(followUp.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s1', content: 'warm' }] });
  });

  it('Gemini channel: converted, streamed and not, with a tool round trip', async () => {
    gemini.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Lima' } }], usage: { prompt: 100, completion: 50 } });
    let first!: OpenAI.Responses.Response;
    const q = await quotaSpent(async () => {
      first = await b.openai().responses.create({ model: GEMINI, input: 'Lima?', tools: [WEATHER_TOOL] });
    });
    // (100 + 50 × 4) × 0.05 = 15
    expect(q).toBe(15);
    const call = functionCall(first);
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Lima' });
    expect(await lastLog()).toMatchObject({ model_name: GEMINI, prompt_tokens: 100, completion_tokens: 50, channel_id: channels.gemini });

    gemini.script({ text: 'Cloudy in Lima today', usage: { prompt: 120, completion: 4 } });
    const result = await collect(
      await b.openai().responses.create({ model: GEMINI, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'cloudy' }], stream: true }),
    );
    expect(result.text).toBe('Cloudy in Lima today');
    expect(result.final.usage).toMatchObject({ input_tokens: 120, output_tokens: 4 });
    const sent = JSON.parse(gemini.requests.at(-1)!.body);
    expect(JSON.stringify(sent.contents)).toContain('cloudy');
    expect(await lastLog()).toMatchObject({ prompt_tokens: 120, completion_tokens: 4, channel_id: channels.gemini });
  });

  it('OpenAI-compatible chat family: converted to /v1/chat/completions both ways, tool calls included', async () => {
    openai.script({ toolCalls: [{ id: 'call_m1', name: 'get_weather', arguments: { city: 'Kyiv' } }], usage: { prompt: 70, completion: 9 } });
    const first = await b.openai().responses.create({ model: MOONSHOT, instructions: 'Be brief.', input: 'Kyiv?', tools: [WEATHER_TOOL], reasoning: { effort: 'medium' }, max_output_tokens: 64 });
    const sent = openai.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(JSON.parse(sent.body)).toMatchObject({
      model: MOONSHOT,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Kyiv?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL.parameters } }],
      reasoning_effort: 'medium',
      max_tokens: 64,
    });
    const call = functionCall(first);
    expect(call.call_id).toBe('call_m1');
    expect(await lastLog()).toMatchObject({ model_name: MOONSHOT, prompt_tokens: 70, completion_tokens: 9, channel_id: channels.moonshot });

    openai.script({ text: 'Mild in Kyiv.', usage: { prompt: 90, completion: 4 } });
    const result = await collect(
      await b.openai().responses.create({ model: MOONSHOT, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'mild' }], stream: true }),
    );
    expect(result.text).toBe('Mild in Kyiv.');
    // This family is not asked for stream usage (no stream_options upstream): counted here.
    const usage = result.final.usage!;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    const followUp = JSON.parse(openai.requests.at(-1)!.body);
    expect(followUp.stream).toBe(true);
    expect(followUp.messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_m1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kyiv"}' } }] },
      { role: 'tool', tool_call_id: 'call_m1', content: 'mild' },
    ]);
    expect(await lastLog()).toMatchObject({ prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, channel_id: channels.moonshot });
  });

  it('store: false and ResponsesStoreHours 0 keep nothing', async () => {
    claude.script({ text: 'not kept' });
    const kept = await b.openai().responses.create({ model: CLAUDE, input: 'x', store: false });
    expect(kept).toMatchObject({ store: false });
    await expect(b.openai().responses.retrieve(kept.id)).rejects.toMatchObject({ status: 404 });

    await setOption(b, 'ResponsesStoreHours', '0');
    try {
      claude.script({ text: 'not kept either' });
      const res = await b.openai().responses.create({ model: CLAUDE, input: 'x' });
      await expect(b.openai().responses.retrieve(res.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await setOption(b, 'ResponsesStoreHours', '24');
    }
  });

  it('a stream cut by the upstream ends with an error event, not response.completed, and is billed for what came', async () => {
    claude.script({ text: 'one two three four five six seven', usage: { prompt: 50, completion: 7 }, resetAfter: 5 });
    const events: StreamEvent[] = [];
    const q = await quotaSpent(async () => {
      for await (const event of await b.openai().responses.create({ model: CLAUDE, input: 'count', stream: true })) events.push(event);
    });
    const types = events.map((e) => e.type);
    expect(types).not.toContain('response.completed');
    expect(types.at(-1)).toBe('error');
    expect(types).toContain('response.output_text.delta');
    expect(q).toBeGreaterThan(0);
    const log = await lastLog();
    expect(log.content).toContain('上游中途断开');
  });

  it('ignores expired rows and sweeps them with a later write', async () => {
    const db = b.s.app.ctx.db;
    const now = Math.floor(Date.now() / 1000);
    const row = { token_id: b.token.id, user_id: b.user.id, channel_id: 0, model: CLAUDE, created_at: now - 100 };
    await db
      .insertInto('responses')
      .values({ ...row, id: 'resp_expired', data: JSON.stringify({ input: [], output: [], response: { id: 'resp_expired' } }), expires_at: now - 1 })
      .execute();
    await expect(b.openai().responses.retrieve('resp_expired')).rejects.toMatchObject({ status: 404 });
    // A store's first write sweeps (then at most once a minute).
    new ResponsesStore(b.relay).save({ id: 'resp_fresh', tokenId: b.token.id, userId: b.user.id, channelId: 0, model: CLAUDE, data: { input: [], output: [], response: { id: 'resp_fresh' } } });
    let left = 1;
    for (let i = 0; i < 50 && left > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      left = (await db.selectFrom('responses').select('id').where('id', '=', 'resp_expired').execute()).length;
    }
    expect(left).toBe(0);
    expect(await b.openai().responses.retrieve('resp_fresh')).toMatchObject({ id: 'resp_fresh' });
  });

  it('refuses bad requests with 400 in the OpenAI error shape before any upstream call', async () => {
    const asked = openai.requests.length + claude.requests.length + gemini.requests.length;
    const bad: [string, unknown][] = [
      ['model is required', { input: 'x' }],
      ['model must be a string', { model: 5, input: 'x' }],
      ['model name is longer', { model: 'm'.repeat(300), input: 'x' }],
      ['input is required', { model: GPT }],
      ['input must be a string or an array', { model: GPT, input: 42 }],
      ['input[0] must be an object', { model: GPT, input: ['hi'] }],
      ['input[0].content must be', { model: GPT, input: [{ role: 'user', content: 7 }] }],
      ['stream must be a boolean', { model: GPT, input: 'x', stream: 'yes' }],
      ['max_output_tokens', { model: GPT, input: 'x', max_output_tokens: 0 }],
      ['max_output_tokens', { model: GPT, input: 'x', max_output_tokens: 1.5 }],
      ['max_output_tokens', { model: GPT, input: 'x', max_output_tokens: 2 ** 31 }],
      ['tools must be an array', { model: GPT, input: 'x', tools: {} }],
      ['tools[0] must be an object with a type', { model: GPT, input: 'x', tools: [{ name: 'f' }] }],
      ['tools[0].name is required', { model: GPT, input: 'x', tools: [{ type: 'function' }] }],
      ['instructions must be a string', { model: GPT, input: 'x', instructions: ['a'] }],
      ['previous_response_id', { model: GPT, input: 'x', previous_response_id: 12 }],
    ];
    for (const [message, body] of bad) {
      const res = await fetch(`${b.s.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, message).toBe(400);
      const json = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(json.error.message, JSON.stringify(body).slice(0, 80)).toContain(message);
      expect(typeof json.error.type).toBe('string');
      expect(json.error.code).toBeTruthy();
    }
    const notJson = await fetch(`${b.s.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' }, body: '{"model":' });
    expect(notJson.status).toBe(400);
    expect(openai.requests.length + claude.requests.length + gemini.requests.length).toBe(asked);
    // An id nobody has: 404, also without reaching an upstream.
    const missing = await fetch(`${b.s.url}/v1/responses/resp_nothing`, { headers: { authorization: `Bearer ${b.token.apiKey}` } });
    expect(missing.status).toBe(404);
    const anonymous = await fetch(`${b.s.url}/v1/responses/resp_nothing`);
    expect(anonymous.status).toBe(401);
  });
});
