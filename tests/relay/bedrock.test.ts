/**
 * AWS Bedrock channels (type 33, key `AK|SK|region`) against a fake Bedrock runtime that checks
 * every SigV4 signature: Claude through InvokeModel (OpenAI chat converted, `/v1/messages`
 * native, plain and as AWS event streams), other families through the Converse API (text,
 * tool calls, streamed), Bedrock's errors and stream exceptions, and keys that cannot sign;
 * every answer billed exactly once from the upstream's usage.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeBedrock, type FakeBedrock } from '../fakes/bedrock';
import { billedOnce, notBilled, setRatios, startBench, type Bench } from './harness';
import { seedChannel, storeChannelKey } from './seed';

const CLAUDE = 'claude-3-5-sonnet-20240620';
const NOVA = 'nova-pro-v1:0';
const KEY = 'AKIAFAKEGOOD|fake-secret-key|us-east-1';

describeEachDialect('AWS Bedrock channels (SigV4, InvokeModel, Converse, event streams)', (dialect) => {
  let bedrock: FakeBedrock;
  let b: Bench;
  let channel: number;

  beforeAll(async () => {
    bedrock = await startFakeBedrock();
    b = await startBench(dialect);
    await setRatios(b, { [CLAUDE]: 1.5, [NOVA]: 0.4, 'claude-3-haiku-20240307': 1, 'claude-3-opus-20240229': 1, 'meta.llama3-1-8b-instruct-v1:0': 1 }, { [NOVA]: 2 });
    channel = await seedChannel(b.s, { type: 33, base_url: bedrock.url, key: KEY, models: `${CLAUDE},${NOVA},meta.llama3-1-8b-instruct-v1:0` });
  });
  afterAll(async () => {
    await b?.close();
    await bedrock?.close();
  });

  it("the console's channel test passes for each of the channel's wire formats (signed, with the access token)", async () => {
    const root = await b.s.root();
    for (const model of [CLAUDE, NOVA]) {
      const seen = bedrock.requests.length;
      const res = await root.get(`/api/channel/test/${channel}?model=${encodeURIComponent(model)}`);
      expect(res.body, model).toMatchObject({ success: true });
      expect(bedrock.requests.length, model).toBeGreaterThan(seen);
    }
  });

  it("Claude, chat: InvokeModel with the Bedrock envelope, signed; billed by Claude's usage", async () => {
    bedrock.script({ text: 'Hello from Bedrock.', usage: { prompt: 30, completion: 10 } });
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: CLAUDE,
        max_tokens: 100,
        temperature: 0.2,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(res.choices[0]!.message.content).toBe('Hello from Bedrock.');
      expect(res.choices[0]!.finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10 });
    });
    const sent = bedrock.requests.at(-1)!;
    // The model id of the table, with the us. prefix of cross-region inference; `:` escaped in the path.
    expect(sent.path).toBe('/model/us.anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke');
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEGOOD\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    expect(sent.json).toEqual({ anthropic_version: 'bedrock-2023-05-31', system: 'be brief', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, temperature: 0.2 });
    expect(log).toMatchObject({ model_name: CLAUDE, prompt_tokens: 30, completion_tokens: 10, channel_id: channel });
    // Claude's formula: (30 + 10 × 5) × 1.5
    expect(quota).toBe(120);
  });

  it('Claude, chat streamed: the event stream (messages split across reads) becomes OpenAI chunks with usage', async () => {
    bedrock.script({ text: 'one two three four', usage: { prompt: 20, completion: 4 } });
    const { quota } = await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: unknown;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe('one two three four');
      expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 });
    });
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe('/model/us.anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke-with-response-stream');
    expect(sent.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(sent.json).not.toHaveProperty('stream');
    // (20 + 4 × 5) × 1.5
    expect(quota).toBe(60);
  });

  it('Claude, /v1/messages (Anthropic SDK): native body with anthropic_beta, plain and streamed, cache reads billed apart', async () => {
    bedrock.script({ text: 'native answer', usage: { prompt: 100, completion: 10, cacheRead: 50 } });
    const plain = await billedOnce(b, async () => {
      const message = await b
        .anthropic()
        .messages.create(
          { model: CLAUDE, max_tokens: 64, system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'hello' }] },
          { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31, output-128k-2025-02-19' } },
        );
      expect(message.content).toEqual([{ type: 'text', text: 'native answer' }]);
      expect(message.usage).toMatchObject({ input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 50 });
    });
    expect(bedrock.requests.at(-1)!.json).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['prompt-caching-2024-07-31', 'output-128k-2025-02-19'],
      max_tokens: 64,
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hello' }],
    });
    // (100 + 50 cached × the model's cache ratio 0.1 + 10 × 5) × 1.5 = 232.5, truncated as for every Claude upstream
    expect(plain.quota).toBe(232);

    bedrock.script({ text: 'streamed native', usage: { prompt: 10, completion: 2 } });
    const streamed = await billedOnce(b, async () => {
      const events: string[] = [];
      let text = '';
      for await (const event of b.anthropic().messages.stream({ model: CLAUDE, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })) {
        events.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
      expect(text).toBe('streamed native');
      expect(events[0]).toBe('message_start');
      expect(events.at(-1)).toBe('message_stop');
    });
    // (10 + 2 × 5) × 1.5
    expect(streamed.quota).toBe(30);
  });

  it('Converse (Nova): tools and tool results converted; a tool call back; billed by Converse usage', async () => {
    bedrock.script({ toolCalls: [{ id: 'tooluse_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 50, completion: 20 } });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const { quota, log } = await billedOnce(b, async () => {
      const res = await b.openai().chat.completions.create({
        model: NOVA,
        max_tokens: 300,
        tools,
        tool_choice: 'required',
        messages: [
          { role: 'system', content: 'use tools' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'weather?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'tooluse_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
          { role: 'tool', tool_call_id: 'tooluse_0', content: '{"temperature":25}' },
        ],
      });
      expect(res.choices[0]!.finish_reason).toBe('tool_calls');
      expect(res.choices[0]!.message.tool_calls).toEqual([{ id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    });
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe('/model/us.amazon.nova-pro-v1%3A0/converse');
    expect(sent.json).toEqual({
      messages: [
        { role: 'user', content: [{ text: 'weather?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_0', name: 'get_weather', input: { city: 'Rome' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_0', content: [{ json: { temperature: 25 } }] } }] },
      ],
      system: [{ text: 'use tools' }],
      inferenceConfig: { maxTokens: 300 },
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: tools[0]!.function.parameters } } }], toolChoice: { any: {} } },
    });
    expect(log).toMatchObject({ model_name: NOVA, prompt_tokens: 50, completion_tokens: 20 });
    // (50 + 20 × 2) × 0.4
    expect(quota).toBe(36);
  });

  it('Converse streamed: text and a tool call in pieces, usage from the metadata event', async () => {
    bedrock.script({ text: 'Looking it up.', toolCalls: [{ id: 'tooluse_9', name: 'lookup', arguments: { q: 'bedrock' } }], usage: { prompt: 30, completion: 10 } });
    const { quota } = await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      });
      let text = '';
      let args = '';
      let name = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        text += choice?.delta.content ?? '';
        for (const call of choice?.delta.tool_calls ?? []) {
          name += call.function?.name ?? '';
          args += call.function?.arguments ?? '';
        }
        finish = choice?.finish_reason ?? finish;
      }
      expect(text).toBe('Looking it up.');
      expect(name).toBe('lookup');
      expect(JSON.parse(args)).toEqual({ q: 'bedrock' });
      expect(finish).toBe('tool_calls');
    });
    expect(bedrock.requests.at(-1)!.path).toBe('/model/us.amazon.nova-pro-v1%3A0/converse-stream');
    // (30 + 10 × 2) × 0.4
    expect(quota).toBe(20);
  });

  it('a Bedrock id that is not in the table goes as it is (Converse)', async () => {
    bedrock.script({ text: 'llama here', usage: { prompt: 7, completion: 3 } });
    const { quota } = await billedOnce(b, () => b.openai().chat.completions.create({ model: 'meta.llama3-1-8b-instruct-v1:0', messages: [{ role: 'user', content: 'x' }] }));
    expect(bedrock.requests.at(-1)!.path).toBe('/model/meta.llama3-1-8b-instruct-v1%3A0/converse');
    expect(quota).toBe(10);
  });

  it("Bedrock's errors reach the client with their message and cost nothing", async () => {
    bedrock.script({ error: { status: 400, message: 'Malformed input request: #/messages: expected type: JSONArray' } });
    await notBilled(b, async () => {
      const failure = await b
        .openai()
        .chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(failure).toMatchObject({ status: 400 });
      expect(String((failure as Error).message)).toContain('Malformed input request');
    });
  });

  it("an exception in the event stream ends the client's stream with an error; what was delivered is billed once", async () => {
    bedrock.script({ text: 'a b c d e f', streamErrorAfter: 4, usage: { prompt: 10, completion: 6 } });
    await billedOnce(b, async () => {
      const stream = await b.openai().chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }], stream: true });
      let text = '';
      const failure = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((err: unknown) => err);
      expect(String((failure as Error | undefined)?.message)).toMatch(/Too many requests/);
      expect(text.length).toBeGreaterThan(0);
    });
  });

  it('keys that cannot sign: a wrong secret is refused by the signature check, a malformed key never leaves', async () => {
    await seedChannel(b.s, { type: 33, base_url: bedrock.url, key: 'AKIAFAKEGOOD|not-the-secret|us-east-1', models: 'claude-3-haiku-20240307' });
    // A key saved before keys were checked (or by the reference) still reaches the relay.
    await storeChannelKey(b.s, await seedChannel(b.s, { type: 33, base_url: bedrock.url, key: KEY, models: 'claude-3-opus-20240229' }), 'only-one-part');
    const seen = bedrock.requests.length;
    await notBilled(b, async () => {
      const wrong = await b
        .openai()
        .chat.completions.create({ model: 'claude-3-haiku-20240307', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(wrong).toMatchObject({ status: 403 });
      expect(String((wrong as Error).message)).toContain('signature we calculated does not match');
      const malformed = await b
        .openai()
        .chat.completions.create({ model: 'claude-3-opus-20240229', messages: [{ role: 'user', content: 'x' }] })
        .catch((err: unknown) => err);
      expect(malformed).toMatchObject({ status: 401, code: 'invalid_channel_key' });
    });
    expect(bedrock.requests.length).toBe(seen + 1);
  });
});
