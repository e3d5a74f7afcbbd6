/**
 * Request hygiene (issue #13 item 5): the upstream gets only the fields its format defines —
 * unknown top-level fields, unknown message fields (`id`, `createAt` of chat front ends) and
 * `max_tokens: 0` are dropped, known fields arrive untouched, a clean body still arrives as the
 * client's own bytes — and with `global.pass_through_request_enabled` the body arrives byte for
 * byte whatever it holds. Through the direct path and through Fastify (a query string), to an
 * OpenAI channel (chat, completions, embeddings) and to a Claude channel (/v1/messages).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { setOption, startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-3-7-sonnet-20250219';

/** What a current OpenAI client may send: every value must reach the upstream as it was. */
const KNOWN = {
  temperature: 0.3,
  top_p: 0.9,
  n: 1,
  seed: 7,
  stop: ['END'],
  verbosity: 'low',
  reasoning_effort: 'minimal',
  user: 'u-42',
  store: false,
  metadata: { trace: 'abc' },
  logit_bias: { '50256': -100 },
  response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } },
  tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }],
  tool_choice: { type: 'function', function: { name: 'lookup' } },
  parallel_tool_calls: false,
  prediction: { type: 'content', content: 'draft' },
  web_search_options: { search_context_size: 'low' },
  max_completion_tokens: 64,
};

/** A chat front end's body: its own fields around the request and on every message. */
function noisyChat(): Record<string, unknown> {
  return {
    model: GPT,
    conversation_id: 'conv-1',
    messages: [
      { role: 'system', content: 'Be brief.', id: 'm0', createAt: 1732500000000 },
      { role: 'user', content: [{ type: 'text', text: 'hi' }], id: 'm1', createAt: 1732500000001, meta: { avatar: 'x' } },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }], id: 'm2' },
      { role: 'tool', content: 'found', tool_call_id: 'c1', id: 'm3' },
    ],
    max_tokens: 0,
    ...KNOWN,
    x_ui_settings: { theme: 'dark' },
  };
}

const CLEAN_MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
  { role: 'tool', content: 'found', tool_call_id: 'c1' },
];

describeEachDialect('relay request hygiene', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let b: Bench;
  beforeAll(async () => {
    [openai, claude] = await Promise.all([startFakeOpenAI(), startFakeClaude()]);
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: openai.url, models: `${GPT},text-embedding-3-small,gpt-3.5-turbo-instruct` });
    await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    await b.relay.channels.refresh();
  });
  afterEach(async () => {
    await setOption(b, 'global.pass_through_request_enabled', 'false');
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close()]);
  });

  /** Posts exact bytes; returns what the upstream received. */
  async function post(path: string, body: string, upstream: { requests: { body: string }[] }, headers: Record<string, string> = {}): Promise<string> {
    const before = upstream.requests.length;
    const res = await fetch(`${b.s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', ...headers }, body });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(upstream.requests.length).toBe(before + 1);
    return upstream.requests.at(-1)!.body;
  }

  it('chat: unknown top-level and message fields and max_tokens 0 do not reach the upstream; known fields arrive untouched', async () => {
    // The direct path (plain POST) and Fastify (a query string sends the request there).
    for (const path of ['/v1/chat/completions', '/v1/chat/completions?trace=1']) {
      const sent = JSON.parse(await post(path, JSON.stringify(noisyChat()), openai)) as Record<string, unknown>;
      expect(sent).toEqual({ model: GPT, messages: CLEAN_MESSAGES, ...KNOWN });
      for (const key of ['conversation_id', 'x_ui_settings', 'max_tokens']) expect(sent).not.toHaveProperty(key);
    }
  });

  it('chat: a body holding only known fields still goes upstream as the client sent its bytes', async () => {
    const clean = `{ "model" : "${GPT}",\n  "messages": ${JSON.stringify(CLEAN_MESSAGES)}, "verbosity":"low", "reasoning_effort" :"minimal", "tools": ${JSON.stringify(KNOWN.tools)}, "max_tokens": 5 }`;
    expect(await post('/v1/chat/completions', clean, openai)).toBe(clean);
  });

  it('completions and embeddings: unknown fields dropped', async () => {
    const completion = JSON.parse(await post('/v1/completions', JSON.stringify({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi', max_tokens: 0, echo: false, client_tag: 'x' }), openai));
    expect(completion).toEqual({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi', echo: false });
    const embedding = JSON.parse(await post('/v1/embeddings', JSON.stringify({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 8, client_tag: 'x' }), openai));
    expect(embedding).toEqual({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 8 });
  });

  it('/v1/messages on a Claude channel: only ClaudeRequest fields and role/content per message', async () => {
    const known = {
      max_tokens: 100,
      system: 'Be brief.',
      temperature: 0.2,
      stop_sequences: ['END'],
      metadata: { user_id: 'u' },
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto' },
    };
    const body = { model: CLAUDE, ...known, messages: [{ role: 'user', content: 'Salut', id: 'm1', createAt: 1 }], frequency_penalty: 0.5, conversation_id: 'c' };
    const sent = JSON.parse(await post('/v1/messages', JSON.stringify(body), claude, { 'anthropic-version': '2023-06-01' }));
    expect(sent).toEqual({ model: CLAUDE, ...known, messages: [{ role: 'user', content: 'Salut' }] });
  });

  it('with global.pass_through_request_enabled the body arrives byte for byte, unknown fields and all', async () => {
    await setOption(b, 'global.pass_through_request_enabled', 'true');
    const chat = JSON.stringify(noisyChat(), null, 1);
    expect(await post('/v1/chat/completions', chat, openai)).toBe(chat);
    expect(await post('/v1/chat/completions?trace=1', chat, openai)).toBe(chat);
    const messages = JSON.stringify({ model: CLAUDE, max_tokens: 50, messages: [{ role: 'user', content: 'Salut', id: 'm1' }], conversation_id: 'c' });
    expect(await post('/v1/messages', messages, claude, { 'anthropic-version': '2023-06-01' })).toBe(messages);
  });
});
