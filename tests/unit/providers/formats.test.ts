import { describe, expect, it } from 'vitest';
import { ClaudeStreamFromOpenAI, claudeMessageFromOpenAI, openaiRequestFromClaude } from '../../../src/server/relay/formats/claude-openai';
import { claudeRequestFromOpenAI } from '../../../src/server/relay/providers/claude/chat-request';
import { openaiResponseFromClaude } from '../../../src/server/relay/providers/claude/chat-response';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { events, runStream, target } from './helpers';

describe('Claude Messages request -> OpenAI chat', () => {
  it('converts system blocks (texts, Ours), images, documents, tool use and tool results', () => {
    const claude = {
      model: 'claude-3-5-sonnet-20241022',
      system: [
        { type: 'text', text: 'Rule A.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Rule B.' },
      ],
      max_tokens: 1024,
      temperature: 0.5,
      top_k: 5,
      stop_sequences: ['STOP'],
      stream: true,
      metadata: { user_id: 'u-7' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 's' },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'y' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a png' }] },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
      tools: [
        { name: 'lookup', description: 'Look up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    };
    expect(openaiRequestFromClaude(claude)).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      messages: [
        { role: 'system', content: 'Rule A.\nRule B.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            { type: 'file', file: { filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBE' } },
          ],
        },
        { role: 'assistant', content: 'Let me check.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"y"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'a png' },
        { role: 'user', content: 'Thanks' },
      ],
      max_tokens: 1024,
      temperature: 0.5,
      top_k: 5,
      stop: ['STOP'],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      user: 'u-7',
    });
  });
});

describe('OpenAI chat answer -> Claude message', () => {
  it('converts text, reasoning, tool calls, stop reason and usage (input excludes cache)', () => {
    const answer = {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Sure.',
            reasoning_content: 'think',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
              { id: 'call_2', type: 'function', function: { name: 'g', arguments: 'oops' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38, prompt_tokens_details: { cached_tokens: 10 } },
    };
    expect(claudeMessageFromOpenAI(answer, 'claude-alias')).toEqual({
      id: 'chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'claude-alias',
      content: [
        { type: 'thinking', thinking: 'think', signature: '' },
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
        { type: 'tool_use', id: 'call_2', name: 'g', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 8, cache_read_input_tokens: 10 },
    });
    const stop = (finish_reason: string) => claudeMessageFromOpenAI({ choices: [{ message: { content: 'x' }, finish_reason }] }, 'm').stop_reason;
    expect([stop('stop'), stop('length'), stop('content_filter')]).toEqual(['end_turn', 'max_tokens', 'refusal']);
  });
});

describe('OpenAI chat stream -> Claude events', () => {
  const base = { id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const recorded = events(
    chunk({ role: 'assistant', content: '' }),
    chunk({ reasoning_content: 'Think' }),
    chunk({ content: 'Hi' }),
    chunk({ content: ' there' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
    chunk({}, 'tool_calls'),
    { ...base, choices: [], usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } },
    '[DONE]',
  );

  it('emits message_start, one block per text/thinking/tool call, then message_delta and message_stop', () => {
    const converter = new ClaudeStreamFromOpenAI(openaiProvider.createStream!('chat', target(), { includeUsage: false }), { model: 'claude-alias', promptTokens: 33 });
    const run = runStream(converter, recorded);
    expect(run.out.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(run.out.every((e) => JSON.parse(e.data).type === e.event)).toBe(true);
    expect(run.json[0]).toMatchObject({ message: { id: 'chatcmpl-7', role: 'assistant', model: 'claude-alias', usage: { input_tokens: 33, output_tokens: 0 } } });
    expect(run.json[1]).toMatchObject({ index: 0, content_block: { type: 'thinking' } });
    expect(run.json[2]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Think' } });
    expect(run.json[5]).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } });
    expect(run.json[8]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_a', name: 'f', input: {} } });
    expect(run.json[10]).toEqual({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } });
    expect(run.json[12]).toMatchObject({ index: 3, content_block: { type: 'tool_use', id: 'call_b', name: 'g' } });
    expect(run.json[15]).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 40, output_tokens: 12 } });
    expect(run.usage).toEqual({ promptTokens: 40, completionTokens: 12 });
    expect(run.text).toBe('ThinkHi theref{"x":1}g{}');
  });

  it('closes a stream without usage with the local count, and one without chunks with a bare message', () => {
    const converter = new ClaudeStreamFromOpenAI(openaiProvider.createStream!('chat', target(), { includeUsage: false }), { model: 'm', promptTokens: 5 });
    const run = runStream(converter, events(chunk({ content: 'x' })), { promptTokens: 5, completionTokens: 1 });
    expect(run.json.at(-2)).toEqual({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { input_tokens: 5, output_tokens: 1 } });
    const empty = runStream(new ClaudeStreamFromOpenAI(openaiProvider.createStream!('chat', target(), { includeUsage: false }), { model: 'm', promptTokens: 5 }), []);
    expect(empty.out.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});

describe('round trips', () => {
  it('OpenAI -> Claude -> OpenAI keeps the conversation', () => {
    const openai = {
      model: 'claude-3-5-sonnet-20241022',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: 'Calling.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'result' },
        { role: 'user', content: 'And?' },
      ],
      max_tokens: 100,
      temperature: 0.4,
      stop: ['X'],
      tools: [{ type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'number' } } } } }],
      tool_choice: 'auto',
    };
    const claude = claudeRequestFromOpenAI(openai, { model: openai.model, defaultMaxTokens: 8192 });
    expect(openaiRequestFromClaude(claude)).toEqual({
      ...openai,
      messages: [...openai.messages.slice(0, 3), { role: 'tool', tool_call_id: 'call_1', content: 'result' }, { role: 'user', content: 'And?' }],
    });
  });

  it('Claude -> OpenAI -> Claude keeps the conversation', () => {
    const claude = {
      model: 'claude-3-5-sonnet-20241022',
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Calling.' },
            { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
      ],
      max_tokens: 256,
      stop_sequences: ['END'],
      tools: [{ name: 'f', description: 'F', input_schema: { type: 'object', properties: { a: { type: 'number' } } } }],
      tool_choice: { type: 'tool', name: 'f' },
    };
    const back = claudeRequestFromOpenAI(openaiRequestFromClaude(claude), { model: claude.model, defaultMaxTokens: 8192 });
    expect(back).toEqual(claude);
  });

  it('answers survive Claude -> OpenAI -> Claude', () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-3-5-sonnet-20241022',
      content: [
        { type: 'text', text: 'Done.' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 6, cache_read_input_tokens: 4 },
    };
    const openai = openaiResponseFromClaude(message).body;
    expect(claudeMessageFromOpenAI(openai, message.model)).toEqual(message);
  });
});
