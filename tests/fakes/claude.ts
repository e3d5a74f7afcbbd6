/**
 * A fake Anthropic API on 127.0.0.1 speaking the real wire format: `POST /v1/messages` (JSON,
 * or the SSE event stream message_start / content_block_* / message_delta / message_stop with
 * thinking, text and tool_use blocks and cache counts), `POST /v1/messages/count_tokens`,
 * legacy `POST /v1/complete`, and `GET /v1/models`. Auth by `x-api-key` (or a Bearer token); `anthropic-version` is required
 * as upstream does.
 * Errors use Claude's `{type:"error", error:{type, message}}`.
 *
 * Scripting: `fake.script({text, toolCalls, usage, error, delayMs, resetAfter, ...})` queues
 * the next reply (see script.ts); `fake.defaultReply` answers the rest.
 */
import type { ServerResponse } from 'node:http';
import { firstByteDelay, type RecordedRequest, sendJson, sendText, startFakeHttpServer, scriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

export interface FakeClaude {
  url: string;
  keys: Set<string>;
  models: string[];
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  defaultReply: ScriptedReply;
  close(): Promise<void>;
}

export function claudeError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, message } });
}

export const CLAUDE_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export interface ClaudeAnswer {
  id: string;
  model: string;
  thinking?: string;
  textPieces: string[];
  tools: { id: string; name: string; input: Record<string, unknown> }[];
  stopReason: string;
  usage: Record<string, number>;
}

/** What a scripted reply makes of a Claude answer (also the Bedrock and Vertex fakes'). */
export function claudeAnswer(reply: ScriptedReply, model: string, id: string): ClaudeAnswer {
  const textPieces = pieces(reply.text ?? (reply.toolCalls ? '' : DEFAULT_TEXT));
  const tools = (reply.toolCalls ?? []).map((call, i) => ({ id: call.id ?? `toolu_fake${i}`, name: call.name, input: call.arguments }));
  const u = reply.usage ?? {};
  const usage: Record<string, number> = {
    input_tokens: u.prompt ?? DEFAULT_PROMPT_TOKENS,
    cache_creation_input_tokens: u.cacheCreation ?? 0,
    cache_read_input_tokens: u.cacheRead ?? 0,
    output_tokens: u.completion ?? Math.max(1, textPieces.length + tools.length + (reply.reasoning ? pieces(reply.reasoning).length : 0)),
  };
  const stopReason = reply.finishReason ?? (tools.length > 0 ? 'tool_use' : 'end_turn');
  return { id, model, thinking: reply.reasoning, textPieces, tools, stopReason, usage };
}

export function claudeMessageBody(a: ClaudeAnswer, noUsage: boolean): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (a.thinking) content.push({ type: 'thinking', thinking: a.thinking, signature: 'sig-fake' });
  if (a.textPieces.length > 0) content.push({ type: 'text', text: a.textPieces.join('') });
  for (const t of a.tools) content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.input });
  const body: Record<string, unknown> = { id: a.id, type: 'message', role: 'assistant', model: a.model, content, stop_reason: a.stopReason, stop_sequence: null };
  if (!noUsage) body.usage = a.usage;
  return body;
}

export function claudeStreamEvents(a: ClaudeAnswer, noUsage: boolean): SseOut[] {
  const ev = (type: string, body: Record<string, unknown>): SseOut => ({ event: type, data: { type, ...body } });
  const startUsage = noUsage ? {} : { usage: { ...a.usage, output_tokens: 1 } };
  const events: SseOut[] = [
    ev('message_start', { message: { id: a.id, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null, ...startUsage } }),
    ev('ping', {}),
  ];
  let index = 0;
  if (a.thinking) {
    events.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    for (const piece of pieces(a.thinking)) events.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
    events.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'sig-fake' } }));
    events.push(ev('content_block_stop', { index }));
    index += 1;
  }
  if (a.textPieces.length > 0) {
    events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of a.textPieces) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    events.push(ev('content_block_stop', { index }));
    index += 1;
  }
  for (const tool of a.tools) {
    const json = JSON.stringify(tool.input);
    const half = Math.ceil(json.length / 2);
    events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } }));
    events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }));
    events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }));
    events.push(ev('content_block_stop', { index }));
    index += 1;
  }
  events.push(ev('message_delta', { delta: { stop_reason: a.stopReason, stop_sequence: null }, ...(noUsage ? {} : { usage: { output_tokens: a.usage.output_tokens } }) }));
  events.push(ev('message_stop', {}));
  return events;
}

/** Sends a Claude answer: the message, or its SSE event stream (the error event after `streamErrorAfter`). */
export async function answerClaude(res: ServerResponse, reply: ScriptedReply, answer: ClaudeAnswer, stream: boolean): Promise<void> {
  const errorEvent: SseOut = { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: reply.error?.message ?? 'Overloaded' } } };
  if (stream) return writeSse(res, reply.events ?? claudeStreamEvents(answer, reply.noUsage === true), reply, { errorEvent });
  sendJson(res, 200, reply.body ?? claudeMessageBody(answer, reply.noUsage === true));
}

/** What the fake's count_tokens answers for a body. */
export function fakeTokenCount(body: Record<string, unknown>): number {
  return Math.ceil(JSON.stringify([body.messages, body.system ?? null, body.tools ?? null]).length / 4);
}

export async function startFakeClaude(options: { keys?: string[]; models?: string[] } = {}): Promise<FakeClaude> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((request, res) => claudeError(res, 404, 'not_found_error', `Not found: ${request.method} ${request.path}`));
  let counter = 0;

  const fake: FakeClaude = scriptedFake(server, queue, {
    keys: new Set(options.keys ?? ['sk-ant-fake-good']),
    models: options.models ?? ['claude-3-7-sonnet-20250219', 'claude-3-5-haiku-20241022', 'claude-sonnet-4-20250514'],
  });

  /** The checks Anthropic makes before looking at the body; true when the request may go on. */
  function admitted(request: RecordedRequest, res: ServerResponse): boolean {
    // Anthropic takes the key as x-api-key or as a Bearer token (newer clients send the latter).
    const auth = request.headers.authorization;
    const key = request.headers['x-api-key'] ?? (auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined);
    if (typeof key !== 'string' || !fake.keys.has(key)) {
      claudeError(res, 401, 'authentication_error', 'invalid x-api-key');
      return false;
    }
    if (!request.headers['anthropic-version']) {
      claudeError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');
      return false;
    }
    return true;
  }

  /** Scripted failures shared by both endpoints; true when one was sent. */
  function scriptedFailure(reply: ScriptedReply, res: ServerResponse): boolean {
    if (reply.rawError) {
      sendText(res, reply.rawError.status, reply.rawError.body, 'text/html');
      return true;
    }
    if (reply.error) {
      claudeError(res, reply.error.status, reply.error.type ?? CLAUDE_ERROR_TYPES[reply.error.status] ?? 'api_error', reply.error.message);
      return true;
    }
    return false;
  }

  server.route('POST', '/v1/messages', async (request, res) => {
    if (!admitted(request, res)) return;
    const body = request.json as Record<string, unknown> | undefined;
    if (!body || typeof body.model !== 'string') return claudeError(res, 400, 'invalid_request_error', 'model: Field required');
    if (typeof body.max_tokens !== 'number') return claudeError(res, 400, 'invalid_request_error', 'max_tokens: Field required');
    if (!Array.isArray(body.messages) || body.messages.length === 0) return claudeError(res, 400, 'invalid_request_error', 'messages: at least one message is required');
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (scriptedFailure(reply, res)) return;
    await answerClaude(res, reply, claudeAnswer(reply, body.model, `msg_fake${++counter}`), body.stream === true);
  });

  // Token counting: only the fields Anthropic takes (sampling fields are refused); the count
  // is the characters of the messages, system and tools over four, so tests can predict it.
  server.route('POST', '/v1/messages/count_tokens', async (request, res) => {
    if (!admitted(request, res)) return;
    const body = request.json as Record<string, unknown> | undefined;
    if (!body || typeof body.model !== 'string') return claudeError(res, 400, 'invalid_request_error', 'model: Field required');
    const extra = Object.keys(body).find((key) => !['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'mcp_servers', 'context_management'].includes(key));
    if (extra) return claudeError(res, 400, 'invalid_request_error', `${extra}: Extra inputs are not permitted`);
    const reply = queue.next(request);
    if (scriptedFailure(reply, res)) return;
    sendJson(res, 200, reply.body ?? { input_tokens: fakeTokenCount(body) });
  });

  server.route('POST', '/v1/complete', async (request, res) => {
    if (!admitted(request, res)) return;
    const body = (request.json ?? {}) as Record<string, unknown>;
    if (typeof body.prompt !== 'string' || !body.prompt.endsWith('\n\nAssistant:')) {
      return claudeError(res, 400, 'invalid_request_error', 'prompt must end with "\\n\\nAssistant:" turn');
    }
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (scriptedFailure(reply, res)) return;
    const text = reply.text ?? DEFAULT_TEXT;
    const stop = reply.finishReason ?? 'stop_sequence';
    const id = `compl_fake${++counter}`;
    if (body.stream === true) {
      const parts = pieces(text);
      const events: SseOut[] = parts.map((piece, i) => ({
        event: 'completion',
        data: { type: 'completion', id, completion: piece, stop_reason: i === parts.length - 1 ? stop : null, model: body.model },
      }));
      return writeSse(res, reply.events ?? events, reply);
    }
    sendJson(res, 200, reply.body ?? { type: 'completion', id, completion: text, stop_reason: stop, model: body.model });
  });

  server.route('GET', '/v1/models', (request, res) => {
    if (!admitted(request, res)) return;
    const data = fake.models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-02-19T00:00:00Z' }));
    sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  });

  return fake;
}
