/**
 * A fake Dify app API on 127.0.0.1 speaking the real wire format: `POST /v1/chat-messages`
 * (`response_mode: "blocking"` answers one JSON message with `metadata.usage`; `"streaming"`
 * sends `data:` lines whose JSON names the event — workflow_started, node_*, message, ping,
 * message_end with `metadata.usage`, and `error` events mid-stream). Auth by the app's Bearer key;
 * errors are Dify's `{code, message, status}`.
 *
 * Scripting: `fake.script({text, usage, error, noUsage, streamErrorAfter})` (see script.ts).
 */
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson, startFakeHttpServer } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

export interface FakeDify {
  url: string;
  keys: Set<string>;
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  close(): Promise<void>;
}

function difyError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { code, message, status });
}

function usageOf(reply: ScriptedReply, textPieces: string[]): Record<string, unknown> {
  const prompt = reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS;
  const completion = reply.usage?.completion ?? textPieces.length;
  return {
    prompt_tokens: prompt,
    prompt_unit_price: '0.001',
    prompt_price_unit: '0.001',
    prompt_price: '0.0000',
    completion_tokens: completion,
    completion_unit_price: '0.002',
    completion_price_unit: '0.001',
    completion_price: '0.0000',
    total_tokens: prompt + completion,
    total_price: '0.0000',
    currency: 'USD',
    latency: 0.5,
  };
}

export async function startFakeDify(): Promise<FakeDify> {
  const queue = new ScriptQueue<RecordedRequest>();
  const keys = new Set(['app-fake-good']);
  const server = await startFakeHttpServer((_req, res) => difyError(res, 404, 'not_found', 'Not Found'));
  let counter = 0;

  server.route('POST', '/v1/chat-messages', async (req, res) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!keys.has(key)) return difyError(res, 401, 'unauthorized', 'Access token is invalid');
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (typeof body.query !== 'string' || typeof body.user !== 'string' || typeof body.inputs !== 'object') {
      return difyError(res, 400, 'invalid_param', 'query, inputs and user are required');
    }
    const reply = queue.next(req);
    if (reply.error) return difyError(res, reply.error.status, String(reply.error.code ?? 'invalid_param'), reply.error.message);
    const n = ++counter;
    const ids = { task_id: `task-${n}`, message_id: `msg-${n}`, conversation_id: `conv-${n}` };
    const text = reply.text ?? DEFAULT_TEXT;
    const textPieces = pieces(text);
    const metadata = reply.noUsage ? {} : { usage: usageOf(reply, textPieces) };
    if (body.response_mode === 'streaming') {
      const created_at = Math.floor(Date.now() / 1000);
      const events: SseOut[] = [
        { data: { event: 'workflow_started', ...ids, workflow_run_id: `run-${n}`, data: { id: `run-${n}`, workflow_id: 'wf-1', created_at } } },
        { data: { event: 'node_started', ...ids, workflow_run_id: `run-${n}`, data: { node_id: 'llm', node_type: 'llm', title: 'LLM' } } },
        ...textPieces.map((answer): SseOut => ({ data: { event: 'message', ...ids, id: ids.message_id, answer, created_at } })),
        { event: 'ping', data: { event: 'ping' } },
        { data: { event: 'node_finished', ...ids, workflow_run_id: `run-${n}`, data: { node_id: 'llm', node_type: 'llm', status: 'succeeded' } } },
        { data: { event: 'message_end', ...ids, id: ids.message_id, metadata } },
      ];
      const errorEvent: SseOut = { data: { event: 'error', ...ids, status: 400, code: 'completion_request_error', message: 'model quota exceeded' } };
      return writeSse(res, events, reply, { errorEvent });
    }
    sendJson(res, 200, { event: 'message', ...ids, id: ids.message_id, mode: 'advanced-chat', answer: text, metadata, created_at: Math.floor(Date.now() / 1000) });
  });

  return { url: server.url, keys, requests: server.requests, script: (...replies) => queue.push(...replies), close: () => server.close() };
}
