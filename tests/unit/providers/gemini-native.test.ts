/**
 * The Gemini-native converters (formats/gemini-*, chat-*-to-gemini) and the Gemini provider's
 * pass-through modes, one small case per rule.
 */
import { describe, expect, it } from 'vitest';
import { chatRequestFromGemini, effortFromThinking, jsonSchemaFromGemini } from '../../../src/server/relay/formats/gemini-request-to-chat';
import { geminiFinishReason, geminiResponseFromChat, geminiUsageMetadata } from '../../../src/server/relay/formats/chat-response-to-gemini';
import { GeminiStreamFromChat } from '../../../src/server/relay/formats/chat-stream-to-gemini';
import { embeddingsRequestFromGemini, geminiEmbeddingsFromOpenAI } from '../../../src/server/relay/formats/gemini-embeddings';
import { countGeminiEmbeddingTokens, countGeminiPromptTokens, countTokensRequestTokens } from '../../../src/server/relay/formats/gemini-count';
import { geminiViaOpenAI } from '../../../src/server/relay/formats/gemini-openai';
import { JsonArrayFraming } from '../../../src/server/relay/stream/json-array';
import { geminiProvider } from '../../../src/server/relay/providers/gemini';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { countTokens } from '../../../src/server/relay/tokenizer';
import { events, runStream, target } from './helpers';

const CHAT = { model: 'gpt-4o', stream: false, reasoningEffort: false };

describe('Gemini request -> OpenAI chat', () => {
  it('converts system, text, media parts, generation config and tools', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'Rule A.' }, { text: 'Rule B.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Look:' },
            { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x/y.jpg' } },
          ],
        },
        { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'A cat.' }] },
        { parts: [{ text: 'Thanks' }] },
      ],
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 256,
        stopSequences: ['END'],
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        seed: 7,
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      },
      tools: [
        {
          functionDeclarations: [
            { name: 'f', description: 'F', parameters: { type: 'OBJECT', properties: { x: { type: 'INTEGER' }, list: { type: 'ARRAY', items: { type: 'STRING' } } } } },
            { name: 'g' },
          ],
        },
        { googleSearch: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    };
    expect(chatRequestFromGemini(body, { ...CHAT, stream: true })).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Rule A.\nRule B.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
            { type: 'file', file: { filename: 'file', file_data: 'data:application/pdf;base64,JVBE' } },
            { type: 'image_url', image_url: { url: 'https://x/y.jpg' } },
          ],
        },
        { role: 'assistant', content: 'A cat.' },
        { role: 'user', content: 'Thanks' },
      ],
      max_tokens: 256,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      seed: 7,
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        { type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object', properties: { x: { type: 'integer' }, list: { type: 'array', items: { type: 'string' } } } } } },
        { type: 'function', function: { name: 'g', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'f' } },
    });
  });

  it('turns function calls and responses into tool calls and tool messages, by id or by name', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'a', args: { n: 1 } } }, { functionCall: { id: 'own-id', name: 'b', args: {} } }, { functionCall: { name: 'a', args: { n: 2 } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'a', response: { r: 1 } } },
            { functionResponse: { id: 'own-id', name: 'b', response: { r: 'b' } } },
            { functionResponse: { name: 'a', response: { r: 2 } } },
            { text: 'and now?' },
          ],
        },
      ],
    };
    expect(chatRequestFromGemini(body, CHAT).messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'a', arguments: '{"n":1}' } },
          { id: 'own-id', type: 'function', function: { name: 'b', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'a', arguments: '{"n":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"r":1}' },
      { role: 'tool', tool_call_id: 'own-id', content: '{"r":"b"}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"r":2}' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('maps tool modes and JSON without a schema', () => {
    const base = { contents: [{ parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'f' }] }] };
    expect(chatRequestFromGemini({ ...base, toolConfig: { functionCallingConfig: { mode: 'NONE' } } }, CHAT).tool_choice).toBe('none');
    expect(chatRequestFromGemini({ ...base, toolConfig: { functionCallingConfig: { mode: 'ANY' } } }, CHAT).tool_choice).toBe('required');
    expect(chatRequestFromGemini({ ...base, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } }, CHAT).tool_choice).toBe('auto');
    expect(chatRequestFromGemini({ ...base, generationConfig: { responseMimeType: 'application/json' } }, CHAT).response_format).toEqual({ type: 'json_object' });
    expect(chatRequestFromGemini({ ...base, generationConfig: { responseMimeType: 'text/plain' } }, CHAT).response_format).toBeUndefined();
    expect(chatRequestFromGemini({ contents: base.contents, systemInstruction: 'plain text system' }, CHAT).messages).toEqual([
      { role: 'system', content: 'plain text system' },
      { role: 'user', content: 'x' },
    ]);
  });

  it('turns a thinking budget or level into reasoning_effort only for models that take it', () => {
    const body = { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } } };
    expect(chatRequestFromGemini(body, CHAT).reasoning_effort).toBeUndefined();
    expect(chatRequestFromGemini(body, { ...CHAT, reasoningEffort: true }).reasoning_effort).toBe('medium');
    expect(effortFromThinking({ thinkingBudget: 0 })).toBe('low');
    expect(effortFromThinking({ thinkingBudget: 1024 })).toBe('low');
    expect(effortFromThinking({ thinkingBudget: 24576 })).toBe('high');
    expect(effortFromThinking({ thinkingBudget: -1 })).toBeUndefined();
    expect(effortFromThinking({ thinkingLevel: 'HIGH' })).toBe('high');
    expect(effortFromThinking({ thinkingLevel: 'low' })).toBe('low');
    expect(effortFromThinking(undefined)).toBeUndefined();
    // Only OpenAI's reasoning models (by the mapped name) get it.
    expect(geminiViaOpenAI('gemini', body, { model: 'gemini-2.5-flash', upstreamModel: 'o3-mini', stream: false }).body.reasoning_effort).toBe('medium');
    expect(geminiViaOpenAI('gemini', body, { model: 'gemini-2.5-flash', upstreamModel: 'gpt-4o', stream: false }).body.reasoning_effort).toBeUndefined();
  });

  it('refuses a remote file that is not an image', () => {
    const body = { contents: [{ parts: [{ fileData: { mimeType: 'video/mp4', fileUri: 'gs://b/v.mp4' } }] }] };
    expect(() => chatRequestFromGemini(body, CHAT)).toThrow(ProviderRequestError);
  });

  it('lower-cases schema types at every depth and keeps the rest', () => {
    expect(jsonSchemaFromGemini({ type: 'OBJECT', nullable: true, properties: { a: { type: 'ARRAY', items: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] } } }, required: ['a'] })).toEqual({
      type: 'object',
      nullable: true,
      properties: { a: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
      required: ['a'],
    });
  });
});

describe('OpenAI chat answer -> Gemini', () => {
  it('makes one candidate with thought, text and functionCall parts, and usageMetadata', () => {
    const answer = {
      id: 'chatcmpl-1',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            reasoning_content: 'hm',
            content: 'Calling.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
              { id: 'call_2', type: 'function', function: { name: 'g', arguments: 'not json' } },
            ],
          },
        },
      ],
    };
    expect(geminiResponseFromChat(answer, 'gemini-2.5-pro', { promptTokens: 10, completionTokens: 7, reasoningTokens: 3, cachedTokens: 4 })).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text: 'hm', thought: true }, { text: 'Calling.' }, { functionCall: { id: 'call_1', name: 'f', args: { x: 1 } } }, { functionCall: { id: 'call_2', name: 'g', args: {} } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 17, thoughtsTokenCount: 3, cachedContentTokenCount: 4 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'chatcmpl-1',
    });
  });

  it('maps finish reasons and Claude usage (prompt without cache)', () => {
    expect(geminiFinishReason('stop')).toBe('STOP');
    expect(geminiFinishReason('length')).toBe('MAX_TOKENS');
    expect(geminiFinishReason('content_filter')).toBe('SAFETY');
    expect(geminiFinishReason(null)).toBeUndefined();
    expect(geminiUsageMetadata({ promptTokens: 10, completionTokens: 5, cachedTokens: 20, cacheCreationTokens: 3, promptExcludesCache: true })).toEqual({
      promptTokenCount: 33,
      candidatesTokenCount: 5,
      totalTokenCount: 38,
      cachedContentTokenCount: 20,
    });
    const empty = geminiResponseFromChat({ choices: [{ message: { content: '' }, finish_reason: 'length' }] }, 'm', undefined);
    expect(empty.candidates).toEqual([{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 }]);
  });
});

/** The OpenAI provider's pass-through converter, as the relay would wrap it. */
function chatStream() {
  return new GeminiStreamFromChat(openaiProvider.createStream!('chat', target(), { includeUsage: false }), 'gemini-2.5-flash');
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-9',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

describe('OpenAI chat stream -> Gemini chunks', () => {
  it('sends text and thoughts as they come, and finish reason with usage at the end', () => {
    const run = runStream(
      chatStream(),
      events(
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_content: 'think' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop'),
        { id: 'chatcmpl-9', choices: [], usage: { prompt_tokens: 9, completion_tokens: 4 } },
        '[DONE]',
      ),
    );
    expect(run.json).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'think', thought: true }] }, index: 0 }], modelVersion: 'gemini-2.5-flash', responseId: 'chatcmpl-9' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'gemini-2.5-flash', responseId: 'chatcmpl-9' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }], modelVersion: 'gemini-2.5-flash', responseId: 'chatcmpl-9' },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
    ]);
    expect(run.usage).toEqual({ promptTokens: 9, completionTokens: 4 });
  });

  it('gathers tool call pieces into whole functionCall parts in the last chunk', () => {
    const run = runStream(
      chatStream(),
      events(
        chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"file_' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'path":"a.txt"}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ),
      { promptTokens: 5, completionTokens: 2 },
    );
    expect(run.json).toEqual([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { id: 'call_a', name: 'read_file', args: { file_path: 'a.txt' } } }, { functionCall: { id: 'call_b', name: 'ls', args: {} } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-9',
      },
    ]);
  });

  it('passes the inner converter error on', () => {
    const run = runStream(chatStream(), events({ error: { message: 'overloaded', type: 'server_error' } }));
    expect(run.errors).toHaveLength(1);
  });
});

describe('Gemini embeddings <-> OpenAI', () => {
  it('converts one content and a batch, and the vectors back in input order', () => {
    expect(embeddingsRequestFromGemini({ content: { parts: [{ text: 'a' }, { text: 'b' }] }, outputDimensionality: 8 }, 'text-embedding-3-small')).toEqual({
      model: 'text-embedding-3-small',
      input: 'a\nb',
      dimensions: 8,
    });
    expect(embeddingsRequestFromGemini({ requests: [{ content: { parts: [{ text: 'x' }] } }, { content: { parts: [{ text: 'y' }] } }] }, 'm')).toEqual({ model: 'm', input: ['x', 'y'] });
    const openai = {
      data: [
        { index: 1, embedding: [2] },
        { index: 0, embedding: [1] },
      ],
    };
    expect(geminiEmbeddingsFromOpenAI(openai, true)).toEqual({ embeddings: [{ values: [1] }, { values: [2] }] });
    expect(geminiEmbeddingsFromOpenAI({ data: [{ index: 0, embedding: [3] }] }, false)).toEqual({ embedding: { values: [3] } });
  });
});

describe('Gemini token counts', () => {
  it('counts text, turns, media, calls and tools; countTokens takes either body', () => {
    const model = 'gemini-2.0-flash';
    const contents = [{ role: 'user', parts: [{ text: 'hello world' }] }];
    const plain = countGeminiPromptTokens({ contents }, model);
    expect(plain).toBe(3 + 3 + countTokens('hello world', model));
    const withMedia = countGeminiPromptTokens({ contents: [{ parts: [{ text: 'hello world' }, { inlineData: { mimeType: 'image/png', data: 'AA' } }] }] }, model);
    expect(withMedia).toBe(plain + 258);
    const withSystem = countGeminiPromptTokens({ contents, systemInstruction: { parts: [{ text: 'be brief' }] }, tools: [{ functionDeclarations: [{ name: 'f' }] }] }, model);
    expect(withSystem).toBe(plain + countTokens('be brief', model) + 8 + countTokens('f', model));
    expect(countTokensRequestTokens({ generateContentRequest: { model: 'models/x', contents } }, model)).toBe(plain);
    expect(countGeminiEmbeddingTokens({ requests: [{ content: { parts: [{ text: 'a b' }] } }, { content: { parts: [{ text: 'c' }] } }] }, model)).toBe(
      countTokens('a b', model) + countTokens('c', model),
    );
  });
});

describe('JSON-array stream framing', () => {
  it('frames events as one array, and an empty stream as []', () => {
    const framing = new JsonArrayFraming();
    const text = framing.format([{ data: '{"a":1}' }, { data: '{"b":2}' }]) + framing.format([{ data: '{"c":3}' }]) + framing.close();
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(new JsonArrayFraming().close()).toBe('[]');
  });
});

describe('Gemini provider, native modes', () => {
  const gemini = target({ channelType: 24, baseUrl: 'https://generativelanguage.googleapis.com', key: 'gm-key', requestModel: 'gemini-2.0-flash', upstreamModel: 'gemini-2.0-flash' });

  it('sends the client bytes to the action URL with the channel key', () => {
    const raw = new TextEncoder().encode('{"contents":[{"parts":[{"text":"hi"}]}]}');
    const plain = geminiProvider.buildRequest('gemini', { contents: [] }, { ...gemini, rawBody: raw }, false);
    expect(plain).toMatchObject({ url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent', headers: { 'x-goog-api-key': 'gm-key' } });
    expect(plain.body).toBe(raw);
    const streamed = geminiProvider.buildRequest('gemini', { contents: [] }, { ...gemini, rawBody: raw }, true);
    expect(streamed.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
  });

  it('writes a mapped model into batch embedding requests', () => {
    const mapped = { ...gemini, requestModel: 'my-embed', upstreamModel: 'text-embedding-004', rawBody: new Uint8Array() };
    const up = geminiProvider.buildRequest('gemini-embeddings', { requests: [{ model: 'models/my-embed', content: { parts: [{ text: 'x' }] } }] }, mapped, false);
    expect(up.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(JSON.parse(up.body as string)).toEqual({ requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'x' }] } }] });
    const one = geminiProvider.buildRequest('gemini-embeddings', { content: { parts: [{ text: 'x' }] } }, mapped, false);
    expect(one.url).toContain(':embedContent');
  });

  it('reads usage from the answer and passes it on untouched', () => {
    const answer = { candidates: [{ content: { parts: [{ text: 'hi' }] } }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3 } };
    const parsed = geminiProvider.parseResponse('gemini', answer, gemini);
    expect(parsed.body).toBe(answer);
    expect(parsed.usage).toEqual({ promptTokens: 5, completionTokens: 5, reasoningTokens: 3 });
    expect(geminiProvider.parseResponse('gemini', { candidates: [{ content: { parts: [{ text: 'no usage' }] } }] }, gemini)).toMatchObject({ text: 'no usage' });
    expect(geminiProvider.parseResponse('gemini', { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } }, gemini).error).toMatchObject({ message: 'bad' });
  });

  it('streams the events as they are, with the last usage', () => {
    const run = runStream(
      geminiProvider.createStream!('gemini', gemini, { includeUsage: false }),
      events(
        { candidates: [{ content: { parts: [{ text: 'a' }] } }], usageMetadata: { promptTokenCount: 5 } },
        { candidates: [{ content: { parts: [{ text: 'b' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } },
      ),
    );
    expect(run.out.map((e) => e.data)).toEqual([
      JSON.stringify({ candidates: [{ content: { parts: [{ text: 'a' }] } }], usageMetadata: { promptTokenCount: 5 } }),
      JSON.stringify({ candidates: [{ content: { parts: [{ text: 'b' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }),
    ]);
    expect(run.usage).toEqual({ promptTokens: 5, completionTokens: 2 });
    expect(run.text).toBe('ab');
    const broken = runStream(geminiProvider.createStream!('gemini', gemini, { includeUsage: false }), events({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }));
    expect(broken.errors).toHaveLength(1);
  });
});
