/**
 * Request hygiene (issue #13 item 5): only the fields the upstream format defines go upstream,
 * as the reference's request structs do; a clean body stays the same object (the client's own
 * bytes can then go upstream).
 */
import { describe, expect, it } from 'vitest';
import { CLAUDE_MESSAGES_SHAPE, OPENAI_CHAT_SHAPE, OPENAI_EMBEDDINGS_SHAPE, hasOnlyKnownFields, knownFieldsOnly } from '../../../src/server/relay/providers/common/known-fields';
import { claudeProvider } from '../../../src/server/relay/providers/claude';
import { geminiProvider } from '../../../src/server/relay/providers/gemini';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { openaiCompatibleProvider } from '../../../src/server/relay/providers/openai-compatible/families';
import { openaiRequestFromClaude } from '../../../src/server/relay/formats/claude-openai';
import { jsonBody, target } from './helpers';

/** Every field a current OpenAI chat client may send, with the message fields of every role. */
const fullChat = {
  model: 'gpt-5',
  messages: [
    { role: 'developer', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } },
      ],
      name: 'ann',
    },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }], refusal: null, reasoning_content: 'hm' },
    { role: 'tool', content: '42', tool_call_id: 'c1' },
  ],
  stream: true,
  stream_options: { include_usage: true },
  max_completion_tokens: 500,
  reasoning_effort: 'minimal',
  verbosity: 'low',
  temperature: 1,
  top_p: 1,
  stop: ['END'],
  n: 1,
  frequency_penalty: 0,
  presence_penalty: 0,
  logit_bias: { '50256': -100 },
  logprobs: true,
  top_logprobs: 2,
  seed: 7,
  user: 'u-1',
  response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
  tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  modalities: ['text'],
  audio: { voice: 'alloy', format: 'mp3' },
  prediction: { type: 'content', content: 'x' },
  web_search_options: { search_context_size: 'low' },
  store: false,
  metadata: { trace: 'a' },
  service_tier: 'auto',
  prompt_cache_key: 'k',
  safety_identifier: 's',
  // Vendor extras the reference's struct carries.
  enable_thinking: true,
  thinking: { type: 'enabled' },
  extra_body: { google: {} },
  top_k: 40,
  chat_template_kwargs: { enable_thinking: false },
};

describe('known fields: the filter', () => {
  it('returns a body holding only known fields as the same object (nothing allocated)', () => {
    expect(hasOnlyKnownFields(fullChat, OPENAI_CHAT_SHAPE)).toBe(true);
    expect(knownFieldsOnly(fullChat, OPENAI_CHAT_SHAPE)).toBe(fullChat);
  });

  it('drops unknown top-level fields, unknown message fields and a max_tokens of 0, keeping order and the rest by reference', () => {
    const user = { role: 'user', content: 'hi' };
    const body = {
      conversation_id: 'c',
      model: 'gpt-4o',
      messages: [{ role: 'system', content: 's', id: 'm0', createAt: 1700000000 }, user],
      max_tokens: 0,
      tools: fullChat.tools,
      x_ui: { theme: 'dark' },
    };
    const copy = structuredClone(body);
    const out = knownFieldsOnly(body, OPENAI_CHAT_SHAPE);
    expect(out).toEqual({ model: 'gpt-4o', messages: [{ role: 'system', content: 's' }, user], tools: fullChat.tools });
    expect(Object.keys(out)).toEqual(['model', 'messages', 'tools']);
    expect(body).toEqual(copy);
    const messages = out.messages as unknown[];
    expect(messages[1]).toBe(user);
    expect(out.tools).toBe(fullChat.tools);
  });

  it('drops max_completion_tokens 0 but keeps the zeros the reference keeps (temperature, top_p, n)', () => {
    const out = knownFieldsOnly({ model: 'm', max_completion_tokens: 0, max_tokens: 10, temperature: 0, top_p: 0, n: 0 }, OPENAI_CHAT_SHAPE);
    expect(out).toEqual({ model: 'm', max_tokens: 10, temperature: 0, top_p: 0, n: 0 });
  });

  it('leaves non-object messages and content parts as they are (the filter looks at message keys only)', () => {
    const part = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' }, custom: 1 };
    const body = { model: 'm', messages: ['odd', null, { role: 'user', content: [part] }] };
    expect(knownFieldsOnly(body, OPENAI_CHAT_SHAPE)).toBe(body);
  });

  it('never lets a "__proto__" key through or touch the prototype', () => {
    const body = JSON.parse('{"model":"m","__proto__":{"polluted":true},"messages":[{"role":"user","content":"x","__proto__":{"p":1}}]}') as Record<string, unknown>;
    const out = knownFieldsOnly(body, OPENAI_CHAT_SHAPE);
    expect(JSON.stringify(out)).toBe('{"model":"m","messages":[{"role":"user","content":"x"}]}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('embeddings keep the EmbeddingRequest fields only', () => {
    const body = { model: 'text-embedding-3-small', input: ['a'], encoding_format: 'float', dimensions: 256, user: 'u', task: 'x' };
    expect(knownFieldsOnly(body, OPENAI_EMBEDDINGS_SHAPE)).toEqual({ model: 'text-embedding-3-small', input: ['a'], encoding_format: 'float', dimensions: 256, user: 'u' });
  });

  it('Claude Messages keep the ClaudeRequest fields and role/content per message', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }],
      max_tokens: 100,
      stop_sequences: ['x'],
      temperature: 0.5,
      top_k: 5,
      stream: true,
      tools: [],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      metadata: { user_id: 'u' },
      context_management: {},
      mcp_servers: [],
      container: 'c',
      output_format: {},
      messages: [{ role: 'user', content: 'hi' }],
    };
    expect(knownFieldsOnly(body, CLAUDE_MESSAGES_SHAPE)).toBe(body);
    expect(knownFieldsOnly({ ...body, frequency_penalty: 1, messages: [{ role: 'user', content: 'hi', id: 'x' }] }, CLAUDE_MESSAGES_SHAPE)).toEqual(body);
  });
});

describe('known fields: the providers', () => {
  const raw = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

  it('an OpenAI channel sends the client bytes when nothing is dropped, and a clean re-serialisation when something is', () => {
    const clean = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], verbosity: 'low', reasoning_effort: 'low', tools: fullChat.tools };
    const bytes = raw(clean);
    expect(openaiProvider.buildRequest('chat', clean, target({ upstreamModel: 'gpt-4o', rawBody: bytes }), false).body).toBe(bytes);
    const dirty = { ...clean, messages: [{ role: 'user', content: 'hi', id: 'abc' }] };
    const sent = openaiProvider.buildRequest('chat', dirty, target({ upstreamModel: 'gpt-4o', rawBody: raw(dirty) }), false).body;
    expect(typeof sent).toBe('string');
    expect(JSON.parse(sent as string)).toEqual(clean);
  });

  it('completions and embeddings are filtered on OpenAI-shaped families too; other modes go as sent', () => {
    const t = target({ channelType: 50, upstreamModel: 'm' });
    expect(jsonBody(openaiCompatibleProvider.buildRequest('completions', { model: 'm', prompt: 'p', suffix: 's', echo: true, max_tokens: 0, foo: 1 }, t, false))).toEqual({
      model: 'm',
      prompt: 'p',
      suffix: 's',
      echo: true,
    });
    expect(jsonBody(openaiCompatibleProvider.buildRequest('embeddings', { model: 'm', input: 'x', foo: 1 }, t, false))).toEqual({ model: 'm', input: 'x' });
    expect(jsonBody(openaiCompatibleProvider.buildRequest('images', { model: 'm', prompt: 'p', style: 'vivid', foo: 1 }, t, false))).toEqual({ model: 'm', prompt: 'p', style: 'vivid', foo: 1 });
  });

  it('Claude from OpenAI chat and Gemini build fresh bodies: nothing unknown leaks, a max_tokens of 0 means unset', () => {
    const body = { model: 'x', messages: [{ role: 'user', content: 'hi', id: 'm1', createAt: 1 }], max_tokens: 0, max_completion_tokens: 77, x_ui: 1 };
    const claude = jsonBody(claudeProvider.buildRequest('chat', body, target({ channelType: 14, upstreamModel: 'claude-3-5-haiku-20241022' }), false));
    expect(claude).toEqual({ model: 'claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'hi' }], max_tokens: 77 });
    const gemini = jsonBody(geminiProvider.buildRequest('chat', body, target({ channelType: 24, baseUrl: 'https://g.example', upstreamModel: 'gemini-2.0-flash' }), false));
    expect(JSON.stringify(gemini)).not.toMatch(/createAt|x_ui|"id"/);
    expect(gemini.generationConfig).toEqual({ maxOutputTokens: 77 });
  });

  it('/v1/messages on an OpenAI channel: the converted chat body loses a max_tokens of 0', () => {
    const chat = openaiRequestFromClaude({ model: 'gpt-4o', max_tokens: 0, messages: [{ role: 'user', content: 'hi' }] });
    expect(jsonBody(openaiProvider.buildRequest('chat', chat, target({ upstreamModel: 'gpt-4o' }), false))).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  });
});
