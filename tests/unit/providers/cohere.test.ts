import { describe, expect, it } from 'vitest';
import { cohereProvider } from '../../../src/server/relay/providers/cohere';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { events, jsonBody, runStream, target } from './helpers';

const co = (model = 'command-r-plus') => target({ channelType: 34, baseUrl: 'https://api.cohere.ai', key: 'co-key', requestModel: model, upstreamModel: model });

describe('Cohere requests', () => {
  it('chat: v2 messages with tool calls and results, renamed samplers, tools and JSON output', () => {
    const req = cohereProvider.buildRequest(
      'chat',
      {
        messages: [
          { role: 'developer', content: [{ type: 'text', text: 'rules' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'weather?' },
              { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get', arguments: '{"city":"Oslo"}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        ],
        max_completion_tokens: 100,
        top_k: 5,
        stop: ['x', 'y'],
        tools: [{ type: 'function', function: { name: 'get', description: 'weather', parameters: { type: 'object' } } }],
        response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object' } } },
        unknown_field: 1,
      },
      co(),
      true,
    );
    expect(req.url).toBe('https://api.cohere.ai/v2/chat');
    expect(req.headers).toMatchObject({ Authorization: 'Bearer co-key', Accept: 'text/event-stream' });
    expect(jsonBody(req)).toEqual({
      model: 'command-r-plus',
      stream: true,
      max_tokens: 100,
      k: 5,
      stop_sequences: ['x', 'y'],
      messages: [
        { role: 'system', content: 'rules' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather?' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'get', description: 'weather', parameters: { type: 'object' } } }],
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
    });
  });

  it("sends the operator's safety mode, none for NONE", () => {
    const withMode = (mode: string) =>
      jsonBody(cohereProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'x' }] }, target({ ...co(), options: { ...co().options, cohereSafetyMode: mode } }), false));
    expect(withMode('STRICT').safety_mode).toBe('STRICT');
    expect(withMode('NONE')).not.toHaveProperty('safety_mode');
  });

  it('refuses what Cohere cannot take, with a client error', () => {
    expect(() => cohereProvider.buildRequest('chat', { messages: [] }, co(), false)).toThrow(ProviderRequestError);
    expect(() => cohereProvider.buildRequest('chat', { messages: [{ role: 'wizard', content: 'x' }] }, co(), false)).toThrow(/role/);
    expect(() => cohereProvider.buildRequest('embeddings', { input: [1] }, co('embed-v4.0'), false)).toThrow(/strings/);
    expect(() => cohereProvider.buildRequest('embeddings', { input: 'x', input_type: 'poem' }, co('embed-v4.0'), false)).toThrow(/input_type/);
    expect(() => cohereProvider.buildRequest('images', {}, co(), false)).toThrow(/not supported/);
  });

  it('embed and rerank bodies', () => {
    expect(jsonBody(cohereProvider.buildRequest('embeddings', { input: 'hi', input_type: 'search_query', dimensions: 256 }, co('embed-v4.0'), false))).toEqual({
      model: 'embed-v4.0',
      texts: ['hi'],
      input_type: 'search_query',
      embedding_types: ['float'],
      output_dimension: 256,
    });
    const rerank = cohereProvider.buildRequest('rerank', { query: 'q', documents: ['a', { text: 'b' }, { title: 't' }], top_n: 0, return_documents: true }, co('rerank-v3.5'), false);
    expect(rerank.url).toBe('https://api.cohere.ai/v2/rerank');
    expect(jsonBody(rerank)).toEqual({ model: 'rerank-v3.5', query: 'q', documents: ['a', 'b', '{"title":"t"}'] });
  });
});

describe('Cohere answers', () => {
  it('chat: text, thinking and tool calls; billed_units over tokens; finish reasons mapped', () => {
    const parsed = cohereProvider.parseResponse(
      'chat',
      {
        id: 'r1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm' },
            { type: 'text', text: 'ok' },
          ],
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        usage: { billed_units: { input_tokens: 5, output_tokens: 3 }, tokens: { input_tokens: 70, output_tokens: 3 } },
      },
      co(),
    );
    expect(parsed.usage).toEqual({ promptTokens: 5, completionTokens: 3 });
    expect(parsed.body).toMatchObject({
      id: 'r1',
      object: 'chat.completion',
      choices: [{ finish_reason: 'tool_calls', message: { content: 'ok', reasoning_content: 'hmm', tool_calls: [{ id: 't1', function: { name: 'f', arguments: '{}' } }] } }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    const tokensOnly = cohereProvider.parseResponse('chat', { message: { content: [{ type: 'text', text: 'x' }] }, usage: { tokens: { input_tokens: 7, output_tokens: 1 } } }, co());
    expect(tokensOnly.usage).toEqual({ promptTokens: 7, completionTokens: 1 });
    const none = cohereProvider.parseResponse('chat', { message: { content: [{ type: 'text', text: 'abc' }] }, finish_reason: 'MAX_TOKENS' }, co());
    expect(none.usage).toBeUndefined();
    expect(none.text).toBe('abc');
    expect(none.body).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it('embeddings and rerank', () => {
    const emb = cohereProvider.parseResponse(
      'embeddings',
      {
        embeddings: {
          float: [
            [1, 2],
            [3, 4],
          ],
        },
        meta: { billed_units: { input_tokens: 4 } },
      },
      co('embed-v4.0'),
    );
    expect(emb.body).toEqual({
      object: 'list',
      model: 'embed-v4.0',
      data: [
        { object: 'embedding', index: 0, embedding: [1, 2] },
        { object: 'embedding', index: 1, embedding: [3, 4] },
      ],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    expect(emb.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
    const rr = cohereProvider.parseResponse('rerank', { id: 'x', results: [{ index: 2, relevance_score: 0.9 }], meta: { billed_units: { search_units: 1 } } }, co('rerank-v3.5'));
    expect(rr.body).toEqual({ id: 'x', model: 'rerank-v3.5', results: [{ index: 2, relevance_score: 0.9 }] });
    // Search units are not tokens: the pipeline counts locally.
    expect(rr.usage).toBeUndefined();
  });

  it('errors: Cohere {message} bodies', () => {
    expect(cohereProvider.parseError(429, '{"id":"e","message":"trial key rate limit"}')).toMatchObject({ status: 429, message: 'trial key rate limit' });
  });
});

describe('Cohere stream', () => {
  it('turns v2 events into chunks with usage from message-end', () => {
    const run = runStream(
      cohereProvider.createStream!('chat', co(), { includeUsage: true }),
      events(
        ['message-start', { type: 'message-start', id: 'm1', delta: { message: { role: 'assistant' } } }],
        ['content-start', { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } }],
        ['content-delta', { type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hi ' } } } }],
        ['content-delta', { type: 'content-delta', index: 0, delta: { message: { content: { text: 'there' } } } }],
        ['tool-call-start', { type: 'tool-call-start', index: 1, delta: { message: { tool_calls: { id: 'c1', type: 'function', function: { name: 'f', arguments: '' } } } } }],
        ['tool-call-delta', { type: 'tool-call-delta', index: 1, delta: { message: { tool_calls: { function: { arguments: '{"a":1}' } } } } }],
        ['content-end', { type: 'content-end', index: 0 }],
        ['message-end', { type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage: { billed_units: { input_tokens: 4, output_tokens: 2 }, tokens: { input_tokens: 60, output_tokens: 2 } } } }],
      ),
    );
    const chunks = run.json as { id: string; choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown }[];
    expect(chunks.every((c) => c.id === 'm1')).toBe(true);
    expect(run.text).toBe('Hi theref{"a":1}');
    expect(chunks[3]!.choices[0]!.delta).toEqual({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }] });
    expect(chunks[4]!.choices[0]!.delta).toEqual({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] });
    expect(chunks[5]!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
    expect(run.usage).toEqual({ promptTokens: 4, completionTokens: 2 });
  });

  it('a message-end with an error is a stream error; no usage falls back to the local count', () => {
    const failed = runStream(cohereProvider.createStream!('chat', co(), { includeUsage: false }), events({ type: 'message-end', delta: { finish_reason: 'ERROR', error: 'boom' } }));
    expect(failed.errors[0]).toMatchObject({ message: 'boom' });
    const local = runStream(cohereProvider.createStream!('chat', co(), { includeUsage: false }), events({ type: 'content-delta', delta: { message: { content: { text: 'x' } } } }), {
      promptTokens: 9,
      completionTokens: 1,
    });
    expect(local.usage).toEqual({ promptTokens: 9, completionTokens: 1 });
  });
});
