/**
 * The Vercel AI SDK (`ai` with `@ai-sdk/openai`) through the gateway (issue #14): `streamText`
 * with a tool the SDK executes itself, over chat completions (`openai.chat`) and over the
 * Responses API (`openai.responses`), against an OpenAI channel (chat: as is; Responses: passed
 * through), a Claude channel and a Gemini channel (both converted). The fake upstream asks for the tool, then answers
 * with the tool's result in hand; the SDK's own text and the billed quota are checked.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';

describeEachDialect('Vercel AI SDK streamText with a tool', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;

  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
  });

  /** Runs a two-step streamText whose tool the SDK runs; answers the text and what the tool saw. */
  async function run(api: 'chat' | 'responses', model: string): Promise<{ text: string; toolInputs: unknown[]; quota: number; logs: number }> {
    const provider = createOpenAI({ apiKey: b.token.apiKey, baseURL: `${b.s.url}/v1` });
    const toolInputs: unknown[] = [];
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const result = streamText({
      model: api === 'chat' ? provider.chat(model) : provider.responses(model),
      prompt: 'What is the weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'The weather of a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
          execute: async (input) => {
            toolInputs.push(input);
            return { forecast: 'sunny, 21 °C' };
          },
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    let text = '';
    for await (const part of result.textStream) text += part;
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    expect(after.logSum - before.logSum).toBe(before.quota - after.quota);
    return { text, toolInputs, quota: before.quota - after.quota, logs: after.logCount - before.logCount };
  }

  for (const api of ['chat', 'responses'] as const) {
    it(`OpenAI channel over ${api}: the tool runs and the answer uses its result`, async () => {
      openai.script(
        { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 300, completion: 40 } },
        { text: 'It is sunny in Paris, 21 °C.', usage: { prompt: 360, completion: 12 } },
      );
      const out = await run(api, GPT);
      expect(out.toolInputs).toEqual([{ city: 'Paris' }]);
      expect(out.text).toBe('It is sunny in Paris, 21 °C.');
      expect(out.logs).toBe(2);
      expect(out.quota).toBeGreaterThan(0);
      // The second request carried the tool's result back upstream.
      const second = openai.requests.at(-1)!;
      expect(second.path).toBe(api === 'chat' ? '/v1/chat/completions' : '/v1/responses');
      expect(second.body).toContain('sunny, 21');
    });

    it(`Claude channel over ${api}: converted both ways, tool round trip included`, async () => {
      claude.script(
        { toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 300, completion: 40 } },
        { text: 'Sunny in Paris.', usage: { prompt: 360, completion: 8 } },
      );
      const out = await run(api, CLAUDE);
      expect(out.toolInputs).toEqual([{ city: 'Paris' }]);
      expect(out.text).toBe('Sunny in Paris.');
      expect(out.logs).toBe(2);
      const second = claude.requests.at(-1)!;
      const body = JSON.parse(second.body) as { messages: { role: string; content: unknown }[] };
      expect(JSON.stringify(body.messages.at(-1))).toContain('tool_result');
      expect(JSON.stringify(body.messages.at(-1))).toContain('sunny, 21');
    });

    it(`Gemini channel over ${api}: converted both ways, tool round trip included`, async () => {
      gemini.script(
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 300, completion: 40 } },
        { text: 'Sunny, says Gemini.', usage: { prompt: 360, completion: 6 } },
      );
      const out = await run(api, GEMINI);
      expect(out.toolInputs).toEqual([{ city: 'Paris' }]);
      expect(out.text).toBe('Sunny, says Gemini.');
      expect(out.logs).toBe(2);
      const second = JSON.stringify(JSON.parse(gemini.requests.at(-1)!.body));
      expect(second).toContain('functionResponse');
      expect(second).toContain('sunny, 21');
    });
  }
});
