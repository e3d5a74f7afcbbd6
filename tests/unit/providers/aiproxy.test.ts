import { describe, expect, it } from 'vitest';
import { aiproxyProvider } from '../../../src/server/relay/providers/aiproxy';
import { ChannelKeyError, ProviderRequestError } from '../../../src/server/relay/providers/types';
import { events, jsonBody, runStream, target } from './helpers';

const library = target({ channelType: 21, baseUrl: 'https://api.aiproxy.io', key: 'ap-key', other: ' lib-7 ', requestModel: 'gpt-4o-mini', upstreamModel: 'gpt-4o-mini' });
const DOCS = [
  { title: 'Guide', url: 'https://example.com/guide' },
  { title: 'FAQ', url: 'https://example.com/faq' },
];
const REFS = '\n\n参考文档：\n1. [Guide](https://example.com/guide)\n2. [FAQ](https://example.com/faq)\n';

describe('AI Proxy Library', () => {
  it("asks the last user message of the channel's library at /api/library/ask, streamed or not", () => {
    const req = aiproxyProvider.buildRequest(
      'chat',
      {
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'first' },
          { role: 'user', content: [{ type: 'text', text: 'second' }] },
          { role: 'assistant', content: 'prefill' },
        ],
      },
      library,
      false,
    );
    expect(req.url).toBe('https://api.aiproxy.io/api/library/ask');
    expect(req.headers.Authorization).toBe('Bearer ap-key');
    expect(jsonBody(req)).toEqual({ model: 'gpt-4o-mini', query: 'second', libraryId: 'lib-7', stream: false });
    const streamed = aiproxyProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'q' }] }, library, true);
    expect(jsonBody(streamed)).toMatchObject({ stream: true });
    expect(streamed.headers.Accept).toBe('text/event-stream');
  });

  it('refuses what it cannot ask: no user text (400), another mode, a channel without a library id (channel fault)', () => {
    expect(() => aiproxyProvider.buildRequest('chat', { messages: [{ role: 'system', content: 'S' }] }, library, false)).toThrow(ProviderRequestError);
    expect(() => aiproxyProvider.buildRequest('chat', { messages: [] }, library, false)).toThrow(ProviderRequestError);
    expect(() => aiproxyProvider.buildRequest('embeddings', { input: 'x' }, library, false)).toThrow(/not supported/);
    expect(() => aiproxyProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'q' }] }, { ...library, other: '  ' }, false)).toThrow(ChannelKeyError);
  });

  it('answers: the documents appended as references, no usage (local count of the whole text), errCode errors', () => {
    const parsed = aiproxyProvider.parseResponse('chat', { success: true, answer: 'yes', documents: DOCS }, library);
    expect(parsed.usage).toBeUndefined();
    expect(parsed.text).toBe(`yes${REFS}`);
    expect(parsed.body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ message: { role: 'assistant', content: `yes${REFS}` }, finish_reason: 'stop' }] });
    expect(aiproxyProvider.parseResponse('chat', { success: true, answer: 'plain', documents: [] }, library).text).toBe('plain');
    expect(aiproxyProvider.parseResponse('chat', { success: false, errCode: 10001, message: 'library not found' }, library).error).toMatchObject({ message: 'library not found', code: 10001 });
    expect(aiproxyProvider.parseError(401, '{"success":false,"errCode":401,"message":"invalid api key"}')).toMatchObject({ status: 401, message: 'invalid api key' });
  });

  it('streams: content lines as chunks, the finish line closes with the references, local counting text', () => {
    const run = runStream(
      aiproxyProvider.createStream!('chat', library, { includeUsage: true }),
      events({ content: 'one ', finish: false, model: 'gpt-4o-mini' }, { content: 'two', finish: true, model: 'gpt-4o-mini', documents: DOCS }),
      () => ({ promptTokens: 5, completionTokens: 9 }),
    );
    const chunks = run.json as { choices: { delta: { content?: string; role?: string }; finish_reason: string | null }[]; usage?: unknown }[];
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(`one two${REFS}`);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(run.text).toBe(`one two${REFS}`);
    expect(run.usage).toEqual({ promptTokens: 5, completionTokens: 9 });
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 9 });
  });

  it('a stream without its finish line still closes once; an errCode line is an error', () => {
    const cut = runStream(aiproxyProvider.createStream!('chat', library, { includeUsage: false }), events({ content: 'half', finish: false }));
    expect(cut.json).toHaveLength(2);
    expect(cut.json[1]).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    const failed = runStream(
      aiproxyProvider.createStream!('chat', library, { includeUsage: false }),
      events({ content: 'a', finish: false }, { success: false, errCode: 10002, message: 'interrupted' }),
    );
    expect(failed.errors).toEqual([{ status: 500, message: 'interrupted', type: 'upstream_error', code: 10002 }]);
  });
});
