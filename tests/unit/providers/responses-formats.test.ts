/**
 * The Responses API converters (formats/responses-*.ts, chat-*-to-responses.ts), the
 * pass-through stream of Responses upstreams, and the OpenAI / Azure `responses` requests.
 */
import { describe, expect, it } from 'vitest';
import { chatRequestFromResponses } from '../../../src/server/relay/formats/responses-request-to-chat';
import { responsesFromChat, type ResponseMeta } from '../../../src/server/relay/formats/chat-response-to-responses';
import { ResponsesStreamFromChat } from '../../../src/server/relay/formats/chat-stream-to-responses';
import { inputItems, requestText, responsesUsageBody } from '../../../src/server/relay/formats/responses-items';
import { ResponsesPassThroughStream } from '../../../src/server/relay/providers/common/responses-stream';
import { usageFromOpenAI } from '../../../src/server/relay/providers/common/usage';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { azureProvider } from '../../../src/server/relay/providers/azure';
import { inputItemPage } from '../../../src/server/relay/responses/routes';
import { events, jsonBody, runStream, target } from './helpers';

const meta = (request: Record<string, unknown> = {}): ResponseMeta => ({ id: 'resp_test', createdAt: 1_700_000_000, model: 'alias', request });

describe('Responses request -> OpenAI chat', () => {
  it('makes instructions the system message and a string input one user message', () => {
    expect(chatRequestFromResponses({ model: 'm', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 100, temperature: 0.2 })).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 100,
      temperature: 0.2,
    });
  });

  it('converts message items (developer → system, text and image parts), function calls and their outputs', () => {
    const chat = chatRequestFromResponses({
      model: 'm',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAA', detail: 'high' },
          ],
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
        { type: 'function_call', call_id: 'call_2', name: 'g', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'one' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'two' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
      ],
      stream: true,
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Rules.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA', detail: 'high' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
          { id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'one' },
      { role: 'tool', tool_call_id: 'call_2', content: 'two' },
    ]);
    expect(chat).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('keeps function tools and tool_choice, drops hosted, namespace and freeform tools, maps the reasoning effort', () => {
    const parameters = { type: 'object', properties: { q: { type: 'string' } } };
    const chat = chatRequestFromResponses({
      model: 'm',
      input: 'x',
      tools: [
        { type: 'function', name: 'f', description: 'd', parameters, strict: true },
        { type: 'web_search' },
        { type: 'namespace', name: 'ns', tools: [] },
        { type: 'custom', name: 'apply_patch' },
      ],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: false,
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
      prompt_cache_key: 'k',
      text: { verbosity: 'low', format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    });
    expect(chat).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
    });
    // Nothing convertible left: no tools and no tool_choice at all.
    expect(chatRequestFromResponses({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], tool_choice: 'required' })).not.toHaveProperty('tool_choice');
  });

  it('puts the stored conversation before the new input; freeform tool calls keep the thread whole', () => {
    const history = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Patch it.' }] },
      { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
    ];
    const chat = chatRequestFromResponses({ model: 'm', input: [{ type: 'custom_tool_call_output', call_id: 'c1', output: 'Done!' }] }, history);
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Patch it.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Done!' },
    ]);
  });

  it('reads input items and their text for counting', () => {
    expect(inputItems('hi')).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]);
    expect(inputItems([{ type: 'message' }, 'junk', 3])).toEqual([{ type: 'message' }]);
    expect(
      requestText({
        instructions: 'I',
        input: [
          { role: 'user', content: 'U' },
          { type: 'function_call', arguments: '{"a":1}' },
          { type: 'function_call_output', output: 'O' },
        ],
      }),
    ).toBe('I\nU\n{"a":1}\nO');
  });
});

describe('OpenAI chat answer -> Response object', () => {
  it('makes reasoning, message and function_call items and the usage object', () => {
    const chat = {
      id: 'chatcmpl-1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello', reasoning_content: 'Hmm', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{"x":2}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 10 }, completion_tokens_details: { reasoning_tokens: 3 } },
    };
    const { response, usage } = responsesFromChat(chat, meta({ instructions: 'I', tools: [], store: false, previous_response_id: 'resp_prev' }));
    expect(usage).toMatchObject({ promptTokens: 30, completionTokens: 7, cachedTokens: 10, reasoningTokens: 3 });
    expect(response).toMatchObject({
      id: 'resp_test',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: 'alias',
      instructions: 'I',
      store: false,
      previous_response_id: 'resp_prev',
      usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 10 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 37 },
    });
    const output = response.output as Record<string, unknown>[];
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'Hmm' }] });
    expect(output[1]).toMatchObject({ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] });
    expect(output[2]).toMatchObject({ call_id: 'call_9', name: 'f', arguments: '{"x":2}', status: 'completed' });
    expect(String(output[2]!.id)).toMatch(/^fc_/);
  });

  it('reports a cut answer as incomplete, and adds cache reads back for a Claude-style usage', () => {
    const { response } = responsesFromChat({ choices: [{ message: { content: 'Lo' }, finish_reason: 'length' }] }, meta());
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(responsesUsageBody({ promptTokens: 10, completionTokens: 2, cachedTokens: 5, promptExcludesCache: true })).toMatchObject({
      input_tokens: 15,
      total_tokens: 17,
      input_tokens_details: { cached_tokens: 5 },
    });
  });
});

describe('OpenAI chat stream -> Responses event stream', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, unknown>) => ({
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  });

  it('emits the typed events in order with sequence numbers, and the whole response at the end', () => {
    const inner = openaiProvider.createStream!('chat', target(), { includeUsage: false });
    const converter = new ResponsesStreamFromChat(inner, meta());
    const recorded = events(
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Think' }),
      chunk({ content: 'Hi' }),
      chunk({ content: ' there' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      { id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [], usage: { prompt_tokens: 9, completion_tokens: 5 } },
      '[DONE]',
    );
    const run = runStream(converter, recorded);
    const types = run.out.map((e) => e.event);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const json = run.json as Record<string, unknown>[];
    json.forEach((event, i) => {
      expect(event.type).toBe(types[i]);
      expect(event.sequence_number).toBe(i);
    });
    expect(json[0]).toMatchObject({ response: { id: 'resp_test', status: 'in_progress', output: [], usage: null } });
    expect(json[10]).toMatchObject({ output_index: 1, content_index: 0, delta: 'Hi' });
    expect(json[12]).toMatchObject({ output_index: 1, text: 'Hi there' });
    expect(json[15]).toMatchObject({ output_index: 2, item: { type: 'function_call', call_id: 'call_a', name: 'f', arguments: '', status: 'in_progress' } });
    expect(json[18]).toMatchObject({ output_index: 2, name: 'f', arguments: '{"a":1}' });
    expect(json[20]).toMatchObject({ response: { status: 'completed', usage: { input_tokens: 9, output_tokens: 5, total_tokens: 14 } } });
    expect(converter.final?.output).toHaveLength(3);
    expect(run.usage).toMatchObject({ promptTokens: 9, completionTokens: 5 });
  });

  it('closes with response.incomplete when cut, and with an empty completed response when nothing came', () => {
    const cut = runStream(new ResponsesStreamFromChat(openaiProvider.createStream!('chat', target(), { includeUsage: false }), meta()), events(chunk({ content: 'a' }), chunk({}, 'length')), {
      promptTokens: 3,
      completionTokens: 1,
    });
    expect(cut.json.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { input_tokens: 3, output_tokens: 1 } },
    });
    const empty = runStream(new ResponsesStreamFromChat(openaiProvider.createStream!('chat', target(), { includeUsage: false }), meta()), []);
    expect(empty.out.map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
  });
});

describe('Responses upstreams: pass-through stream and requests', () => {
  const completed = (usage: Record<string, unknown>) =>
    ['response.completed', { type: 'response.completed', sequence_number: 3, response: { id: 'resp_up', status: 'completed', usage } }] as [string, Record<string, unknown>];

  it('passes every event on as the same object, reading the id and the usage of response.completed', () => {
    const converter = new ResponsesPassThroughStream(usageFromOpenAI);
    const recorded = events(
      ['response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_up', status: 'in_progress' } }],
      ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 1, delta: 'Hey' }],
      { type: 'response.output_text.delta', sequence_number: 2, delta: ' you' },
      completed({ input_tokens: 11, output_tokens: 2, input_tokens_details: { cached_tokens: 4 }, output_tokens_details: { reasoning_tokens: 1 } }),
    );
    const steps = recorded.map((event) => ({ event, step: converter.onEvent(event) }));
    for (const { event, step } of steps) expect(step.out).toEqual([event]);
    expect(steps[1]!.step.out[0]).toBe(recorded[1]);
    expect(converter.responseId).toBe('resp_up');
    expect(converter.completed).toBe(true);
    expect(converter.finish().usage).toEqual({ promptTokens: 11, completionTokens: 2, cachedTokens: 4, reasoningTokens: 1 });
    expect(converter.textOf(recorded[2]!.data)).toBe(' you');
  });

  it('reports an error event as the upstream error, and counts locally when no usage came', () => {
    const converter = new ResponsesPassThroughStream(usageFromOpenAI);
    const step = converter.onEvent({ event: 'error', data: JSON.stringify({ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null }) });
    expect(step.error).toMatchObject({ status: 500, message: 'Slow down', code: 'rate_limit_exceeded' });
    expect(step.out[0]!.event).toBe('error');
    const silent = runStream(new ResponsesPassThroughStream(usageFromOpenAI), events({ type: 'response.output_text.delta', delta: 'abc' }), { promptTokens: 7, completionTokens: 1 });
    expect(silent.usage).toEqual({ promptTokens: 7, completionTokens: 1 });
    expect(silent.text).toBe('abc');
  });

  it('OpenAI: /v1/responses and /v1/responses/{id}; other OpenAI-shaped families do not declare the mode', () => {
    const t = target({ baseUrl: 'https://api.openai.com' });
    const post = openaiProvider.buildRequest('responses', { model: 'gpt-4o', input: 'x', store: false }, t, true);
    expect(post.url).toBe('https://api.openai.com/v1/responses');
    expect(jsonBody(post)).toEqual({ model: 'gpt-4o', input: 'x', store: false });
    expect(openaiProvider.storedResponseRequest!('DELETE', 'resp_1', t)).toMatchObject({
      url: 'https://api.openai.com/v1/responses/resp_1',
      method: 'DELETE',
      headers: { Authorization: 'Bearer sk-test' },
    });
    expect(openaiProvider.createStream!('responses', t, { includeUsage: false })).toBeInstanceOf(ResponsesPassThroughStream);
    expect(openaiProvider.modes.has('responses')).toBe(true);
  });

  it('Azure: the v1 surface, the deployment as model, api-version only when the client gave one', () => {
    const t = target({ channelType: 3, baseUrl: 'https://r.openai.azure.com', key: 'az-key', upstreamModel: 'gpt-4.1', other: '2024-10-21' });
    const post = azureProvider.buildRequest('responses', { model: 'gpt-4.1', input: 'x' }, t, false);
    expect(post.url).toBe('https://r.openai.azure.com/openai/v1/responses');
    expect(post.headers['api-key']).toBe('az-key');
    expect(jsonBody(post).model).toBe('gpt-41');
    expect(azureProvider.storedResponseRequest!('GET', 'resp_2', { ...t, clientQuery: { 'api-version': 'preview' } }).url).toBe(
      'https://r.openai.azure.com/openai/v1/responses/resp_2?api-version=preview',
    );
    // Chat keeps the deployment URL.
    expect(azureProvider.buildRequest('chat', { model: 'gpt-4.1', messages: [] }, t, false).url).toBe('https://r.openai.azure.com/openai/deployments/gpt-41/chat/completions?api-version=2024-10-21');
  });
});

describe('stored input items, as OpenAI lists them', () => {
  const input = [
    { type: 'message', role: 'user', content: 'a' },
    { type: 'function_call', id: 'fc_1', call_id: 'c', name: 'f', arguments: '{}' },
    { type: 'function_call_output', call_id: 'c', output: 'o' },
  ];

  it('lists newest first with ids from their position, pages with after and limit', () => {
    const first = inputItemPage('resp_abc', input, { limit: '2' });
    expect(first).toMatchObject({ object: 'list', first_id: 'item_abc_2', last_id: 'fc_1', has_more: true });
    expect((first.data as { type: string }[]).map((i) => i.type)).toEqual(['function_call_output', 'function_call']);
    const next = inputItemPage('resp_abc', input, { limit: '2', after: 'fc_1' });
    expect(next).toMatchObject({ data: [{ id: 'item_abc_0', type: 'message' }], has_more: false });
    expect(inputItemPage('resp_abc', input, { order: 'asc' })).toMatchObject({ first_id: 'item_abc_0', last_id: 'item_abc_2', has_more: false });
  });

  it('refuses a bad limit, order or cursor with a 400', () => {
    const queries: Record<string, string>[] = [{ limit: '0' }, { limit: '101' }, { limit: 'x' }, { order: 'up' }, { after: 'nope' }];
    for (const query of queries) {
      expect(() => inputItemPage('resp_abc', input, query)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});
