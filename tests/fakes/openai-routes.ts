/**
 * The model endpoints of the fake OpenAI upstream (installed by `startFakeOpenAI`): chat and
 * completions (JSON, or SSE with a usage chunk when `stream_options.include_usage`), embeddings
 * (float or base64), images, speech, transcriptions/translations (multipart), moderations,
 * rerank, and the same under Azure deployment paths (`api-key` header, `api-version` query).
 * Replies follow the fake's script queue (see script.ts).
 */
import type { ServerResponse } from 'node:http';
import { firstByteDelay } from './http-fake';
import { type FakeHandler, type FakeOpenAI, type FakeReply, type FakeRequest, openaiError } from './openai';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

type Json = Record<string, unknown>;
type Endpoint = (request: FakeRequest, res: ServerResponse, body: Json, reply: ScriptedReply) => FakeReply | void | Promise<FakeReply | void>;

const CREATED = 1_700_000_000;
const words = (text: string) => (text.match(/\S+/g) ?? []).length;

function usageBody(reply: ScriptedReply, completionPieces: number): Json {
  const u = reply.usage ?? {};
  const prompt = u.prompt ?? DEFAULT_PROMPT_TOKENS;
  const completion = u.completion ?? Math.max(1, completionPieces);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
  };
}

function streamError(reply: ScriptedReply): SseOut {
  return { data: { error: { message: reply.error?.message ?? 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } } };
}

const chat: Endpoint = (_request, res, body, reply) => answerChat(res, body, reply);

/** Chat completions as OpenAI answers them (JSON, or SSE); also Vertex's OpenAI-compatible endpoint (vertex.ts). */
export async function answerChat(res: ServerResponse, body: Json, reply: ScriptedReply): Promise<FakeReply | void> {
  if (!Array.isArray(body.messages) || body.messages.length === 0) return openaiError(400, "Missing required parameter: 'messages'.");
  const model = String(body.model ?? '');
  const id = 'chatcmpl-fake';
  const text = pieces(reply.text ?? (reply.toolCalls ? '' : DEFAULT_TEXT));
  const thoughts = reply.reasoning ? pieces(reply.reasoning) : [];
  const calls = (reply.toolCalls ?? []).map((call, index) => ({ index, id: call.id ?? `call_fake${index}`, name: call.name, args: JSON.stringify(call.arguments) }));
  const finish = reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const usage = usageBody(reply, text.length + thoughts.length + calls.length);
  if (body.stream !== true) {
    const message: Json = { role: 'assistant', content: text.length > 0 ? text.join('') : null, refusal: null };
    if (reply.reasoning) message.reasoning_content = reply.reasoning;
    if (calls.length > 0) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
    return {
      body: reply.body ?? {
        id,
        object: 'chat.completion',
        created: CREATED,
        model,
        system_fingerprint: 'fp_fake',
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
        ...(reply.noUsage ? {} : { usage }),
      },
    };
  }
  const chunk = (delta: Json, finishReason: string | null = null): SseOut => ({
    data: { id, object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] },
  });
  const events: SseOut[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const t of thoughts) events.push(chunk({ reasoning_content: t }));
  for (const t of text) events.push(chunk({ content: t }));
  for (const c of calls) {
    const half = Math.ceil(c.args.length / 2);
    events.push(chunk({ tool_calls: [{ index: c.index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    events.push(chunk({ tool_calls: [{ index: c.index, function: { arguments: c.args.slice(0, half) } }] }));
    events.push(chunk({ tool_calls: [{ index: c.index, function: { arguments: c.args.slice(half) } }] }));
  }
  events.push(chunk({}, finish));
  const includeUsage = (body.stream_options as Json | undefined)?.include_usage === true;
  if (includeUsage && !reply.noUsage) events.push({ data: { id, object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_fake', choices: [], usage } });
  events.push({ data: '[DONE]' });
  await writeSse(res, reply.events ?? events, reply, { errorEvent: streamError(reply) });
}

const completions: Endpoint = async (request, res, body, reply) => {
  if (body.prompt === undefined) return openaiError(400, "Missing required parameter: 'prompt'.");
  const model = String(body.model ?? '');
  const text = pieces(reply.text ?? DEFAULT_TEXT);
  const usage = usageBody(reply, text.length);
  const finish = reply.finishReason ?? 'stop';
  const completion = (t: string, finishReason: string | null) => ({
    id: 'cmpl-fake',
    object: 'text_completion',
    created: CREATED,
    model,
    choices: [{ text: t, index: 0, logprobs: null, finish_reason: finishReason }],
  });
  if (body.stream !== true) return { body: reply.body ?? { ...completion(text.join(''), finish), ...(reply.noUsage ? {} : { usage }) } };
  const events: SseOut[] = text.map((t, i) => ({ data: completion(t, i === text.length - 1 ? finish : null) }));
  if ((body.stream_options as Json | undefined)?.include_usage === true && !reply.noUsage) events.push({ data: { ...completion('', null), choices: [], usage } });
  events.push({ data: '[DONE]' });
  await writeSse(res, reply.events ?? events, reply, { errorEvent: streamError(reply) });
};

/** A deterministic 4-dimensional vector per text, so tests can tell inputs apart. */
function vector(text: string): number[] {
  return [text.length, words(text), text.charCodeAt(0) || 0, 0.5];
}

const embeddings: Endpoint = (request, res, body, reply) => {
  const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : [];
  if (inputs.length === 0) return openaiError(400, "'input' : input cannot be an empty string");
  const prompt = reply.usage?.prompt ?? inputs.reduce((sum, text) => sum + Math.max(1, words(text)), 0);
  const data = inputs.map((text, index) => {
    const values = vector(text);
    const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(values).buffer).toString('base64') : values;
    return { object: 'embedding', index, embedding };
  });
  return { body: reply.body ?? { object: 'list', data, model: body.model, ...(reply.noUsage ? {} : { usage: { prompt_tokens: prompt, total_tokens: prompt } }) } };
};

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const images: Endpoint = (request, res, body, reply) => {
  if (typeof body.prompt !== 'string' || body.prompt === '') return openaiError(400, "Missing required parameter: 'prompt'.");
  const n = typeof body.n === 'number' ? body.n : 1;
  const data = Array.from({ length: n }, (_, i) =>
    body.response_format === 'b64_json' ? { b64_json: PNG, revised_prompt: body.prompt } : { url: `https://fake.example/image-${i}.png`, revised_prompt: body.prompt },
  );
  return { body: reply.body ?? { created: CREATED, data } };
};

const speech: Endpoint = (request, res, body) => {
  if (typeof body.input !== 'string' || body.input === '') return openaiError(400, "Missing required parameter: 'input'.");
  // An MP3-looking payload whose size follows the input, so tests can check it arrived whole.
  res.writeHead(200, { 'content-type': 'audio/mpeg' });
  res.end(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(body.input.length * 10, 7)]));
};

const transcription: Endpoint = async (request, res, _body, reply) => {
  const form = await new Response(new Uint8Array(request.raw), { headers: { 'content-type': String(request.headers['content-type'] ?? '') } }).formData().catch(() => undefined);
  if (!form) return openaiError(400, 'Could not parse multipart form');
  if (!form.get('model')) return openaiError(400, 'you must provide a model parameter');
  const file = form.get('file');
  if (!(file instanceof Blob)) return openaiError(400, "Missing required parameter: 'file'.");
  const text = reply.text ?? DEFAULT_TEXT;
  const format = String(form.get('response_format') ?? 'json');
  if (format === 'text' || format === 'srt' || format === 'vtt') return { body: format === 'text' ? text : `1\n00:00:00,000 --> 00:00:01,000\n${text}\n` };
  if (format === 'verbose_json') return { body: { task: 'transcribe', language: 'english', duration: 1.5, text, segments: [] } };
  return { body: reply.body ?? { text } };
};

const moderations: Endpoint = (request, res, body, reply) => {
  const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
  if (inputs.length === 0) return openaiError(400, "Missing required parameter: 'input'.");
  const flagged = reply.finishReason === 'flagged';
  const result = { flagged, categories: { hate: false, violence: flagged }, category_scores: { hate: 0.0001, violence: flagged ? 0.9 : 0.0001 } };
  return { body: reply.body ?? { id: 'modr-fake', model: body.model ?? 'text-moderation-latest', results: inputs.map(() => result) } };
};

const rerank: Endpoint = (request, res, body, reply) => {
  const documents = Array.isArray(body.documents) ? body.documents : [];
  if (typeof body.query !== 'string' || documents.length === 0) return openaiError(400, 'query and documents are required');
  const texts = documents.map((d) => (typeof d === 'string' ? d : String((d as Json).text ?? '')));
  const topN = typeof body.top_n === 'number' ? body.top_n : texts.length;
  // Earlier documents rank higher: predictable for tests.
  const results = texts.slice(0, topN).map((text, index) => ({
    index,
    relevance_score: 1 - index / (texts.length + 1),
    ...(body.return_documents ? { document: { text } } : {}),
  }));
  const tokens = reply.usage?.prompt ?? words(body.query) + texts.reduce((sum, t) => sum + words(t), 0);
  return { body: reply.body ?? { model: body.model, results, ...(reply.noUsage ? {} : { usage: { total_tokens: tokens } }) } };
};

const ENDPOINTS: Record<string, Endpoint> = {
  'chat/completions': chat,
  completions,
  embeddings,
  'images/generations': images,
  'audio/speech': speech,
  'audio/transcriptions': transcription,
  'audio/translations': transcription,
  moderations,
  rerank,
};

/** Parses the body, takes the next scripted reply and applies its delay and failures. */
function serve(endpoint: Endpoint, queue: ScriptQueue<FakeRequest>, forceModel?: (request: FakeRequest) => string): FakeHandler {
  return async (request, _fake, res) => {
    const multipart = String(request.headers['content-type'] ?? '').startsWith('multipart/');
    let body: Json = {};
    if (!multipart && request.body) {
      try {
        body = JSON.parse(request.body) as Json;
      } catch {
        return openaiError(400, 'We could not parse the JSON body of your request.');
      }
    }
    if (forceModel) body.model = forceModel(request);
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.rawError) return { status: reply.rawError.status, headers: { 'content-type': 'text/html' }, body: reply.rawError.body };
    if (reply.error) return openaiError(reply.error.status, reply.error.message, reply.error.type ?? 'invalid_request_error', reply.error.code === undefined ? null : String(reply.error.code));
    return endpoint(request, res, body, reply);
  };
}

const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/(.+)$/;

export function installModelRoutes(fake: FakeOpenAI, queue: ScriptQueue<FakeRequest>): void {
  for (const [path, endpoint] of Object.entries(ENDPOINTS)) {
    const handler = serve(endpoint, queue);
    fake.route('POST', `/v1/${path}`, (request, f, res) => f.checkAuth(request) ?? handler(request, f, res));
  }
  // Azure: the deployment names the model; `api-key` instead of Bearer; api-version is mandatory.
  fake.routePattern('POST', AZURE_PATH, (request, f, res) => {
    const [, deployment, path] = AZURE_PATH.exec(request.path)!;
    const endpoint = ENDPOINTS[path];
    const key = request.headers['api-key'];
    if (typeof key !== 'string' || !f.keys.has(key)) {
      return {
        status: 401,
        body: {
          error: {
            code: '401',
            message:
              'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
          },
        },
      };
    }
    if (!request.query.get('api-version')) return { status: 404, body: { error: { code: '404', message: 'Resource not found' } } };
    if (!endpoint) return { status: 404, body: { error: { code: '404', message: 'Resource not found' } } };
    return serve(endpoint, queue, () => deployment)(request, f, res);
  });
}
