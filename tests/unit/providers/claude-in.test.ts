/**
 * Claude Messages in, completed (issue #14 item 3): the body checks, tool results with blocks
 * and errors, documents, thinking carried as each family's reasoning control and back,
 * cache_control kept for Claude and dropped elsewhere, count_tokens' upstream body, and usage
 * (cached, reasoning) shown in Claude's terms.
 */
import { describe, expect, it } from 'vitest';
import { checkClaudeBody } from '../../../src/server/relay/pipeline/claude-checks';
import { ClaudeStreamFromOpenAI, claudeMessageFromOpenAI, claudeUsageBody, openaiRequestFromClaude } from '../../../src/server/relay/formats/claude-openai';
import { budgetForEffort, effortForBudget, takesReasoningEffort } from '../../../src/server/relay/providers/common/reasoning';
import { claudeProvider } from '../../../src/server/relay/providers/claude';
import { supportsThinking } from '../../../src/server/relay/providers/claude/thinking';
import { geminiProvider } from '../../../src/server/relay/providers/gemini';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { RelayError } from '../../../src/server/relay/errors';
import { events, jsonBody, runStream, target } from './helpers';

const user = { role: 'user', content: 'hi' };

function refusal(body: Record<string, unknown>): string {
  try {
    checkClaudeBody(body);
  } catch (err) {
    expect(err).toBeInstanceOf(RelayError);
    expect((err as RelayError).status).toBe(400);
    return (err as RelayError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

describe('Claude body checks', () => {
  it('accepts what Claude Code sends: system blocks with cache_control, tools, thinking, tool results with blocks', () => {
    expect(() =>
      checkClaudeBody({
        system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hm', signature: 'sig' },
              { type: 'redacted_thinking', data: 'xx' },
              { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't1',
                content: [
                  { type: 'text', text: 'ok' },
                  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } },
                ],
                is_error: false,
                cache_control: { type: 'ephemeral' },
              },
            ],
          },
        ],
        tools: [
          { name: 'Read', description: 'r', input_schema: { type: 'object' } },
          { type: 'web_search_20250305', name: 'web_search' },
        ],
        tool_choice: { type: 'auto' },
        thinking: { type: 'enabled', budget_tokens: 31999 },
        stop_sequences: ['END'],
        metadata: { user_id: 'u' },
        temperature: 1,
      }),
    ).not.toThrow();
  });

  it('refuses wrong types, unknown blocks and missing block fields with the field named', () => {
    expect(refusal({})).toMatch(/field messages is required/);
    expect(refusal({ messages: [] })).toMatch(/field messages is required/);
    expect(refusal({ messages: 'hi' })).toMatch(/messages: Input should be a valid list/);
    expect(refusal({ messages: [{ role: 'tool', content: 'x' }] })).toMatch(/messages\.0\.role/);
    expect(refusal({ messages: [{ role: 'user', content: 5 }] })).toMatch(/messages\.0\.content/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] })).toMatch(/Input tag 'video'/);
    expect(refusal({ messages: [{ role: 'user', content: [{ text: 'no type' }] }] })).toMatch(/type: Field required/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] })).toMatch(/content\.0\.text/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', data: 'AA' } }] }] })).toMatch(/media_type/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'ftp' } }] }] })).toMatch(/source\.type/);
    expect(refusal({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }] })).toMatch(/input/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] })).toMatch(/tool_use_id/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 5 }] }] })).toMatch(/content/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }] })).toMatch(/tool_use/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', is_error: 'yes' }] }] })).toMatch(/is_error/);
    expect(refusal({ messages: [{ role: 'assistant', content: [{ type: 'thinking' }] }] })).toMatch(/thinking/);
    expect(refusal({ messages: [user], system: 5 })).toMatch(/system/);
    expect(refusal({ messages: [user], system: [{ type: 'image', source: { type: 'url', url: 'u' } }] })).toMatch(/system\.0/);
    expect(refusal({ messages: [user], tools: {} })).toMatch(/tools/);
    expect(refusal({ messages: [user], tools: [{ name: 'f' }] })).toMatch(/input_schema/);
    expect(refusal({ messages: [user], tool_choice: 'auto' })).toMatch(/tool_choice/);
    expect(refusal({ messages: [user], tool_choice: { type: 'tool' } })).toMatch(/tool_choice\.name/);
    expect(refusal({ messages: [user], thinking: { type: 'enabled' } })).toMatch(/budget_tokens/);
    expect(refusal({ messages: [user], thinking: true })).toMatch(/thinking/);
    expect(refusal({ messages: [user], stop_sequences: 'END' })).toMatch(/stop_sequences/);
    expect(refusal({ messages: [user], temperature: 'hot' })).toMatch(/temperature/);
    expect(refusal({ messages: [user], metadata: 'x' })).toMatch(/metadata/);
    expect(refusal({ messages: [user], output_config: 'high' })).toMatch(/output_config/);
    expect(refusal({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: 'ephemeral' }] }] })).toMatch(/cache_control/);
  });
});

describe('Claude request -> chat, completed', () => {
  it('tool results with blocks: text to the tool message, images to the user message after it, is_error said in the text', () => {
    const chat = openaiRequestFromClaude({
      model: 'gpt-4o',
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'shot', input: {} },
            { type: 'tool_use', id: 't2', name: 'run', input: { c: 1 } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'screen' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              ],
              cache_control: { type: 'ephemeral' },
            },
            { type: 'tool_result', tool_use_id: 't2', content: 'exit 1', is_error: true },
            { type: 'text', text: 'go on', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
    expect(chat.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'shot', arguments: '{}' } },
          { id: 't2', type: 'function', function: { name: 'run', arguments: '{"c":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'screen' },
      { role: 'tool', tool_call_id: 't2', content: 'Error: exit 1' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: 'go on' },
        ],
      },
    ]);
    // Nothing of Claude's cache marks reaches a chat upstream.
    expect(JSON.stringify(chat)).not.toContain('cache_control');
  });

  it('plain-text documents and search results become text; earlier thinking blocks are dropped', () => {
    const chat = openaiRequestFromClaude({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc body' } },
            { type: 'search_result', title: 'T', source: 'https://s', content: [{ type: 'text', text: 'found' }] },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'secret', signature: 'sig' },
            { type: 'redacted_thinking', data: 'zz' },
            { type: 'text', text: 'ok' },
          ],
        },
        { role: 'user', content: 'next' },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'doc body\nT\nfound' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'next' },
    ]);
  });

  it("system messages inside the conversation (Anthropic's beta, sent by Claude Code) stay where they are, unless cleared", () => {
    const chat = openaiRequestFromClaude({
      model: 'gpt-4o',
      system: 'top',
      messages: [
        { role: 'user', content: 'one' },
        {
          role: 'system',
          content: [
            { type: 'text', text: 'agents list' },
            { type: 'tool_addition', tool: { name: 'x' } },
          ],
        },
        { role: 'system', content: 'only for the next turn', clear_at: 'next_user_message' },
        { role: 'user', content: 'two' },
        { role: 'system', content: 'still shown', clear_at: 'next_user_message' },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: 'top' },
      { role: 'user', content: 'one' },
      { role: 'system', content: 'agents list' },
      { role: 'user', content: 'two' },
      { role: 'system', content: 'still shown' },
    ]);
    expect(() => checkClaudeBody({ messages: [{ role: 'system', content: 'x', clear_at: 'never', output_config: { effort: 'low' } }, user] })).not.toThrow();
    expect(refusal({ messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }] })).toMatch(/Input tag 'image'/);
    expect(refusal({ messages: [{ role: 'system', content: 5 }] })).toMatch(/messages\.0\.content/);
    expect(refusal({ messages: [{ role: 'system', content: 'x', output_config: 'low' }] })).toMatch(/output_config/);
  });

  it('thinking becomes reasoning_effort by budget, only for models that take it', () => {
    const body = (budget: number) => ({ model: 'x', messages: [user], thinking: { type: 'enabled', budget_tokens: budget } });
    expect(openaiRequestFromClaude(body(1024), { upstreamModel: 'o3-mini' }).reasoning_effort).toBe('low');
    expect(openaiRequestFromClaude(body(8000), { upstreamModel: 'gpt-5' }).reasoning_effort).toBe('medium');
    expect(openaiRequestFromClaude(body(31999), { upstreamModel: 'gemini-2.5-pro' }).reasoning_effort).toBe('high');
    expect(openaiRequestFromClaude(body(31999), { upstreamModel: 'gpt-4o-mini' })).not.toHaveProperty('reasoning_effort');
    expect(openaiRequestFromClaude(body(31999), { upstreamModel: 'gemini-2.0-flash' })).not.toHaveProperty('reasoning_effort');
    expect(openaiRequestFromClaude({ ...body(2000), thinking: { type: 'disabled' } }, { upstreamModel: 'o3' })).not.toHaveProperty('reasoning_effort');
    expect(openaiRequestFromClaude({ ...body(2000), thinking: { type: 'adaptive' } }, { upstreamModel: 'o3' }).reasoning_effort).toBe('medium');
    expect(openaiRequestFromClaude({ ...body(2000), output_config: { effort: 'max' } }, { upstreamModel: 'o3' }).reasoning_effort).toBe('high');
    expect(openaiRequestFromClaude({ ...body(20000), output_config: { effort: 'low' } }, { upstreamModel: 'gpt-5' }).reasoning_effort).toBe('low');
    expect([effortForBudget(1024), effortForBudget(4095), effortForBudget(4096), effortForBudget(16383), effortForBudget(16384)]).toEqual(['low', 'low', 'medium', 'medium', 'high']);
    expect([budgetForEffort('low'), budgetForEffort('medium'), budgetForEffort('high'), budgetForEffort('max'), budgetForEffort(undefined)]).toEqual([1024, 4096, 16384, undefined, undefined]);
    expect([takesReasoningEffort('o1'), takesReasoningEffort('gpt-5-mini'), takesReasoningEffort('gpt-5-chat-latest'), takesReasoningEffort('gpt-4.1')]).toEqual([true, true, false, false]);
  });

  it('the OpenAI channel sends reasoning_effort to a reasoning model; the Gemini channel turns it into thinkingConfig', () => {
    const claude = { model: 'x', max_tokens: 64, messages: [user], thinking: { type: 'enabled', budget_tokens: 20000 } };
    const openaiBody = jsonBody(openaiProvider.buildRequest('chat', openaiRequestFromClaude(claude, { upstreamModel: 'o3-mini' }), target({ upstreamModel: 'o3-mini' }), false));
    expect(openaiBody).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high', max_completion_tokens: 64 });
    const geminiBody = jsonBody(
      geminiProvider.buildRequest('chat', openaiRequestFromClaude(claude, { upstreamModel: 'gemini-2.5-flash' }), target({ channelType: 24, upstreamModel: 'gemini-2.5-flash' }), false),
    );
    expect(geminiBody.generationConfig).toMatchObject({ maxOutputTokens: 64, thinkingConfig: { thinkingBudget: 16384, includeThoughts: true } });
    // Images reach Gemini as inline data through chat.
    const image = {
      model: 'x',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
            { type: 'text', text: 'what?' },
          ],
        },
      ],
    };
    const withImage = jsonBody(geminiProvider.buildRequest('chat', openaiRequestFromClaude(image), target({ channelType: 24, upstreamModel: 'gemini-2.0-flash' }), false));
    expect(withImage.contents).toEqual([{ role: 'user', parts: [{ inlineData: { mimeType: 'image/jpeg', data: '/9j/' } }, { text: 'what?' }] }]);
  });
});

describe('chat -> Claude provider, completed', () => {
  it('keeps cache_control on parts and turns reasoning_effort into a thinking budget for thinking models', () => {
    const chat = {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 100,
      temperature: 0.3,
      reasoning_effort: 'medium',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'long context', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'question' },
          ],
        },
      ],
    };
    const sent = jsonBody(claudeProvider.buildRequest('chat', chat, target({ channelType: 14, upstreamModel: 'claude-sonnet-4-20250514' }), false));
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'long context', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'question' },
        ],
      },
    ]);
    // The answer keeps room beside the budget; thinking needs temperature 1.
    expect(sent).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 4096 }, max_tokens: 4096 + 1280, temperature: 1 });
    const old = jsonBody(claudeProvider.buildRequest('chat', { ...chat, model: 'claude-3-5-haiku-20241022' }, target({ channelType: 14, upstreamModel: 'claude-3-5-haiku-20241022' }), false));
    expect(old).not.toHaveProperty('thinking');
    expect(old).toMatchObject({ max_tokens: 100, temperature: 0.3 });
    expect([supportsThinking('claude-3-7-sonnet-20250219'), supportsThinking('claude-opus-4-1'), supportsThinking('claude-haiku-4-5'), supportsThinking('claude-3-5-sonnet-20241022')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('count_tokens goes to the Claude channel with only the fields it takes', () => {
    const request = claudeProvider.countTokensRequest!(
      {
        model: 'alias',
        max_tokens: 10,
        stream: true,
        temperature: 1,
        system: 's',
        messages: [user],
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        thinking: { type: 'enabled', budget_tokens: 2000 },
        metadata: { user_id: 'u' },
      },
      target({ channelType: 14, baseUrl: 'https://claude.example', upstreamModel: 'claude-sonnet-4-20250514', clientHeaders: { 'anthropic-version': '2023-06-01' } }),
    );
    expect(request.url).toBe('https://claude.example/v1/messages/count_tokens');
    expect(request.headers).toMatchObject({ 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' });
    expect(jsonBody(request)).toEqual({
      model: 'claude-sonnet-4-20250514',
      system: 's',
      messages: [user],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
  });
});

describe('answers back to Claude: reasoning and usage', () => {
  it('shows cached tokens as cache reads (input without them) and keeps reasoning inside the output', () => {
    expect(claudeUsageBody({ promptTokens: 100, completionTokens: 30, cachedTokens: 40, reasoningTokens: 20 })).toEqual({ input_tokens: 60, output_tokens: 30, cache_read_input_tokens: 40 });
    const answer = {
      id: 'c',
      choices: [{ index: 0, message: { role: 'assistant', content: 'A', reasoning: 'R' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 3 } },
    };
    expect(claudeMessageFromOpenAI(answer, 'm')).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'R', signature: '' },
        { type: 'text', text: 'A' },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  });

  it('a stream whose upstream calls a tool but says "stop" ends in tool_use, as the whole answer does', () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', choices: [{ index: 0, delta, finish_reason: finish }] });
    const run = runStream(
      new ClaudeStreamFromOpenAI(openaiProvider.createStream!('chat', target(), { includeUsage: false }), { model: 'm', promptTokens: 3 }),
      events(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{}' } }] }), chunk({}, 'stop')),
    );
    expect(run.json.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
    expect(claudeMessageFromOpenAI({ choices: [{ message: { tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }] }, finish_reason: 'stop' }] }, 'm').stop_reason).toBe('tool_use');
  });

  it('a Gemini stream with thoughts, text, a call and cached usage becomes thinking_delta, text_delta, tool_use and Claude usage', () => {
    const gem = (parts: Record<string, unknown>[], last = false) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      ...(last ? { usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 10, thoughtsTokenCount: 6, cachedContentTokenCount: 20, totalTokenCount: 66 } } : {}),
    });
    const inner = geminiProvider.createStream!('chat', target({ channelType: 24, upstreamModel: 'gemini-2.5-flash' }), { includeUsage: false });
    const run = runStream(
      new ClaudeStreamFromOpenAI(inner, { model: 'gemini-2.5-flash', promptTokens: 9 }),
      events(gem([{ text: 'pondering', thought: true }]), gem([{ text: 'Reading' }]), gem([{ functionCall: { name: 'Read', args: { file_path: '/a' } } }], true)),
    );
    const types = run.json.map((e) => (e as { type: string }).type);
    expect(types[0]).toBe('message_start');
    const deltas = run.json.filter((e) => (e as { type: string }).type === 'content_block_delta').map((e) => (e as { delta: Record<string, unknown> }).delta);
    expect(deltas).toEqual([
      { type: 'thinking_delta', thinking: 'pondering' },
      { type: 'text_delta', text: 'Reading' },
      { type: 'input_json_delta', partial_json: '{"file_path":"/a"}' },
    ]);
    expect(run.json.find((e) => (e as { content_block?: { type: string } }).content_block?.type === 'tool_use')).toMatchObject({ content_block: { type: 'tool_use', name: 'Read' } });
    expect(run.json.at(-2)).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 30, output_tokens: 16, cache_read_input_tokens: 20 } });
    expect(run.usage).toEqual({ promptTokens: 50, completionTokens: 16, reasoningTokens: 6, cachedTokens: 20 });
  });
});
