/**
 * A fake Baidu Qianfan v1 (wenxinworkshop) on 127.0.0.1 speaking the real wire format:
 * - `POST /oauth/2.0/token?grant_type=client_credentials&client_id=…&client_secret=…`:
 *   `{access_token, expires_in, refresh_token, scope, session_key, session_secret}`, or
 *   `{error: invalid_client, error_description}` (HTTP 401) for an unknown client;
 * - `POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=…`: ERNIE's
 *   `{id, object, created, result, is_truncated, need_clear_history, usage}`, streamed as SSE
 *   `data:` events with `sentence_id`, `is_end` and the usage so far;
 * - `…/embeddings/{endpoint}`: `{data: [{object, embedding, index}], usage}`;
 * - errors `{error_code, error_msg}` on HTTP 200 (110 for a token it did not issue), also
 *   for stream requests (a JSON body, no events).
 */
import type { ServerResponse } from 'node:http';
import { firstByteDelay, type RecordedRequest, sendJson, startFakeHttpServer, scriptedFake, type ScriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, ScriptQueue, sleep } from './script';

export const BAIDU_CLIENT_ID = 'fake-api-key';
export const BAIDU_CLIENT_SECRET = 'fake-secret-key';
export const BAIDU_KEY = `${BAIDU_CLIENT_ID}|${BAIDU_CLIENT_SECRET}`;

export interface FakeBaidu extends ScriptedFake {
  /** Token requests answered with a token. */
  tokensIssued: number;
  /** Issues a token outside the OAuth flow (a key that is an access token). */
  issueToken(): string;
}

function baiduError(res: ServerResponse, code: number, msg: string): void {
  sendJson(res, 200, { error_code: code, error_msg: msg });
}

export async function startFakeBaidu(): Promise<FakeBaidu> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((_request, res) => baiduError(res, 3, 'Unsupported openapi method'));
  const issued = new Set<string>();
  const fake: FakeBaidu = scriptedFake(server, queue, {
    tokensIssued: 0,
    issueToken(): string {
      const token = `24.fake${Math.random().toString(36).slice(2)}.2592000.1.282335-1`;
      issued.add(token);
      return token;
    },
  });

  server.route('POST', '/oauth/2.0/token', (request, res) => {
    const q = request.query;
    if (q.get('grant_type') !== 'client_credentials') return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported' });
    if (q.get('client_id') !== BAIDU_CLIENT_ID) return sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client id' });
    if (q.get('client_secret') !== BAIDU_CLIENT_SECRET) return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    fake.tokensIssued += 1;
    sendJson(res, 200, { refresh_token: '25.fake', expires_in: 2592000, session_key: 'fake', access_token: fake.issueToken(), scope: 'public brain_all_scope', session_secret: 'fake' });
  });

  server.route('POST', /\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([^/]+)/, async (request, res) => {
    if (!issued.has(request.query.get('access_token') ?? '')) return baiduError(res, 110, 'Access token invalid or no longer valid');
    const body = (request.json ?? {}) as { messages?: { role: string }[]; input?: unknown; stream?: boolean };
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.error) return baiduError(res, Number(reply.error.code ?? 336003), reply.error.message);
    const id = `as-fake${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    const prompt = reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS;
    if (request.params[0] === 'embeddings') {
      if (!Array.isArray(body.input) || body.input.length === 0) return baiduError(res, 336003, 'the length of input can not be zero');
      const data = body.input.map((_, index) => ({ object: 'embedding', embedding: [0.125, -0.25, 0.5], index }));
      return sendJson(res, 200, { id, object: 'embedding_list', created, data, usage: { prompt_tokens: prompt, total_tokens: prompt } });
    }
    const messages = body.messages ?? [];
    if (messages.length % 2 === 0 || messages.some((m, i) => m.role !== (i % 2 === 0 ? 'user' : 'assistant'))) return baiduError(res, 336006, 'the length of messages must be an odd number');
    const text = reply.text ?? DEFAULT_TEXT;
    const parts = pieces(text);
    const completion = reply.usage?.completion ?? parts.length;
    if (body.stream !== true) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        result: text,
        is_truncated: false,
        need_clear_history: false,
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [index, piece] of parts.entries()) {
      if (reply.streamErrorAfter !== undefined && index >= reply.streamErrorAfter) {
        res.end(`data: ${JSON.stringify({ error_code: 336100, error_msg: 'internal error' })}\n\n`);
        return;
      }
      if (reply.delayMs && index > 0) await sleep(reply.delayMs);
      const last = index === parts.length - 1;
      // Every event reports the usage so far; the last one the whole answer's.
      const soFar = last ? completion : Math.min(completion, index + 1);
      const usage = reply.noUsage ? undefined : { prompt_tokens: prompt, completion_tokens: soFar, total_tokens: prompt + soFar };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion', created, sentence_id: index, is_end: last, is_truncated: false, result: piece, need_clear_history: false, usage })}\n\n`);
    }
    res.end();
  });

  return fake;
}
