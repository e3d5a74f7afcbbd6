import { describe, expect, it } from 'vitest';
import { geminiProvider } from '../../../src/server/relay/providers/gemini';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { events, jsonBody, runStream, target, type TargetOverrides } from './helpers';

const geminiTarget = (model = 'gemini-2.0-flash', extra: TargetOverrides = {}) =>
  target({ channelType: 24, baseUrl: 'https://generativelanguage.googleapis.com', key: 'gm-key', requestModel: model, upstreamModel: model, ...extra });
const SAFETY = [
  { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
];

describe('Gemini requests', () => {
  it('uses the version setting, the action per stream flag and x-goog-api-key', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }] };
    const plain = geminiProvider.buildRequest('chat', body, geminiTarget(), false);
    expect(plain.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(plain.headers).toEqual({ 'x-goog-api-key': 'gm-key', 'content-type': 'application/json' });
    expect(geminiProvider.buildRequest('chat', body, geminiTarget(), true).url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(geminiProvider.buildRequest('chat', body, geminiTarget('gemini-1.0-pro'), false).url).toContain('/v1/models/gemini-1.0-pro:generateContent');
    expect(jsonBody(plain)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], safetySettings: SAFETY });
  });

  it('takes safety thresholds from the option, per category with a default', () => {
    const t = geminiTarget('gemini-2.0-flash', { options: { geminiSafetySettings: { default: 'BLOCK_ONLY_HIGH', HARM_CATEGORY_HATE_SPEECH: 'BLOCK_NONE' } } });
    const sent = jsonBody(geminiProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'x' }] }, t, false));
    expect(sent.safetySettings).toEqual(SAFETY.map((s) => ({ category: s.category, threshold: s.category === 'HARM_CATEGORY_HATE_SPEECH' ? 'BLOCK_NONE' : 'BLOCK_ONLY_HIGH' })));
  });

  it('converts system, roles, images, tool calls and tool results', () => {
    const body = {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: [{ type: 'text', text: 'Be kind.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'text', text: '' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
            { type: 'image_url', image_url: { url: 'https://x.example/a.png' } },
          ],
        },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'call_9', content: '{"temp":3}' },
        { role: 'tool', tool_call_id: 'call_9', name: 'weather', content: 'plain text' },
        { role: 'assistant', content: 'Cold.' },
      ],
      temperature: 0.2,
      top_p: 0.8,
      max_tokens: 300,
      seed: 7,
      stop: 'END',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'object', title: 'T', additionalProperties: false, properties: { a: { type: ['string', 'null'], format: 'email', default: 'x' } } } },
      },
    };
    expect(jsonBody(geminiProvider.buildRequest('chat', body, geminiTarget(), false))).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Look' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } }, { fileData: { mimeType: 'image/png', fileUri: 'https://x.example/a.png' } }] },
        { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Oslo' } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { name: 'weather', content: { temp: 3 } } } },
            { functionResponse: { name: 'weather', response: { name: 'weather', content: 'plain text' } } },
          ],
        },
        { role: 'model', parts: [{ text: 'Cold.' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.\nBe kind.' }] },
      safetySettings: SAFETY,
      generationConfig: {
        temperature: 0.2,
        topP: 0.8,
        maxOutputTokens: 300,
        seed: 7,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
        responseSchema: { type: 'object', properties: { a: { type: 'string', nullable: true } } },
      },
    });
  });

  it('declares tools with cleaned schemas and maps built-in tools and tool_choice', () => {
    const body = {
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        { type: 'function', function: { name: 'googleSearch' } },
        { type: 'function', function: { name: 'codeExecution' } },
        { type: 'function', function: { name: 'now', description: 'Time', parameters: { type: 'object', properties: {} } } },
        {
          type: 'function',
          function: {
            name: 'find',
            parameters: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              additionalProperties: false,
              required: ['q'],
              properties: {
                q: { type: 'string', format: 'uri', default: 'a' },
                when: { type: 'string', format: 'date-time' },
                n: { type: 'integer', exclusiveMinimum: 0, maximum: 5 },
                tags: { type: 'array', items: { type: 'string', format: 'hostname' } },
                either: { oneOf: [{ type: 'string' }, { type: 'number', exclusiveMaximum: 3 }] },
              },
            },
          },
        },
      ],
      tool_choice: 'required',
    };
    const sent = jsonBody(geminiProvider.buildRequest('chat', body, geminiTarget(), false));
    expect(sent.tools).toEqual([
      { googleSearch: {} },
      { codeExecution: {} },
      {
        functionDeclarations: [
          { name: 'now', description: 'Time' },
          {
            name: 'find',
            parameters: {
              type: 'object',
              required: ['q'],
              properties: {
                q: { type: 'string' },
                when: { type: 'string', format: 'date-time' },
                n: { type: 'integer', maximum: 5 },
                tags: { type: 'array', items: { type: 'string' } },
                either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
              },
            },
          },
        ],
      },
    ]);
    expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });

  it('refuses what Gemini cannot take, in the reference words', () => {
    const images = (n: number) => ({ messages: [{ role: 'user', content: Array.from({ length: n }, () => ({ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } })) }] });
    expect(() => geminiProvider.buildRequest('chat', images(17), geminiTarget(), false)).toThrow('too many images in the message, max allowed is 16');
    expect(() => geminiProvider.buildRequest('chat', images(3), geminiTarget('gemini-2.0-flash', { options: { geminiMaxImagesPerMessage: 2 } }), false)).toThrow('max allowed is 2');
    expect(() => geminiProvider.buildRequest('chat', images(40), geminiTarget('gemini-2.0-flash', { options: { geminiMaxImagesPerMessage: -1 } }), false)).not.toThrow();
    const file = { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'f' } }] }] };
    expect(() => geminiProvider.buildRequest('chat', file, geminiTarget(), false)).toThrow('only base64 file is supported in gemini');
    const badArgs = { messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c', function: { name: 'f', arguments: 'nope' } }] }] };
    expect(() => geminiProvider.buildRequest('chat', badArgs, geminiTarget(), false)).toThrow(ProviderRequestError);
    expect(() => geminiProvider.buildRequest('chat', badArgs, geminiTarget(), false)).toThrow('invalid arguments for function f');
  });

  it('sends embeddings one at a time or as a batch, and Imagen prompts to :predict', () => {
    const t = geminiTarget('text-embedding-004');
    const one = geminiProvider.buildRequest('embeddings', { input: 'hello', dimensions: 256 }, t, false);
    expect(one.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004:embedContent');
    expect(jsonBody(one)).toEqual({ model: 'models/text-embedding-004', content: { parts: [{ text: 'hello' }] }, outputDimensionality: 256 });
    const many = geminiProvider.buildRequest('embeddings', { input: ['a', 'b'] }, t, false);
    expect(many.url).toMatch(/:batchEmbedContents$/);
    expect(jsonBody(many)).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } },
      ],
    });
    expect(() => geminiProvider.buildRequest('embeddings', { input: [1, 2] }, t, false)).toThrow(ProviderRequestError);
    const image = geminiProvider.buildRequest('images', { prompt: 'a cat', n: 2, size: '1792x1024' }, geminiTarget('imagen-3.0-generate-002'), false);
    expect(image.url).toMatch(/imagen-3\.0-generate-002:predict$/);
    expect(jsonBody(image)).toEqual({ instances: [{ prompt: 'a cat' }], parameters: { sampleCount: 2, aspectRatio: '16:9', personGeneration: 'allow_adult' } });
    expect(() => geminiProvider.buildRequest('images', { prompt: 'x' }, geminiTarget(), false)).toThrow(/not an Imagen model/);
  });
});

describe('Gemini answers', () => {
  it('converts text, thoughts, code, function calls, finish reasons and usage with thinking and cache', () => {
    const answer = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Plan', thought: true },
              { text: 'Hello' },
              { text: '\n' },
              { executableCode: { language: 'PYTHON', code: 'print(1)' } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7, cachedContentTokenCount: 4, totalTokenCount: 22 },
    };
    const parsed = geminiProvider.parseResponse('chat', answer, geminiTarget());
    expect(parsed.usage).toEqual({ promptTokens: 10, completionTokens: 12, reasoningTokens: 7, cachedTokens: 4 });
    expect(parsed.body).toMatchObject({
      object: 'chat.completion',
      model: 'gemini-2.0-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello\n```python\nprint(1)\n```\n```output\n1\n```', reasoning_content: 'Plan' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 7 } },
    });
    expect((parsed.body as { id: string }).id).toMatch(/^chatcmpl-/);
  });

  it('turns function calls into tool_calls and maps other finish reasons', () => {
    const call = { candidates: [{ content: { parts: [{ functionCall: { name: 'weather', args: { city: 'Oslo' } } }] }, finishReason: 'STOP' }] };
    const body = geminiProvider.parseResponse('chat', call, geminiTarget()).body as { choices: { message: { tool_calls: { id: string; function: unknown }[] }; finish_reason: string }[] };
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls[0].id).toMatch(/^call_/);
    expect(body.choices[0].message.tool_calls[0].function).toEqual({ name: 'weather', arguments: '{"city":"Oslo"}' });
    const finish = (finishReason: string) =>
      (geminiProvider.parseResponse('chat', { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason }] }, geminiTarget()).body as { choices: { finish_reason: string }[] }).choices[0]
        .finish_reason;
    expect([finish('MAX_TOKENS'), finish('SAFETY'), finish('RECITATION')]).toEqual(['length', 'content_filter', 'content_filter']);
  });

  it('fails on an answer without candidates and counts text when usage is missing', () => {
    expect(geminiProvider.parseResponse('chat', { promptFeedback: { blockReason: 'SAFETY' } }, geminiTarget()).error).toEqual({
      status: 500,
      message: 'No candidates returned',
      type: 'server_error',
      code: null,
    });
    const parsed = geminiProvider.parseResponse('chat', { candidates: [{ content: { parts: [{ text: 'abc' }] }, finishReason: 'STOP' }] }, geminiTarget());
    expect(parsed.usage).toBeUndefined();
    expect(parsed.text).toBe('abc');
  });

  it('converts embeddings and Imagen answers', () => {
    expect(geminiProvider.parseResponse('embeddings', { embedding: { values: [1, 2] } }, geminiTarget('text-embedding-004'))).toEqual({
      body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1, 2] }], model: 'text-embedding-004' },
    });
    expect((geminiProvider.parseResponse('embeddings', { embeddings: [{ values: [1] }, { values: [2] }] }, geminiTarget('text-embedding-004')).body as { data: unknown[] }).data).toHaveLength(2);
    const images = geminiProvider.parseResponse(
      'images',
      { predictions: [{ bytesBase64Encoded: 'AAA', mimeType: 'image/png' }, { raiFilteredReason: 'blocked' }] },
      geminiTarget('imagen-3.0-generate-002'),
    );
    expect((images.body as { data: unknown[] }).data).toEqual([{ b64_json: 'AAA' }]);
    expect(images.usage).toEqual({ promptTokens: 258, completionTokens: 0 });
  });
});

describe('Gemini streams as OpenAI chunks', () => {
  /** Recorded from streamGenerateContent?alt=sse: usage grows, the last event says STOP. */
  const recorded = events(
    { candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } },
    { candidates: [{ content: { parts: [{ text: 'lo' }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } },
    {
      candidates: [{ content: { parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: { x: 1 } } }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 6, totalTokenCount: 14 },
    },
  );

  it('emits one chunk per event with a running tool index and the last usage', () => {
    const run = runStream(geminiProvider.createStream!('chat', geminiTarget(), { includeUsage: true }), recorded);
    const choices = run.json.map((c) => (c as { choices: { delta: { tool_calls?: { index: number; function: unknown }[] } & Record<string, unknown>; finish_reason: string | null }[] }).choices);
    expect(choices[0][0].delta).toEqual({ role: 'assistant', content: 'Hel' });
    expect(choices[1][0].delta).toEqual({ content: 'lo' });
    expect(choices[2][0].finish_reason).toBe('tool_calls');
    expect(choices[2][0].delta.tool_calls!.map((t) => [t.index, t.function])).toEqual([
      [0, { name: 'a', arguments: '{}' }],
      [1, { name: 'b', arguments: '{"x":1}' }],
    ]);
    expect(run.json.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 8, completion_tokens: 6, total_tokens: 14 } });
    expect(new Set(run.json.map((c) => (c as { id: string }).id)).size).toBe(1);
    expect(run.usage).toEqual({ promptTokens: 8, completionTokens: 6 });
    expect(run.text).toBe('Helloa{}b{"x":1}');
  });

  it('splits a STOP finish into its own chunk after the content', () => {
    const run = runStream(geminiProvider.createStream!('chat', geminiTarget(), { includeUsage: false }), events({ candidates: [{ content: { parts: [{ text: 'Bye' }] }, finishReason: 'STOP' }] }));
    expect(run.json.map((c) => (c as { choices: { delta: unknown; finish_reason: unknown }[] }).choices[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: 'Bye' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
    ]);
  });

  it('bills the local count when Gemini sends no usage (Ours), and reports stream errors', () => {
    const run = runStream(geminiProvider.createStream!('chat', geminiTarget(), { includeUsage: false }), events({ candidates: [{ content: { parts: [{ text: 'x' }] } }] }), {
      promptTokens: 4,
      completionTokens: 1,
    });
    expect(run.usage).toEqual({ promptTokens: 4, completionTokens: 1 });
    const failed = runStream(geminiProvider.createStream!('chat', geminiTarget(), { includeUsage: false }), events({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }));
    expect(failed.errors).toEqual([{ status: 500, message: 'overloaded', type: 'UNAVAILABLE', code: 503 }]);
  });

  it('lists models with the Gemini key header', () => {
    expect(geminiProvider.modelsRequest!(geminiTarget())).toEqual({
      url: 'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000',
      method: 'GET',
      headers: { 'x-goog-api-key': 'gm-key' },
    });
  });
});
