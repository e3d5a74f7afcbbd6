/**
 * The Responses API of the fake OpenAI upstream (installed by `startFakeOpenAI`), speaking
 * OpenAI's wire format: `POST /v1/responses` (a Response object, or the typed event stream
 * response.created … response.completed with sequence numbers), `GET` and `DELETE
 * /v1/responses/{id}` and `GET /v1/responses/{id}/input_items` over the responses it stored
 * (unless `store: false`), and an unknown
 * `previous_response_id` refused as OpenAI does. The same under Azure's v1 surface
 * (`/openai/v1/responses`, `api-key` header). Replies follow the fake's script queue: text,
 * reasoning (a summary), tool calls (function_call items), usage, errors, pacing.
 */
import type { ServerResponse } from 'node:http';
import { firstByteDelay } from './http-fake';
import { type FakeHandler, type FakeOpenAI, type FakeReply, type FakeRequest, openaiError } from './openai';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

type Json = Record<string, unknown>;

const CREATED = 1_700_000_000;

function usageOf(reply: ScriptedReply, outputPieces: number): Json {
  const u = reply.usage ?? {};
  const input = u.prompt ?? DEFAULT_PROMPT_TOKENS;
  const output = u.completion ?? Math.max(1, outputPieces);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: input + output,
  };
}

function responseObject(id: string, body: Json, status: string, output: Json[], usage: Json | null): Json {
  return {
    id,
    object: 'response',
    created_at: CREATED,
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

export function installResponsesRoutes(fake: FakeOpenAI, queue: ScriptQueue<FakeRequest>): void {
  const stored = new Map<string, Json>();
  const inputs = new Map<string, Json[]>();
  let counter = 0;

  const create = async (request: FakeRequest, res: ServerResponse): Promise<FakeReply | void> => {
    let body: Json;
    try {
      body = JSON.parse(request.body) as Json;
    } catch {
      return openaiError(400, 'We could not parse the JSON body of your request.');
    }
    if (body.input === undefined) return openaiError(400, "Missing required parameter: 'input'.");
    const previous = body.previous_response_id;
    if (typeof previous === 'string' && !stored.has(previous))
      return {
        status: 400,
        body: { error: { message: `Previous response with id '${previous}' not found.`, type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } },
      };
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.rawError) return { status: reply.rawError.status, headers: { 'content-type': 'text/html' }, body: reply.rawError.body };
    if (reply.error) return openaiError(reply.error.status, reply.error.message, reply.error.type ?? 'invalid_request_error', reply.error.code === undefined ? null : String(reply.error.code));

    const id = `resp_fake${++counter}`;
    const text = pieces(reply.text ?? (reply.toolCalls ? '' : DEFAULT_TEXT));
    const thoughts = reply.reasoning ? pieces(reply.reasoning) : [];
    const calls = (reply.toolCalls ?? []).map((call, i) => ({ id: `fc_fake${counter}_${i}`, callId: call.id ?? `call_fake${counter}_${i}`, name: call.name, args: JSON.stringify(call.arguments) }));
    const usage = reply.noUsage ? null : usageOf(reply, text.length + thoughts.length + calls.length);
    const output: Json[] = [];
    if (thoughts.length > 0) output.push({ type: 'reasoning', id: `rs_fake${counter}`, summary: [{ type: 'summary_text', text: reply.reasoning }] });
    if (text.length > 0) output.push({ type: 'message', id: `msg_fake${counter}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: text.join(''), annotations: [] }] });
    for (const c of calls) output.push({ type: 'function_call', id: c.id, call_id: c.callId, name: c.name, arguments: c.args, status: 'completed' });
    const final = responseObject(id, body, 'completed', output, usage);
    if (body.store !== false) {
      stored.set(id, final);
      const items = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: body.input }] }] : (body.input as Json[]);
      inputs.set(
        id,
        items.map((item, i) => ({ id: `item_fake${counter}_${i}`, ...item })),
      );
    }
    if (body.stream !== true) return { body: reply.body ?? final };

    let seq = 0;
    const events: SseOut[] = [];
    const ev = (type: string, fields: Json) => events.push({ event: type, data: { type, sequence_number: seq++, ...fields } });
    const started = responseObject(id, body, 'in_progress', [], null);
    ev('response.created', { response: started });
    ev('response.in_progress', { response: started });
    output.forEach((item, index) => {
      if (item.type === 'message') {
        ev('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
        ev('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        for (const t of text) ev('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: t, logprobs: [] });
        ev('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text: text.join(''), logprobs: [] });
        ev('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: text.join(''), annotations: [] } });
      } else if (item.type === 'function_call') {
        const args = String(item.arguments);
        const half = Math.ceil(args.length / 2);
        ev('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args.slice(0, half) });
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args.slice(half) });
        ev('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: args });
      } else {
        ev('response.output_item.added', { output_index: index, item: { ...item, summary: [] } });
      }
      ev('response.output_item.done', { output_index: index, item });
    });
    ev('response.completed', { response: final });
    const errorEvent: SseOut = { event: 'error', data: { type: 'error', sequence_number: seq, code: 'server_error', message: 'The server had an error while processing your request.', param: null } };
    await writeSse(res, reply.events ?? events, reply, { errorEvent });
  };

  const byId = (request: FakeRequest, id: string): FakeReply => {
    const response = stored.get(id);
    if (!response) return openaiError(404, `Response with id '${id}' not found.`, 'invalid_request_error', 'not_found');
    if (request.method === 'DELETE') {
      stored.delete(id);
      return { body: { id, object: 'response.deleted', deleted: true } };
    }
    return { body: response };
  };

  const azureAuth = (request: FakeRequest): FakeReply | undefined => {
    const key = request.headers['api-key'];
    return typeof key === 'string' && fake.keys.has(key)
      ? undefined
      : { status: 401, body: { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' } } };
  };

  const post: FakeHandler = (request, f, res) => f.checkAuth(request) ?? create(request, res);
  fake.route('POST', '/v1/responses', post);
  fake.route('POST', '/openai/v1/responses', (request, _f, res) => azureAuth(request) ?? create(request, res));
  const ID = /^(?:\/openai)?\/v1\/responses\/([^/]+)$/;
  const ITEMS = /^(?:\/openai)?\/v1\/responses\/([^/]+)\/input_items$/;
  fake.routePattern('GET', ITEMS, (request, f) => {
    const denied = request.path.startsWith('/openai/') ? azureAuth(request) : f.checkAuth(request);
    if (denied) return denied;
    const items = inputs.get(decodeURIComponent(ITEMS.exec(request.path)![1]!));
    if (!items) return openaiError(404, 'Response not found.', 'invalid_request_error', 'not_found');
    const data = request.query.get('order') === 'asc' ? items : [...items].reverse();
    return { body: { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false } };
  });
  for (const method of ['GET', 'DELETE']) {
    fake.routePattern(method, ID, (request, f) => {
      const denied = request.path.startsWith('/openai/') ? azureAuth(request) : f.checkAuth(request);
      return denied ?? byId(request, decodeURIComponent(ID.exec(request.path)![1]!));
    });
  }
}
