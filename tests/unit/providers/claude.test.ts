import { describe, expect, it } from 'vitest';
import { claudeProvider } from '../../../src/server/relay/providers/claude';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { events, jsonBody, runStream, target, type TargetOverrides } from './helpers';

const claudeTarget = (model = 'claude-3-5-sonnet-20241022', extra: TargetOverrides = {}) =>
  target({ channelType: 14, baseUrl: 'https://api.anthropic.com', key: 'sk-ant', requestModel: model, upstreamModel: model, ...extra });

describe('Claude requests from OpenAI chat', () => {
  it('sends Messages with x-api-key, anthropic-version and the default max_tokens', () => {
    const req = claudeProvider.buildRequest('chat', { model: 'x', messages: [{ role: 'user', content: 'hi' }] }, claudeTarget(), false);
    expect(req.url).toBe('https://api.anthropic.com/v1/messages');
    expect(req.headers).toEqual({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(jsonBody(req)).toEqual({ model: 'claude-3-5-sonnet-20241022', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8192 });
  });

  it('uses Messages for every new name and legacy /v1/complete only for claude-instant/claude-2', () => {
    expect(claudeProvider.buildRequest('chat', { messages: [] }, claudeTarget('claude-sonnet-4-20250514'), false).url).toMatch(/\/v1\/messages$/);
    const legacy = claudeProvider.buildRequest(
      'chat',
      {
        messages: [
          { role: 'system', content: 'Be kind.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Bye' },
        ],
        stop: 'END',
      },
      claudeTarget('claude-2.1'),
      true,
    );
    expect(legacy.url).toBe('https://api.anthropic.com/v1/complete');
    expect(jsonBody(legacy)).toEqual({
      model: 'claude-2.1',
      prompt: 'Be kind.\n\nHuman: Hi\n\nAssistant: Hello\n\nHuman: Bye\n\nAssistant:',
      max_tokens_to_sample: 4096,
      stop_sequences: ['END'],
      stream: true,
    });
  });

  it('streams exactly when the pipeline says so, whatever the body says', () => {
    expect(jsonBody(claudeProvider.buildRequest('chat', { messages: [], stream: true }, claudeTarget(), false))).not.toHaveProperty('stream');
    expect(jsonBody(claudeProvider.buildRequest('messages', { messages: [] }, claudeTarget(), true)).stream).toBe(true);
  });

  it('takes default max_tokens per model from the option, and honours client headers and model headers', () => {
    const t = claudeTarget('claude-3-7-sonnet-20250219', {
      options: {
        claudeDefaultMaxTokens: { default: 1000, 'claude-3-7-sonnet-20250219': 64000 },
        claudeModelHeaders: { 'claude-3-7-sonnet-20250219': { 'anthropic-beta': ['output-128k-2025-02-19', 'x'], 'X-Extra': 'y' } },
      },
      clientHeaders: { 'anthropic-version': '2024-01-01', 'anthropic-beta': 'client-beta' },
    });
    const req = claudeProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'hi' }] }, t, true);
    expect(jsonBody(req).max_tokens).toBe(64000);
    expect(req.headers).toMatchObject({ 'anthropic-version': '2024-01-01', 'anthropic-beta': 'output-128k-2025-02-19,x', 'x-extra': 'y', accept: 'text/event-stream' });
    expect(Object.keys(req.headers).filter((h) => h.toLowerCase() === 'anthropic-beta')).toHaveLength(1);
  });

  it('converts system, roles, images, tool calls and tool results', () => {
    const body = {
      messages: [
        { role: 'system', content: 'Rule one.' },
        { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
        { role: 'assistant', content: 'I start.' },
        { content: 'no role' },
        { role: 'user', content: 'merged' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'image_url', image_url: 'https://x.example/cat.jpg' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'bad', type: 'function', function: { name: 'x', arguments: '[1]' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rainy' }] },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
        { type: 'function', function: { name: 'noargs' } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      stop: ['a', 'b'],
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 500,
      user: 'u-1',
      stream: true,
    };
    const sent = jsonBody(claudeProvider.buildRequest('chat', body, claudeTarget(), true));
    expect(sent).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      system: 'Rule one.\nRule two.',
      messages: [
        { role: 'user', content: '...' },
        { role: 'assistant', content: 'I start.' },
        { role: 'user', content: 'no role merged' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { type: 'url', url: 'https://x.example/cat.jpg' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'rainy' }] },
          ],
        },
      ],
      max_tokens: 500,
      stop_sequences: ['a', 'b'],
      temperature: 0.3,
      top_p: 0.9,
      stream: true,
      tools: [
        { name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { name: 'noargs', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'tool', name: 'weather', disable_parallel_tool_use: true },
      metadata: { user_id: 'u-1' },
    });
  });

  it('refuses content Claude cannot take', () => {
    const audio = { messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }] };
    expect(() => claudeProvider.buildRequest('chat', audio, claudeTarget(), false)).toThrow(ProviderRequestError);
    const pdf = { messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE' } }] }] };
    expect(jsonBody(claudeProvider.buildRequest('chat', pdf, claudeTarget(), false)).messages).toEqual([
      { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }] },
    ]);
  });

  it('turns -thinking models into extended thinking with the budget share, billing name kept', () => {
    const t = claudeTarget('claude-3-7-sonnet-20250219-thinking');
    const req = claudeProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'hi' }], top_p: 0.5, temperature: 0.1, max_tokens: 1000 }, t, false);
    const sent = jsonBody(req);
    expect(req.model).toBe('claude-3-7-sonnet-20250219');
    expect(sent).toMatchObject({ model: 'claude-3-7-sonnet-20250219', max_tokens: 1280, temperature: 1, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(sent).not.toHaveProperty('top_p');
    const big = jsonBody(claudeProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'hi' }] }, { ...t, options: { ...t.options, claudeThinkingBudgetPercentage: 0.5 } }, false));
    expect(big).toMatchObject({ max_tokens: 8192, thinking: { budget_tokens: 4096 } });
    const off = claudeProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'hi' }] }, { ...t, options: { ...t.options, claudeThinkingAdapterEnabled: false } }, false);
    expect(jsonBody(off)).not.toHaveProperty('thinking');
    expect(off.model).toBe('claude-3-7-sonnet-20250219-thinking');
  });
});

describe('Claude answers as OpenAI chat', () => {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-3-7-sonnet-20250219',
    content: [
      { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
      { type: 'text', text: 'Checking ' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
      { type: 'text', text: 'now.' },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 },
  };

  it('converts content, reasoning, tool calls, stop reason and usage with cache counts', () => {
    const parsed = claudeProvider.parseResponse('chat', message, claudeTarget());
    expect(parsed.usage).toEqual({ promptTokens: 20, completionTokens: 10, cachedTokens: 100, cacheCreationTokens: 50, promptExcludesCache: true });
    expect(parsed.body).toMatchObject({
      id: 'msg_1',
      object: 'chat.completion',
      model: 'claude-3-7-sonnet-20250219',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking now.',
            reasoning_content: 'Let me see.',
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      // OpenAI's prompt_tokens include the cache.
      usage: { prompt_tokens: 170, completion_tokens: 10, total_tokens: 180, prompt_tokens_details: { cached_tokens: 100, cached_creation_tokens: 50 } },
    });
  });

  it('maps stop reasons (Ours: max_tokens -> length, tool_use -> tool_calls)', () => {
    const reason = (stop_reason: string) =>
      (claudeProvider.parseResponse('chat', { ...message, stop_reason }, claudeTarget()).body as { choices: { finish_reason: string }[] }).choices[0].finish_reason;
    expect([reason('end_turn'), reason('stop_sequence'), reason('max_tokens'), reason('tool_use'), reason('refusal'), reason('pause_turn')]).toEqual([
      'stop',
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'pause_turn',
    ]);
  });

  it('treats an error body as a failure', () => {
    expect(claudeProvider.parseResponse('chat', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, claudeTarget()).error).toEqual({
      status: 500,
      message: 'Overloaded',
      type: 'overloaded_error',
      code: null,
    });
  });

  it('converts a legacy completion and counts it locally', () => {
    const parsed = claudeProvider.parseResponse('chat', { type: 'completion', completion: ' Hi there', stop_reason: 'max_tokens', model: 'claude-2.1' }, claudeTarget('claude-2.1'));
    expect(parsed.usage).toBeUndefined();
    expect(parsed.text).toBe(' Hi there');
    expect(parsed.body).toMatchObject({ choices: [{ message: { content: ' Hi there' }, finish_reason: 'length' }] });
  });
});

/** A Claude stream as Anthropic sends it: thinking, text, a tool call, cache counts. */
const recorded = events(
  [
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_9',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-7-sonnet-20250219',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 25, cache_creation_input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 1 },
      },
    },
  ],
  ['ping', { type: 'ping' }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 2 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }],
  ['message_stop', { type: 'message_stop' }],
);

describe('Claude streams as OpenAI chunks', () => {
  it('converts the recorded events, keeping cache counts (Ours) and the usage chunk when asked', () => {
    const run = runStream(claudeProvider.createStream!('chat', claudeTarget(), { includeUsage: true }), recorded);
    const deltas = run.json.map((c) => (c as { choices: { delta: unknown; finish_reason: unknown }[] }).choices[0]);
    expect(deltas.slice(0, -1)).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { reasoning_content: 'Hmm.' }, finish_reason: null },
      { index: 0, delta: { content: 'Hello' }, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '' } }] }, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
    ]);
    expect(run.json.every((c) => (c as { id: string; model: string }).id === 'msg_9' && (c as { model: string }).model === 'claude-3-7-sonnet-20250219')).toBe(true);
    expect(run.json.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 125, completion_tokens: 42, total_tokens: 167, prompt_tokens_details: { cached_tokens: 90, cached_creation_tokens: 10 } },
    });
    expect(run.usage).toEqual({ promptTokens: 25, completionTokens: 42, cachedTokens: 90, cacheCreationTokens: 10, promptExcludesCache: true });
    expect(run.text).toBe('Hmm.Helloweather{"city":"Paris"}');
  });

  it('completes a stream cut before message_delta with the locally counted output', () => {
    const run = runStream(claudeProvider.createStream!('chat', claudeTarget(), { includeUsage: false }), recorded.slice(0, 8), { promptTokens: 999, completionTokens: 3 });
    expect(run.usage).toEqual({ promptTokens: 25, completionTokens: 3, cachedTokens: 90, cacheCreationTokens: 10, promptExcludesCache: true });
    expect(run.json.some((c) => (c as { choices: unknown[] }).choices.length === 0)).toBe(false);
  });

  it('reports an error event', () => {
    const run = runStream(
      claudeProvider.createStream!('chat', claudeTarget(), { includeUsage: false }),
      events(['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]),
    );
    expect(run.errors).toEqual([{ status: 500, message: 'Overloaded', type: 'overloaded_error', code: null }]);
  });

  it('converts a legacy completion stream', () => {
    const legacy = events(
      ['completion', { type: 'completion', completion: 'Hi', stop_reason: null, model: 'claude-2.1' }],
      ['completion', { type: 'completion', completion: '!', stop_reason: 'stop_sequence', model: 'claude-2.1' }],
    );
    const run = runStream(claudeProvider.createStream!('chat', claudeTarget('claude-2.1'), { includeUsage: true }), legacy, { promptTokens: 5, completionTokens: 2 });
    expect(run.json.map((c) => (c as { choices: { delta?: { content?: string }; finish_reason?: string }[] }).choices[0] ?? null)).toMatchObject([
      { delta: { content: 'Hi' }, finish_reason: null },
      { delta: { content: '!' }, finish_reason: 'stop' },
      null,
    ]);
    expect(run.usage).toEqual({ promptTokens: 5, completionTokens: 2 });
  });
});

describe('Claude Messages pass-through (/v1/messages)', () => {
  it('forwards the body with the upstream model and default max_tokens, without fields Claude does not define', () => {
    const body = { model: 'alias', messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'u' }, service_tier: 'auto', output_config: { effort: 'low' } };
    const req = claudeProvider.buildRequest('messages', body, claudeTarget('claude-3-5-haiku-20241022', { requestModel: 'alias' }), false);
    expect(req.url).toBe('https://api.anthropic.com/v1/messages');
    expect(jsonBody(req)).toEqual({ ...body, model: 'claude-3-5-haiku-20241022', max_tokens: 8192 });
    const noisy = { ...body, conversation_id: 'c1', messages: [{ role: 'user', content: 'hi', id: 'm1', createAt: 1 }] };
    expect(jsonBody(claudeProvider.buildRequest('messages', noisy, claudeTarget('claude-3-5-haiku-20241022', { requestModel: 'alias' }), false))).toEqual({
      ...body,
      model: 'claude-3-5-haiku-20241022',
      max_tokens: 8192,
    });
  });

  it('adds thinking for -thinking only when the client sent none, and strips the suffix either way', () => {
    const t = claudeTarget('claude-3-7-sonnet-20250219-thinking');
    const injected = jsonBody(claudeProvider.buildRequest('messages', { messages: [], max_tokens: 2000 }, t, false));
    expect(injected).toMatchObject({ model: 'claude-3-7-sonnet-20250219', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1600 } });
    const own = jsonBody(claudeProvider.buildRequest('messages', { messages: [], max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }, t, false));
    expect(own).toMatchObject({ model: 'claude-3-7-sonnet-20250219', thinking: { budget_tokens: 1024 } });
  });

  it('returns answers untouched with their usage', () => {
    const answer = { id: 'msg', type: 'message', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 2 } };
    const parsed = claudeProvider.parseResponse('messages', answer, claudeTarget());
    expect(parsed.body).toBe(answer);
    expect(parsed.usage).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 2, promptExcludesCache: true });
  });

  it('forwards every event untouched with its name, reading usage and text', () => {
    const run = runStream(claudeProvider.createStream!('messages', claudeTarget(), { includeUsage: false }), recorded);
    expect(run.out).toEqual(recorded);
    expect(run.usage).toEqual({ promptTokens: 25, completionTokens: 42, cachedTokens: 90, cacheCreationTokens: 10, promptExcludesCache: true });
    expect(run.text).toBe('Hmm.Helloweather{"city":"Paris"}');
    const failed = runStream(
      claudeProvider.createStream!('messages', claudeTarget(), { includeUsage: false }),
      events(['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]),
    );
    expect(failed.out).toHaveLength(1);
    expect(failed.errors).toHaveLength(1);
  });

  it('serves chat and messages only, and lists models with its own headers', () => {
    expect([...claudeProvider.modes].sort()).toEqual(['chat', 'messages']);
    expect(() => claudeProvider.buildRequest('embeddings', {}, claudeTarget(), false)).toThrow(/not supported/);
    expect(claudeProvider.modelsRequest!(claudeTarget())).toEqual({ url: 'https://api.anthropic.com/v1/models', method: 'GET', headers: { 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' } });
  });
});
