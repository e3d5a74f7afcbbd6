/**
 * A fake Cohere API (v2) on 127.0.0.1 speaking the real wire format: `POST /v2/chat` (JSON, or
 * the typed event stream message-start / content-start / content-delta / content-end /
 * message-end with `usage.billed_units` and `usage.tokens`), `POST /v2/embed` (floats by type,
 * `meta.billed_units.input_tokens`) and `POST /v2/rerank` (indexes and scores, billed in
 * `search_units`). Auth by Bearer key; errors are Cohere's `{id, message}`.
 *
 * Scripting: `fake.script({text, usage, error, finishReason, streamErrorAfter})` queues the next
 * chat reply (see script.ts); `usage.prompt`/`completion` are the billed units, and the `tokens`
 * block reports larger counts (Cohere's own preamble) that must not be billed.
 */
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson, startFakeHttpServer } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, type SseOut, writeSse } from './script';

export interface FakeCohere {
  url: string;
  keys: Set<string>;
  requests: RecordedRequest[];
  script(...replies: ScriptEntry<RecordedRequest>[]): void;
  close(): Promise<void>;
}

/** Extra tokens Cohere counts for its own preamble (in `tokens`, never in `billed_units`). */
export const COHERE_PREAMBLE_TOKENS = 60;

function cohereError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { id: 'err-fake', message });
}

function usageOf(reply: ScriptedReply, textPieces: string[]): Record<string, unknown> {
  const input = reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS;
  const output = reply.usage?.completion ?? textPieces.length;
  return {
    billed_units: { input_tokens: input, output_tokens: output },
    tokens: { input_tokens: input + COHERE_PREAMBLE_TOKENS, output_tokens: output },
  };
}

function chatEvents(id: string, reply: ScriptedReply, textPieces: string[]): SseOut[] {
  const ev = (type: string, body: Record<string, unknown> = {}): SseOut => ({ event: type, data: { type, ...body } });
  return [
    ev('message-start', { id, delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } }),
    ev('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
    ...textPieces.map((text) => ev('content-delta', { index: 0, delta: { message: { content: { text } } } })),
    ev('content-end', { index: 0 }),
    ev('message-end', { delta: { finish_reason: reply.finishReason ?? 'COMPLETE', ...(reply.noUsage ? {} : { usage: usageOf(reply, textPieces) }) } }),
  ];
}

export async function startFakeCohere(): Promise<FakeCohere> {
  const queue = new ScriptQueue<RecordedRequest>();
  const keys = new Set(['co-fake-good']);
  const server = await startFakeHttpServer((_req, res) => cohereError(res, 404, 'not found'));
  let counter = 0;

  function authorised(req: RecordedRequest, res: ServerResponse): boolean {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (keys.has(key)) return true;
    cohereError(res, 401, 'invalid api token');
    return false;
  }

  server.route('POST', '/v2/chat', async (req, res) => {
    if (!authorised(req, res)) return;
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (!Array.isArray(body.messages) || typeof body.model !== 'string') return cohereError(res, 400, 'invalid request: messages and model are required');
    const reply = queue.next(req);
    if (reply.error) return cohereError(res, reply.error.status, reply.error.message);
    const id = `co-chat-${++counter}`;
    const text = reply.text ?? DEFAULT_TEXT;
    const textPieces = pieces(text);
    if (body.stream === true) {
      const errorEvent: SseOut = { event: 'message-end', data: { type: 'message-end', delta: { finish_reason: 'ERROR', error: 'internal stream failure' } } };
      return writeSse(res, chatEvents(id, reply, textPieces), reply, { errorEvent });
    }
    const answer: Record<string, unknown> = {
      id,
      finish_reason: reply.finishReason ?? 'COMPLETE',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
    };
    if (!reply.noUsage) answer.usage = usageOf(reply, textPieces);
    sendJson(res, 200, answer);
  });

  server.route('POST', '/v2/embed', (req, res) => {
    if (!authorised(req, res)) return;
    const body = (req.json ?? {}) as Record<string, unknown>;
    const texts = body.texts;
    if (!Array.isArray(texts) || typeof body.input_type !== 'string') return cohereError(res, 400, 'invalid request: texts and input_type are required');
    const float = texts.map((t, i) => [i + 0.5, String(t).length, -1]);
    const words = texts.reduce<number>((n, t) => n + String(t).split(/\s+/).length, 0);
    sendJson(res, 200, {
      id: `co-embed-${++counter}`,
      embeddings: { float },
      texts,
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: words } },
      response_type: 'embeddings_by_type',
    });
  });

  server.route('POST', '/v2/rerank', (req, res) => {
    if (!authorised(req, res)) return;
    const body = (req.json ?? {}) as Record<string, unknown>;
    const documents = body.documents;
    if (!Array.isArray(documents) || !documents.every((d) => typeof d === 'string')) return cohereError(res, 400, 'invalid request: documents must be strings');
    const query = String(body.query ?? '');
    // Score: how many query words a document holds (deterministic, order by score).
    const scored = documents.map((d, index) => ({ index, relevance_score: query.split(/\s+/).filter((w) => (d as string).includes(w)).length / 10 }));
    scored.sort((a, b) => b.relevance_score - a.relevance_score);
    const topN = typeof body.top_n === 'number' ? body.top_n : scored.length;
    sendJson(res, 200, { id: `co-rerank-${++counter}`, results: scored.slice(0, topN), meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } });
  });

  return { url: server.url, keys, requests: server.requests, script: (...replies) => queue.push(...replies), close: () => server.close() };
}
