/**
 * A fake Gemini API (generativelanguage.googleapis.com) on 127.0.0.1 speaking the real wire
 * format: `POST /{version}/models/{model}:generateContent`, `:streamGenerateContent` (SSE with
 * `?alt=sse`, else a JSON array), `:embedContent`, `:batchEmbedContents`, `:predict` (Imagen),
 * and `GET /{version}/models`. Auth by `x-goog-api-key` (or `?key=`); errors use Google's
 * `{error:{code, message, status}}`; answers carry usageMetadata (thinking and cached counts
 * too) and functionCall parts.
 *
 * Scripting: `fake.script({text, reasoning, toolCalls, usage, error, delayMs, resetAfter, ...})`
 * queues the next reply (see script.ts); `fake.defaultReply` answers the rest.
 */
import type { ServerResponse } from 'node:http';
import { firstByteDelay, type RecordedRequest, sendJson, sendText, startFakeHttpServer, scriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

export interface FakeGemini {
  url: string;
  keys: Set<string>;
  models: string[];
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  defaultReply: ScriptedReply;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiError(res: ServerResponse, code: number, message: string, status = STATUS_NAMES[code] ?? 'UNKNOWN'): void {
  sendJson(res, code, { error: { code, message, status } });
}

function usageMetadata(reply: ScriptedReply, outputPieces: number): Record<string, number> {
  const u = reply.usage ?? {};
  const prompt = u.prompt ?? DEFAULT_PROMPT_TOKENS;
  const candidates = u.completion ?? Math.max(1, outputPieces);
  const meta: Record<string, number> = { promptTokenCount: prompt, candidatesTokenCount: candidates };
  if (u.reasoning) meta.thoughtsTokenCount = u.reasoning;
  if (u.cacheRead) meta.cachedContentTokenCount = u.cacheRead;
  meta.totalTokenCount = prompt + candidates + (u.reasoning ?? 0);
  return meta;
}

function candidate(parts: Record<string, unknown>[], finishReason?: string): Record<string, unknown> {
  return { content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 };
}

/**
 * Sends a generateContent answer (streamGenerateContent when `stream`: SSE with `?alt=sse`,
 * else one JSON array); also the Vertex fake's for Gemini models.
 */
export async function answerGenerateContent(request: RecordedRequest, res: ServerResponse, reply: ScriptedReply, model: string, stream: boolean): Promise<void> {
  const textPieces = pieces(reply.text ?? (reply.toolCalls ? '' : DEFAULT_TEXT));
  const thoughtPieces = reply.reasoning ? pieces(reply.reasoning) : [];
  const calls = (reply.toolCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.arguments } }));
  const finish = reply.finishReason ?? 'STOP';
  const usage = usageMetadata(reply, textPieces.length + calls.length);
  const envelope = (parts: Record<string, unknown>[], last: boolean) => ({
    candidates: [candidate(parts, last ? finish : undefined)],
    ...(reply.noUsage ? {} : { usageMetadata: last ? usage : { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount } }),
    modelVersion: model,
    responseId: 'resp-fake',
  });
  if (!stream) {
    const parts = [...(reply.reasoning ? [{ text: reply.reasoning, thought: true }] : []), ...(textPieces.length ? [{ text: textPieces.join('') }] : []), ...calls];
    return sendJson(res, 200, reply.body ?? envelope(parts, true));
  }
  const partsList = [...thoughtPieces.map((t) => [{ text: t, thought: true }]), ...textPieces.map((t) => [{ text: t }]), ...(calls.length ? [calls] : [])];
  if (partsList.length === 0) partsList.push([{ text: '' }]);
  const events: SseOut[] = reply.events ?? partsList.map((parts, i) => ({ data: envelope(parts, i === partsList.length - 1) }));
  if (request.query.get('alt') !== 'sse') {
    // Without alt=sse Gemini streams one JSON array.
    return sendJson(
      res,
      200,
      events.map((e) => e.data),
    );
  }
  const errorEvent: SseOut = { data: { error: { code: 503, message: reply.error?.message ?? 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } } };
  await writeSse(res, events, reply, { errorEvent, lineEnd: '\r\n' });
}

export async function startFakeGemini(options: { keys?: string[]; models?: string[] } = {}): Promise<FakeGemini> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((request, res) => geminiError(res, 404, `Method not found: ${request.method} ${request.path}`));

  const fake: FakeGemini = scriptedFake(server, queue, {
    keys: new Set(options.keys ?? ['gm-fake-good']),
    models: options.models ?? ['gemini-2.0-flash', 'gemini-2.5-pro-exp-03-25', 'text-embedding-004', 'imagen-3.0-generate-002'],
  });

  function admitted(request: RecordedRequest, res: ServerResponse): boolean {
    const key = request.headers['x-goog-api-key'] ?? request.query.get('key') ?? undefined;
    if (typeof key !== 'string' || key === '') {
      geminiError(res, 403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
      return false;
    }
    if (!fake.keys.has(key)) {
      geminiError(res, 400, 'API key not valid. Please pass a valid API key.');
      return false;
    }
    return true;
  }

  /** Auth, model and scripted failures; the reply when the request may be answered. */
  async function begin(request: RecordedRequest, res: ServerResponse, model: string, version: string, action: string): Promise<ScriptedReply | undefined> {
    if (!admitted(request, res)) return undefined;
    if (!fake.models.includes(model)) {
      geminiError(
        res,
        404,
        `models/${model} is not found for API version ${version}, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.`,
      );
      return undefined;
    }
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.rawError) {
      sendText(res, reply.rawError.status, reply.rawError.body, 'text/html');
      return undefined;
    }
    if (reply.error) {
      geminiError(res, reply.error.status, reply.error.message, typeof reply.error.type === 'string' ? reply.error.type : undefined);
      return undefined;
    }
    return reply;
  }

  server.route('POST', /\/(v1|v1beta)\/models\/([^/:]+):(generateContent|streamGenerateContent)/, async (request, res) => {
    const [version, model, action] = request.params;
    const body = (request.json ?? {}) as Record<string, unknown>;
    if (!Array.isArray(body.contents) || body.contents.length === 0) return geminiError(res, 400, '* GenerateContentRequest.contents: contents is not specified');
    const reply = await begin(request, res, model, version, action);
    if (!reply) return;
    await answerGenerateContent(request, res, reply, model, action === 'streamGenerateContent');
  });

  /** A deterministic 4-dimensional vector per text, so tests can tell inputs apart. */
  const vector = (text: string) => [text.length, text.split(/\s+/).length, text.charCodeAt(0) || 0, 0.5];

  server.route('POST', /\/(v1|v1beta)\/models\/([^/:]+):embedContent/, async (request, res) => {
    const [version, model] = request.params;
    const reply = await begin(request, res, model, version, 'embedContent');
    if (!reply) return;
    const body = (request.json ?? {}) as { content?: { parts?: { text?: string }[] } };
    const text = body.content?.parts?.map((p) => p.text ?? '').join('') ?? '';
    if (!text) return geminiError(res, 400, '* EmbedContentRequest.content: contents is not specified');
    sendJson(res, 200, reply.body ?? { embedding: { values: vector(text) } });
  });

  server.route('POST', /\/(v1|v1beta)\/models\/([^/:]+):batchEmbedContents/, async (request, res) => {
    const [version, model] = request.params;
    const reply = await begin(request, res, model, version, 'batchEmbedContents');
    if (!reply) return;
    const body = (request.json ?? {}) as { requests?: { model?: string; content?: { parts?: { text?: string }[] } }[] };
    const requests = body.requests ?? [];
    if (requests.some((r) => r.model !== `models/${model}`)) {
      return geminiError(res, 400, `Model in the request does not match the model in the URL: models/${model}`);
    }
    sendJson(res, 200, reply.body ?? { embeddings: requests.map((r) => ({ values: vector(r.content?.parts?.map((p) => p.text ?? '').join('') ?? '') })) });
  });

  server.route('POST', /\/(v1|v1beta)\/models\/([^/:]+):predict/, async (request, res) => {
    const [version, model] = request.params;
    const reply = await begin(request, res, model, version, 'predict');
    if (!reply) return;
    const body = (request.json ?? {}) as { parameters?: { sampleCount?: number } };
    const count = body.parameters?.sampleCount ?? 1;
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    sendJson(res, 200, reply.body ?? { predictions: Array.from({ length: count }, () => ({ bytesBase64Encoded: png, mimeType: 'image/png' })) });
  });

  server.route('GET', /\/(v1|v1beta)\/models/, (request, res) => {
    if (!admitted(request, res)) return;
    const models = fake.models.map((id) => ({
      name: `models/${id}`,
      displayName: id,
      supportedGenerationMethods: id.includes('embedding') ? ['embedContent'] : id.startsWith('imagen') ? ['predict'] : ['generateContent', 'countTokens'],
    }));
    sendJson(res, 200, { models });
  });

  return fake;
}
