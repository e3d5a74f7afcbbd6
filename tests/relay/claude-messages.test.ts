/**
 * Claude Messages in, completed (issue #14 item 3), with the real `@anthropic-ai/sdk` client:
 * `/v1/messages/count_tokens` (the Claude channel's own count, the local tokenizer elsewhere,
 * never billed), and tool use / tool results (blocks, is_error), images, thinking and
 * cache_control carried to a Claude, an OpenAI and a Gemini channel and back, streamed and
 * not, with cached and reasoning tokens shown in Claude's usage and billed by the ratios.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { describeEachDialect } from '../helpers/dialects';
import type { FakeOpenAI } from '../fakes/openai';
import { fakeTokenCount, type FakeClaude } from '../fakes/claude';
import type { FakeGemini } from '../fakes/gemini';
import { countClaudePromptTokens } from '../../src/server/relay/tokenizer';
import { seedFamilyChannels, startBench, startFamilyFakes, type Bench, type FamilyFakes } from './harness';
import { balances } from './seed';

const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const LOOKUP: Anthropic.Tool = { name: 'lookup', description: 'Look a word up', input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };

/** A conversation with everything Claude clients send: cache marks, an image, earlier thinking, a failed tool. */
const HISTORY: Anthropic.MessageParam[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is on this picture?', cache_control: { type: 'ephemeral' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'I should look it up.', signature: 'sig-earlier' },
      { type: 'tool_use', id: 'toolu_a', name: 'lookup', input: { q: 'pixel' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'no entry' }], is_error: true },
      { type: 'text', text: 'Try another word.' },
    ],
  },
];

describeEachDialect('Claude Messages in: count_tokens, tools, images, thinking, cache marks', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  let fakes: FamilyFakes;
  beforeAll(async () => {
    fakes = await startFamilyFakes();
    ({ openai, claude, gemini } = fakes);
    b = await startBench(dialect);
    await seedFamilyChannels(b, fakes, { openai: GPT, claude: CLAUDE, gemini: GEMINI });
  });
  afterAll(async () => {
    await b?.close();
    await fakes?.close();
  });

  /** What the request cost; also checks that the logs account for exactly that. */
  async function cost(run: () => Promise<unknown>): Promise<{ quota: number; logs: number }> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    await run();
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    expect(after.logSum - before.logSum).toBe(before.quota - after.quota);
    return { quota: before.quota - after.quota, logs: after.logCount - before.logCount };
  }

  async function postCount(body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${b.s.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('count_tokens: the Claude channel counts (only the fields it takes), other channels are counted here; nothing is billed', async () => {
    const body = { model: CLAUDE, system: 'be brief', messages: HISTORY, tools: [LOOKUP] };
    const claudeSeen = claude.requests.length;
    const openaiSeen = openai.requests.length;
    const geminiSeen = gemini.requests.length;
    const { quota, logs } = await cost(async () => {
      const counted = await b.anthropic().messages.countTokens(body);
      expect(counted.input_tokens).toBe(fakeTokenCount(body));
      const upstream = claude.requests.slice(claudeSeen);
      expect(upstream.map((r) => r.path)).toEqual(['/v1/messages/count_tokens']);
      expect(upstream[0]!.headers['x-api-key']).toBe('sk-ant-fake-good');
      expect(upstream[0]!.json).toEqual(body);

      // OpenAI and Gemini channels: the project's tokenizer, no upstream call.
      for (const model of [GPT, GEMINI]) {
        const local = await b.anthropic().messages.countTokens({ ...body, model });
        expect(local.input_tokens).toBe(countClaudePromptTokens({ ...body, model }, model));
        expect(local.input_tokens).toBeGreaterThan(1000);
      }
      expect(openai.requests.length).toBe(openaiSeen);
      expect(gemini.requests.length).toBe(geminiSeen);

      // A Claude channel that cannot count: the local count answers.
      claude.script({ error: { status: 529, message: 'Overloaded' } });
      const fallback = await postCount(body, { authorization: `Bearer ${b.token.apiKey}` });
      expect(fallback).toEqual({ status: 200, body: { input_tokens: countClaudePromptTokens(body, CLAUDE) } });
    });
    expect(quota).toBe(0);
    expect(logs).toBe(0);
  });

  it("count_tokens refuses bad bodies and keys in Claude's shape before any channel is chosen", async () => {
    const seen = claude.requests.length;
    const key = { 'x-api-key': b.token.apiKey };
    for (const body of [
      { messages: [{ role: 'user', content: 'x' }] },
      { model: CLAUDE, messages: 'x' },
      { model: CLAUDE, messages: [{ role: 'user', content: [{ type: 'audio' }] }] },
      { model: 5, messages: [] },
    ]) {
      const res = await postCount(body, key);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    }
    const unauthorised = await postCount({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }] }, { 'x-api-key': 'sk-not-a-key' });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.body).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    const unknownModel = await postCount({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }, key);
    expect(unknownModel.status).toBe(503);
    expect(unknownModel.body).toMatchObject({ type: 'error' });
    expect(claude.requests.length).toBe(seen);
  });

  it('OpenAI channel, not streamed: image, failed tool result and earlier thinking go through chat; a tool call and cached usage come back', async () => {
    openai.script({ toolCalls: [{ id: 'call_9', name: 'lookup', arguments: { q: 'square' } }], usage: { prompt: 1000, completion: 20, cacheRead: 600 } });
    let message: Anthropic.Message | undefined;
    const { quota } = await cost(async () => {
      message = await b.anthropic().messages.create({
        model: GPT,
        max_tokens: 200,
        system: [{ type: 'text', text: 'You describe pictures.', cache_control: { type: 'ephemeral' } }],
        tools: [LOOKUP],
        tool_choice: { type: 'any' },
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: HISTORY,
      });
    });
    expect(message!.content).toEqual([{ type: 'tool_use', id: 'call_9', name: 'lookup', input: { q: 'square' } }]);
    expect(message!.stop_reason).toBe('tool_use');
    // Claude's input count leaves the cache reads out; they are reported apart.
    expect(message!.usage).toMatchObject({ input_tokens: 400, output_tokens: 20, cache_read_input_tokens: 600 });
    const sent = openai.requests.at(-1)!;
    expect(sent.body).not.toContain('cache_control');
    expect(sent.body).not.toContain('sig-earlier');
    const chat = JSON.parse(sent.body) as Record<string, unknown>;
    expect(chat).not.toHaveProperty('reasoning_effort');
    expect(chat).toMatchObject({
      model: GPT,
      tool_choice: 'required',
      messages: [
        { role: 'system', content: 'You describe pictures.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_a', type: 'function', function: { name: 'lookup', arguments: '{"q":"pixel"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_a', content: 'Error: no entry' },
        { role: 'user', content: 'Try another word.' },
      ],
    });
    // (1000 − 600 + 600 × 0.5 + 20 × 4) × 0.075 = 58.5, truncated (Claude-format request)
    expect(quota).toBe(58);
  });

  it('OpenAI channel, streamed: reasoning comes back as a thinking block, then the text', async () => {
    openai.script({ reasoning: 'Counting the pixels first.', text: 'It is one white pixel.', usage: { prompt: 300, completion: 30, reasoning: 12 } });
    const stream = b.anthropic().messages.stream({ model: GPT, max_tokens: 200, messages: [{ role: 'user', content: 'Describe it.' }] });
    let thinking = '';
    let text = '';
    stream.on('thinking', (delta) => (thinking += delta));
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(thinking).toBe('Counting the pixels first.');
    expect(text).toBe('It is one white pixel.');
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(final.usage).toMatchObject({ input_tokens: 300, output_tokens: 30 });
    expect(final.stop_reason).toBe('end_turn');
  });

  it('Gemini channel, streamed: the image as inline data, the failed tool as a functionResponse; thoughts, a call and cached usage come back', async () => {
    gemini.script({ reasoning: 'Maybe a square.', toolCalls: [{ name: 'lookup', arguments: { q: 'square' } }], usage: { prompt: 500, completion: 50, reasoning: 30, cacheRead: 100 } });
    let final: Anthropic.Message | undefined;
    let thinking = '';
    const { quota } = await cost(async () => {
      const stream = b.anthropic().messages.stream({ model: GEMINI, max_tokens: 200, tools: [LOOKUP], messages: HISTORY });
      stream.on('thinking', (delta) => (thinking += delta));
      final = await stream.finalMessage();
    });
    expect(thinking).toBe('Maybe a square.');
    expect(final!.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(final!.content[1]).toMatchObject({ type: 'tool_use', name: 'lookup', input: { q: 'square' } });
    expect(final!.stop_reason).toBe('tool_use');
    // Thoughts are output; the cache reads are apart from the input.
    expect(final!.usage).toMatchObject({ input_tokens: 400, output_tokens: 80, cache_read_input_tokens: 100 });
    const sent = gemini.requests.at(-1)!.json as { contents: { role: string; parts: Record<string, unknown>[] }[]; systemInstruction?: unknown };
    expect(sent.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is on this picture?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
      { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'pixel' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { name: 'lookup', content: 'Error: no entry' } } }] },
      { role: 'user', parts: [{ text: 'Try another word.' }] },
    ]);
    // (500 − 100 + 100 × 1 + 80 × 4) × 0.05 = 41
    expect(quota).toBe(41);
  });

  it('Claude channel: cache marks, thinking and earlier signed thinking pass through; thinking comes back signed', async () => {
    claude.script({ reasoning: 'Looking closer.', text: 'A single pixel.', usage: { prompt: 100, completion: 40, cacheRead: 900, cacheCreation: 20 } });
    let message: Anthropic.Message | undefined;
    const { quota } = await cost(async () => {
      message = await b.anthropic().messages.create({ model: CLAUDE, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [LOOKUP], messages: HISTORY });
    });
    expect(message!.content).toEqual([
      { type: 'thinking', thinking: 'Looking closer.', signature: 'sig-fake' },
      { type: 'text', text: 'A single pixel.' },
    ]);
    expect(message!.usage).toMatchObject({ input_tokens: 100, output_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 20 });
    const sent = claude.requests.at(-1)!.json as Record<string, unknown>;
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(sent.messages).toEqual(HISTORY);
    // (100 + 900 × 0.1 + 20 × 1.25 + 40 × 5) × 1.5 = 622.5, truncated
    expect(quota).toBe(622);
  });
});
