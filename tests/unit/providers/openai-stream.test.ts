import { describe, expect, it, vi } from 'vitest';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { deepseekProvider, openaiCompatibleProvider } from '../../../src/server/relay/providers/openai-compatible/families';
import { carriesUsage } from '../../../src/server/relay/providers/common/openai-stream';
import { events, runStream, target } from './helpers';

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' };
const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
/** A recorded OpenAI stream with the forced usage chunk. */
const recorded = events(chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({ content: ' there' }), chunk({}, 'stop'), { ...base, choices: [], usage }, '[DONE]');

describe('OpenAI-shaped streams', () => {
  it('passes chunks on as the very same strings (no re-serialisation) and swallows [DONE]', () => {
    const converter = openaiProvider.createStream!('chat', target(), { includeUsage: true });
    const step = converter.onEvent(recorded[1]);
    expect(step.out[0].data).toBe(recorded[1].data);
    const run = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: true }), recorded);
    expect(run.out.map((e) => e.data)).toEqual(recorded.slice(0, 5).map((e) => e.data));
    expect(run.usage).toEqual({ promptTokens: 9, completionTokens: 3 });
    expect(run.text).toBe('Hello there');
  });

  it('reads only the chunks with usage or an error; the rest, the first included, pass on unread', () => {
    const withNulls = events(
      chunk({ role: 'assistant', content: '' }, null, { usage: null }),
      chunk({ content: 'say "usage": {} and "error"' }, null, { usage: null }),
      chunk({ content: '!' }, 'stop', { usage: null }),
      { ...base, choices: [], usage },
      '[DONE]',
    );
    const run = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), withNulls);
    expect(run.unread).toBe(3);
    expect(run.out.map((e) => e.data)).toEqual(withNulls.slice(0, 3).map((e) => e.data));
    expect(run.usage).toEqual({ promptTokens: 9, completionTokens: 3 });
    expect(run.text).toBe('say "usage": {} and "error"!');
    // An error chunk after the first is still read, and ends the stream.
    const failing = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), events(chunk({ content: 'a' }), { error: { message: 'overloaded', type: 'server_error' } }));
    expect(failing.errors).toHaveLength(1);
  });

  it('looks for usage once per upstream read, but in every event of a read that continues an earlier one', () => {
    const usageEvent = { data: JSON.stringify({ ...base, choices: [], usage }) };
    const clean = openaiProvider.createStream!('chat', target(), { includeUsage: true });
    clean.onChunk!(`data: ${recorded[1]!.data}\n\n`, true);
    expect(clean.onEvent(recorded[1]!).rawText).toBe(recorded[1]!.data);
    clean.release!();
    // The usage event began in the previous read: this read's bytes lack the whole marker.
    const continued = openaiProvider.createStream!('chat', target(), { includeUsage: true });
    continued.onChunk!(usageEvent.data.slice(usageEvent.data.indexOf('"usage"') + 3) + '\n\n', false);
    expect(continued.onEvent(usageEvent).usage).toEqual({ promptTokens: 9, completionTokens: 3 });
  });

  it('in a read of plain events, reads exactly the events that hold a marker, found by their place in the read', () => {
    // Usage in the middle, an error at the end, text that mentions both: each event's place is
    // the lengths of the events before it, so only the marked ones are parsed.
    const read = events(
      chunk({ role: 'assistant', content: 'the "usage" and "error" words' }, null, { usage: null }),
      chunk({ content: 'a' }, null, { usage: null }),
      { ...base, choices: [], usage },
      chunk({ content: 'b' }, null, { usage: null }),
      { error: { message: 'overloaded', type: 'server_error' } },
      '[DONE]',
    );
    const text = read.map((e) => `data: ${e.data}\n\n`).join('');
    const converter = openaiProvider.createStream!('chat', target(), { includeUsage: true });
    converter.onChunk!(text, true);
    converter.onPlainChunk!();
    const steps = read.map((e) => converter.onEvent(e));
    // Passed unread (rawText) or parsed (text, usage, error).
    expect(steps.map((s) => s.rawText !== undefined && s.rawText !== '')).toEqual([true, true, false, true, false, false]);
    expect(steps[2]!.usage).toEqual({ promptTokens: 9, completionTokens: 3 });
    expect(steps[4]!.error?.message).toBe('overloaded');
    // The same read without onPlainChunk searches every event and decides the same.
    const searched = openaiProvider.createStream!('chat', target(), { includeUsage: true });
    searched.onChunk!(text, true);
    expect(read.map((e) => searched.onEvent(e)).map((s) => [s.rawText !== undefined && s.rawText !== '', s.usage, s.error?.message])).toEqual(
      steps.map((s) => [s.rawText !== undefined && s.rawText !== '', s.usage, s.error?.message]),
    );
  });

  it('tells a non-null usage from a null one in raw chunk text', () => {
    expect(carriesUsage('{"usage":null}')).toBe(false);
    expect(carriesUsage('{"usage" :  null ,"x":1}')).toBe(false);
    expect(carriesUsage('{"usage":{"prompt_tokens":1}}')).toBe(true);
    expect(carriesUsage('{"usage": {}}')).toBe(true);
    expect(carriesUsage('{"c":"the \\"usage\\": 1","usage":null}')).toBe(false);
    expect(carriesUsage('{"c":"usage","usage":{"a":1}}')).toBe(true);
    // The key is found by its tail; the quote before it is checked.
    expect(carriesUsage('"usage":{"a":1}')).toBe(true);
    expect(carriesUsage('{"xusage":{"a":1}}')).toBe(false);
    expect(carriesUsage('{"usage"\n:\t{"a":1}}')).toBe(true);
    expect(carriesUsage('{"choices":[]}')).toBe(false);
    // Over a whole read's text: OpenAI's `"usage":null` in every chunk is no usage.
    expect(carriesUsage('data: {"usage":null}\n\ndata: {"usage" : null}\n\n')).toBe(false);
    expect(carriesUsage('data: {"usage":null}\n\ndata: {"usage":{"prompt_tokens":1}}\n\n')).toBe(true);
  });

  it('hides the forced usage chunk from clients that did not ask for it, but still reports usage', () => {
    const run = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), recorded);
    expect(run.out).toHaveLength(4);
    expect(run.json.some((c) => (c as { usage?: unknown }).usage)).toBe(false);
    expect(run.usage).toEqual({ promptTokens: 9, completionTokens: 3 });
  });

  it('keeps a usage chunk that also carries the finish reason', () => {
    const withFinish = events(chunk({ content: 'x' }), chunk({}, 'stop', { usage }));
    const run = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), withFinish);
    expect(run.out).toHaveLength(2);
  });

  it('synthesises the usage chunk from the local count when upstream sent none, and only then computes it', () => {
    const noUsage = events(chunk({ content: 'Hi' }), chunk({}, 'stop'), '[DONE]');
    const fallback = vi.fn(() => ({ promptTokens: 7, completionTokens: 1 }));
    const run = runStream(openaiCompatibleProvider.createStream!('chat', target({ channelType: 25 }), { includeUsage: true }), noUsage, fallback);
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(run.json.at(-1)).toEqual({ ...base, choices: [], usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 } });
    expect(run.usage).toEqual({ promptTokens: 7, completionTokens: 1 });

    const lazy = vi.fn(() => ({ promptTokens: 1, completionTokens: 1 }));
    runStream(openaiProvider.createStream!('chat', target(), { includeUsage: true }), recorded, lazy);
    expect(lazy).not.toHaveBeenCalled();
  });

  it('reads DeepSeek cache hits and counts reasoning_content as output text', () => {
    const ds = events(chunk({ reasoning_content: 'think ' }), chunk({ content: 'answer' }), { ...base, choices: [], usage: { ...usage, prompt_cache_hit_tokens: 5 } });
    const run = runStream(deepseekProvider.createStream!('chat', target({ channelType: 43 }), { includeUsage: false }), ds);
    expect(run.usage).toEqual({ promptTokens: 9, completionTokens: 3, cachedTokens: 5 });
    expect(run.text).toBe('think answer');
    expect(run.out[0].data).toBe(ds[0].data);
  });

  it('collects tool-call names and arguments as text and completions text', () => {
    const tools = events(
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'get', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
    );
    expect(runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), tools).text).toBe('get{"a":1}');
    const completion = events({ id: 'c', object: 'text_completion', choices: [{ text: 'abc', index: 0 }] });
    expect(runStream(openaiProvider.createStream!('completions', target(), { includeUsage: false }), completion).text).toBe('abc');
    const withUsage = runStream(openaiProvider.createStream!('completions', target(), { includeUsage: true }), completion, { promptTokens: 2, completionTokens: 1 });
    expect(withUsage.json.at(-1)).toMatchObject({ id: 'c', object: 'text_completion', choices: [], usage: { total_tokens: 3 } });
  });

  it('reports an error chunk as an upstream error', () => {
    const run = runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), events(chunk({ content: 'a' }), { error: { message: 'boom', type: 'server_error', code: null } }));
    expect(run.errors).toEqual([{ status: 500, message: 'boom', type: 'server_error', code: null }]);
  });

  it('forwards non-JSON data as it is', () => {
    expect(runStream(openaiProvider.createStream!('chat', target(), { includeUsage: false }), [{ data: 'keep-alive' }]).out).toEqual([{ data: 'keep-alive' }]);
  });

  it('force_format re-encodes chunks through the canonical shape', () => {
    const odd = events({ ...chunk({ content: 'x', reasoning: 'r', weird: 1 }), provider_extra: true });
    const run = runStream(openaiProvider.createStream!('chat', target({ setting: { force_format: true } }), { includeUsage: false }), odd);
    expect(run.json[0]).toEqual({ ...base, choices: [{ index: 0, delta: { content: 'x', reasoning_content: 'r' }, logprobs: null, finish_reason: null }] });
  });

  it('thinking_to_content moves reasoning into <think> tags in the content', () => {
    const thinking = events(chunk({ role: 'assistant', content: '' }), chunk({ reasoning_content: 'hmm' }), chunk({ reasoning_content: ' ok' }), chunk({ content: 'Answer' }), chunk({ content: '!' }));
    const run = runStream(openaiProvider.createStream!('chat', target({ setting: { thinking_to_content: true } }), { includeUsage: false }), thinking);
    const contents = run.json.map((c) => (c as { choices: { delta: { content?: string; reasoning_content?: string } }[] }).choices[0].delta);
    expect(contents.map((d) => d.content).join('')).toBe('<think>\nhmm ok\n</think>\nAnswer!');
    expect(contents.some((d) => d.reasoning_content)).toBe(false);
    expect(run.out[0].data).toBe(thinking[0].data);
    // Reasoning that never reaches content is closed at the end.
    const unfinished = runStream(openaiProvider.createStream!('chat', target({ setting: { thinking_to_content: true } }), { includeUsage: false }), events(chunk({ reasoning_content: 'r' })));
    expect(unfinished.out.map((e) => JSON.parse(e.data).choices[0].delta.content).join('')).toBe('<think>\nr\n</think>\n');
  });
});
