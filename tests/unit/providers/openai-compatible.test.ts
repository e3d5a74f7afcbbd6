import { describe, expect, it } from 'vitest';
import { azureProvider } from '../../../src/server/relay/providers/azure';
import { ollamaProvider } from '../../../src/server/relay/providers/ollama';
import { openaiProvider } from '../../../src/server/relay/providers/openai';
import {
  aliProvider,
  cloudflareProvider,
  customProvider,
  deepseekProvider,
  openaiCompatibleProvider,
  perplexityProvider,
  volcengineProvider,
  xaiProvider,
} from '../../../src/server/relay/providers/openai-compatible/families';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { jsonBody, target } from './helpers';

const chat = { model: 'ignored', messages: [{ role: 'user', content: 'hi' }] };

describe('OpenAI request adjustments', () => {
  it('sends the upstream model, only the fields OpenAI defines, and authenticates with Bearer', () => {
    const req = openaiProvider.buildRequest(
      'chat',
      { ...chat, temperature: 0, top_p: 0, n: 0, max_tokens: 0, custom_field: { a: [1] }, metadata: { x: 'y' } },
      target({ upstreamModel: 'gpt-4o' }),
      false,
    );
    expect(req.url).toBe('https://api.example.com/v1/chat/completions');
    expect(req.headers.Authorization).toBe('Bearer sk-test');
    expect(req.headers['Content-Type']).toBe('application/json');
    // Zeros the reference keeps (pointer fields) stay; max_tokens 0 and the unknown field go.
    expect(jsonBody(req)).toEqual({ model: 'gpt-4o', messages: chat.messages, temperature: 0, top_p: 0, n: 0, metadata: { x: 'y' } });
    expect(req.model).toBe('gpt-4o');
    expect(req.reasoningEffort).toBeUndefined();
  });

  it('never mutates the client body (retries resend it)', () => {
    const body = { ...chat, max_tokens: 10, stream: true, stream_options: { include_usage: false } };
    const copy = structuredClone(body);
    openaiProvider.buildRequest('chat', body, target({ upstreamModel: 'o3-mini-high' }), true);
    expect(body).toEqual(copy);
  });

  it('applies the o-series rules: effort suffix, max_completion_tokens, no temperature, developer role', () => {
    const body = { ...chat, messages: [{ role: 'system', content: 's' }, ...chat.messages], max_tokens: 100, temperature: 0.2 };
    const req = openaiProvider.buildRequest('chat', body, target({ requestModel: 'o3-mini-high', upstreamModel: 'o3-mini-high' }), false);
    const sent = jsonBody(req);
    expect(sent).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high', max_completion_tokens: 100 });
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent).not.toHaveProperty('temperature');
    expect((sent.messages as { role: string }[]).map((m) => m.role)).toEqual(['developer', 'user']);
    expect(req.model).toBe('o3-mini');
    expect(req.reasoningEffort).toBe('high');
  });

  it('keeps system for o1-mini, keeps an explicit max_completion_tokens, and leaves non-reasoning suffixes alone', () => {
    const o1mini = jsonBody(
      openaiProvider.buildRequest('chat', { ...chat, messages: [{ role: 'system', content: 's' }], max_tokens: 5, max_completion_tokens: 9 }, target({ upstreamModel: 'o1-mini-low' }), false),
    );
    expect(o1mini).toMatchObject({ model: 'o1-mini', reasoning_effort: 'low', max_completion_tokens: 9, messages: [{ role: 'system', content: 's' }] });
    const plain = openaiProvider.buildRequest('chat', { ...chat, max_tokens: 5 }, target({ upstreamModel: 'gpt-4o-high' }), false);
    expect(jsonBody(plain)).toMatchObject({ model: 'gpt-4o-high', max_tokens: 5 });
    expect(plain.reasoningEffort).toBeUndefined();
  });

  it('treats xAI grok-3-mini as a reasoning model but keeps its temperature', () => {
    const sent = jsonBody(xaiProvider.buildRequest('chat', { ...chat, max_tokens: 7, temperature: 0.5 }, target({ channelType: 48, upstreamModel: 'grok-3-mini-beta-high' }), false));
    expect(sent).toMatchObject({ model: 'grok-3-mini-beta', reasoning_effort: 'high', max_completion_tokens: 7, temperature: 0.5 });
  });

  it('forces include_usage upstream for types that support it, strips stream_options elsewhere and when not streaming', () => {
    const body = { ...chat, stream: true, stream_options: { include_usage: false } };
    expect(jsonBody(openaiProvider.buildRequest('chat', body, target(), true)).stream_options).toEqual({ include_usage: true });
    expect(jsonBody(openaiProvider.buildRequest('chat', body, target({ options: { forceStreamUsage: false } }), true)).stream_options).toEqual({ include_usage: false });
    expect(jsonBody(openaiCompatibleProvider.buildRequest('chat', body, target({ channelType: 25 }), true))).not.toHaveProperty('stream_options');
    expect(jsonBody(openaiProvider.buildRequest('chat', { ...body, stream: false }, target(), false))).not.toHaveProperty('stream_options');
    const streaming = openaiProvider.buildRequest('chat', body, target(), true);
    expect(streaming.headers.Accept).toBe('text/event-stream');
    // The pipeline's stream flag wins over the body's.
    expect(jsonBody(openaiProvider.buildRequest('chat', { ...chat, stream: true }, target(), false)).stream).toBeUndefined();
    expect(jsonBody(openaiProvider.buildRequest('chat', chat, target(), true)).stream).toBe(true);
  });

  it('adds the OpenAI organization and OpenRouter title headers', () => {
    expect(openaiProvider.buildRequest('chat', chat, target({ organization: 'org-1' }), false).headers['OpenAI-Organization']).toBe('org-1');
    expect(openaiProvider.buildRequest('chat', chat, target(), false).headers).not.toHaveProperty('OpenAI-Organization');
    expect(openaiCompatibleProvider.buildRequest('chat', chat, target({ channelType: 20 }), false).headers['X-Title']).toBe('Switchyard');
  });

  it('routes every mode to its OpenAI path and drops /v1 behind a Cloudflare AI Gateway', () => {
    const paths = {
      completions: '/v1/completions',
      embeddings: '/v1/embeddings',
      images: '/v1/images/generations',
      speech: '/v1/audio/speech',
      moderations: '/v1/moderations',
      rerank: '/v1/rerank',
    } as const;
    for (const [mode, path] of Object.entries(paths)) {
      expect(openaiProvider.buildRequest(mode as keyof typeof paths, { model: 'm', input: 'x', prompt: 'p' }, target(), false).url).toBe(`https://api.example.com${path}`);
    }
    const gateway = target({ baseUrl: 'https://gateway.ai.cloudflare.com/v1/acct/gw/openai' });
    expect(openaiProvider.buildRequest('chat', chat, gateway, false).url).toBe('https://gateway.ai.cloudflare.com/v1/acct/gw/openai/chat/completions');
  });

  it('builds a multipart form for transcriptions with the upstream model and every field', async () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'a.mp3', { type: 'audio/mpeg' });
    const req = openaiProvider.buildRequest(
      'transcriptions',
      { model: 'whisper-alias', file, language: 'en', 'timestamp_granularities[]': ['word', 'segment'] },
      target({ upstreamModel: 'whisper-1' }),
      false,
    );
    expect(req.body).toBeInstanceOf(FormData);
    expect(req.headers).not.toHaveProperty('Content-Type');
    const form = req.body as FormData;
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('language')).toBe('en');
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
    expect((await (form.get('file') as File).arrayBuffer()).byteLength).toBe(3);
    expect((form.get('file') as File).name).toBe('a.mp3');
    expect(() => openaiProvider.buildRequest('transcriptions', { model: 'whisper-1' }, target(), false)).toThrow(ProviderRequestError);
  });
});

describe('OpenAI-shaped families', () => {
  it('Azure: deployment without dots, api-version from query, other, then default; api-key header', () => {
    const t = target({ channelType: 3, baseUrl: 'https://res.openai.azure.com', upstreamModel: 'gpt-3.5-turbo', other: '2024-06-01' });
    const req = azureProvider.buildRequest('chat', chat, t, false);
    expect(req.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01');
    expect(req.headers).toEqual({ 'api-key': 'sk-test', 'Content-Type': 'application/json' });
    expect(azureProvider.buildRequest('embeddings', { input: 'x' }, { ...t, clientQuery: { 'api-version': '2025-01-01' } }, false).url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-35-turbo/embeddings?api-version=2025-01-01',
    );
    expect(azureProvider.buildRequest('speech', { input: 'x' }, { ...t, other: '' }, false).url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-35-turbo/audio/speech?api-version=2024-12-01-preview',
    );
    expect(azureProvider.modes.has('rerank')).toBe(false);
  });

  it('custom: the base URL is the whole URL with {model} filled in', () => {
    const t = target({ channelType: 8, baseUrl: 'https://proxy.example/x/{model}/chat?k=1', upstreamModel: 'o1-low' });
    const req = customProvider.buildRequest('chat', chat, t, false);
    expect(req.url).toBe('https://proxy.example/x/o1/chat?k=1');
    expect(jsonBody(req).reasoning_effort).toBe('low');
    expect(() => customProvider.buildRequest('chat', chat, { ...t, baseUrl: '' }, false)).toThrow(ProviderRequestError);
    expect(customProvider.modelsRequest).toBeUndefined();
  });

  it('DeepSeek: completions under /beta, cache hits as cached tokens, reasoning counted as text', () => {
    const t = target({ channelType: 43, baseUrl: 'https://api.deepseek.com', upstreamModel: 'deepseek-reasoner' });
    expect(deepseekProvider.buildRequest('completions', { prompt: 'x' }, t, false).url).toBe('https://api.deepseek.com/beta/completions');
    expect(deepseekProvider.buildRequest('chat', chat, t, false).url).toBe('https://api.deepseek.com/v1/chat/completions');
    const parsed = deepseekProvider.parseResponse(
      'chat',
      {
        choices: [],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_cache_hit_tokens: 60, prompt_cache_miss_tokens: 40, completion_tokens_details: { reasoning_tokens: 15 } },
      },
      t,
    );
    expect(parsed.usage).toEqual({ promptTokens: 100, completionTokens: 20, cachedTokens: 60, reasoningTokens: 15 });
    const noUsage = deepseekProvider.parseResponse('chat', { choices: [{ message: { content: 'answer', reasoning_content: 'think' } }] }, t);
    expect(noUsage.usage).toBeUndefined();
    expect(noUsage.text).toBe('answerthink');
  });

  it('Ollama: chat via the OpenAI-compatible path, embeddings via /api/embed both ways', () => {
    const t = target({ channelType: 4, baseUrl: 'http://localhost:11434', upstreamModel: 'nomic-embed-text' });
    expect(ollamaProvider.buildRequest('chat', chat, t, false).url).toBe('http://localhost:11434/v1/chat/completions');
    const req = ollamaProvider.buildRequest('embeddings', { model: 'x', input: ['a', 'b'], dimensions: 8, encoding_format: 'float' }, t, false);
    expect(req.url).toBe('http://localhost:11434/api/embed');
    expect(jsonBody(req)).toEqual({ model: 'nomic-embed-text', input: ['a', 'b'], dimensions: 8 });
    const parsed = ollamaProvider.parseResponse(
      'embeddings',
      {
        model: 'nomic-embed-text',
        embeddings: [
          [0.1, 0.2],
          [0.3, 0.4],
        ],
        prompt_eval_count: 4,
      },
      t,
    );
    expect(parsed.body).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
      ],
      model: 'nomic-embed-text',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    expect(parsed.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
    expect(ollamaProvider.parseResponse('embeddings', { error: 'model not found' }, t).error?.message).toBe('model not found');
  });

  it('Perplexity and Ali clamp top_p; Ali sends its plugin header and compatible-mode paths', () => {
    expect(jsonBody(perplexityProvider.buildRequest('chat', { ...chat, top_p: 1 }, target({ baseUrl: 'https://api.perplexity.ai' }), false)).top_p).toBe(0.99);
    expect(perplexityProvider.buildRequest('chat', chat, target({ baseUrl: 'https://api.perplexity.ai' }), false).url).toBe('https://api.perplexity.ai/chat/completions');
    const ali = aliProvider.buildRequest('chat', { ...chat, top_p: 0 }, target({ channelType: 17, baseUrl: 'https://dashscope.aliyuncs.com', other: 'pdf_extracter' }), false);
    expect(ali.url).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions');
    expect(ali.headers['X-DashScope-Plugin']).toBe('pdf_extracter');
    expect(jsonBody(ali).top_p).toBe(0.001);
  });

  it('VolcEngine bots and Cloudflare accounts get their own URLs', () => {
    const volc = target({ channelType: 45, baseUrl: 'https://ark.cn-beijing.volces.com' });
    expect(volcengineProvider.buildRequest('chat', chat, { ...volc, upstreamModel: 'bot-2025' }, false).url).toBe('https://ark.cn-beijing.volces.com/api/v3/bots/chat/completions');
    expect(volcengineProvider.buildRequest('chat', chat, { ...volc, upstreamModel: 'doubao-pro' }, false).url).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions');
    expect(volcengineProvider.buildRequest('embeddings', { input: 'x' }, volc, false).url).toBe('https://ark.cn-beijing.volces.com/api/v3/embeddings');
    const cf = target({ channelType: 39, baseUrl: 'https://api.cloudflare.com', other: 'acc123' });
    expect(cloudflareProvider.buildRequest('chat', chat, cf, false).url).toBe('https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/chat/completions');
    expect(() => cloudflareProvider.buildRequest('chat', chat, { ...cf, other: '' }, false)).toThrow(/account id/);
  });

  it('refuses modes a family does not serve with a clear error', () => {
    expect(perplexityProvider.modes.has('embeddings')).toBe(false);
    expect(() => perplexityProvider.buildRequest('embeddings', { input: 'x' }, target(), false)).toThrow(/not supported/);
  });
});

describe('OpenAI-shaped answers', () => {
  it('forwards the body and reads usage, including audio and reasoning details', () => {
    const body = {
      id: 'x',
      choices: [{ message: { content: 'hi' } }],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 4, audio_tokens: 2 },
        completion_tokens_details: { reasoning_tokens: 3, audio_tokens: 1 },
      },
    };
    const parsed = openaiProvider.parseResponse('chat', body, target());
    expect(parsed.body).toBe(body);
    expect(parsed.usage).toEqual({ promptTokens: 10, completionTokens: 5, cachedTokens: 4, reasoningTokens: 3, audioPromptTokens: 2, audioCompletionTokens: 1 });
    expect(parsed.text).toBeUndefined();
  });

  it('gives the answer text (content, reasoning, tool calls, completions text) when usage is missing or zero', () => {
    const chatAnswer = {
      choices: [{ message: { content: 'a', reasoning: 'b', tool_calls: [{ function: { name: 'f', arguments: '{"x":1}' } }] } }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
    expect(openaiProvider.parseResponse('chat', chatAnswer, target()).text).toBe('abf{"x":1}');
    expect(openaiProvider.parseResponse('completions', { choices: [{ text: 'one' }, { text: 'two' }] }, target()).text).toBe('onetwo');
  });

  it('treats a 200 body with an error object as a failure', () => {
    const parsed = openaiProvider.parseResponse('chat', { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } }, target());
    expect(parsed.error).toEqual({ status: 500, message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' });
  });

  it('reads rerank, embeddings and image usage in their shapes; xAI completion = total − prompt', () => {
    expect(openaiCompatibleProvider.parseResponse('rerank', { results: [], usage: { total_tokens: 30 } }, target()).usage).toEqual({ promptTokens: 30, completionTokens: 0 });
    expect(openaiCompatibleProvider.parseResponse('rerank', { results: [], meta: { tokens: { input_tokens: 12, output_tokens: 0 } } }, target()).usage).toEqual({
      promptTokens: 12,
      completionTokens: 0,
    });
    expect(openaiProvider.parseResponse('embeddings', { data: [], usage: { prompt_tokens: 8, total_tokens: 8 } }, target()).usage).toEqual({ promptTokens: 8, completionTokens: 0 });
    expect(openaiProvider.parseResponse('images', { data: [], usage: { input_tokens: 50, output_tokens: 4000, input_tokens_details: { text_tokens: 50 } } }, target()).usage).toEqual({
      promptTokens: 50,
      completionTokens: 4000,
    });
    expect(
      xaiProvider.parseResponse('chat', { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 40, completion_tokens_details: { reasoning_tokens: 25 } } }, target()).usage,
    ).toMatchObject({ promptTokens: 10, completionTokens: 30, reasoningTokens: 25 });
  });

  it('passes transcription text answers through', () => {
    expect(openaiProvider.parseResponse('transcriptions', 'plain text', target())).toEqual({ body: 'plain text' });
  });
});

describe('upstream error normalisation', () => {
  it('keeps an upstream error object (OpenAI, Claude, Gemini shapes)', () => {
    expect(openaiProvider.parseError(401, '{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}}')).toEqual({
      status: 401,
      message: 'Incorrect API key',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
    expect(openaiProvider.parseError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toEqual({
      status: 529,
      message: 'Overloaded',
      type: 'overloaded_error',
      code: null,
    });
    expect(openaiProvider.parseError(400, '{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}')).toEqual({
      status: 400,
      message: 'API key not valid',
      type: 'INVALID_ARGUMENT',
      code: 400,
    });
  });

  it('finds loose messages, else a generic one', () => {
    const generic = { type: 'upstream_error', code: 'bad_response_status_code' };
    expect(openaiProvider.parseError(500, '{"msg":"busy"}')).toEqual({ status: 500, message: 'busy', ...generic });
    expect(openaiProvider.parseError(500, '{"header":{"message":"hdr"}}')).toEqual({ status: 500, message: 'hdr', ...generic });
    expect(openaiProvider.parseError(500, '{"response":{"error":{"message":"deep"}}}')).toEqual({ status: 500, message: 'deep', ...generic });
    expect(openaiProvider.parseError(404, '{"error":"model not found"}')).toEqual({ status: 404, message: 'model not found', ...generic });
    expect(openaiProvider.parseError(502, '<html>Bad gateway</html>')).toEqual({ status: 502, message: 'bad response status code 502', ...generic });
  });
});
