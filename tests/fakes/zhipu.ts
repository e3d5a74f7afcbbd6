/**
 * A fake Zhipu v3 model API (ChatGLM) on 127.0.0.1 speaking the real wire format:
 * - `POST /api/paas/v3/model-api/{model}/invoke`: `{code: 200, msg, success: true, data:
 *   {task_id, request_id, task_status: SUCCESS, choices: [{role, content: "\"…\""}], usage}}`;
 * - `POST /api/paas/v3/model-api/{model}/sse-invoke`: SSE `event: add` pieces (plain text
 *   data), `event: finish` with the usage in a `meta:` line, `event: error` on failure;
 * - `Authorization`: the HS256 JWT of the key (`api_key` = id, `exp` and `timestamp` in
 *   milliseconds, header `sign_type: SIGN`), its signature checked with the secret (`jose`);
 * - refusals: `{code, msg, success: false}` (401 for a bad token).
 */
import type { ServerResponse } from 'node:http';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { firstByteDelay, type RecordedRequest, sendJson, startFakeHttpServer, scriptedFake, type ScriptedFake } from './http-fake';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, ScriptQueue, sleep } from './script';

export const ZHIPU_KEY_ID = 'fakeid0123';
export const ZHIPU_KEY_SECRET = 'fakesecret4567';
export const ZHIPU_KEY = `${ZHIPU_KEY_ID}.${ZHIPU_KEY_SECRET}`;

export type FakeZhipu = ScriptedFake;

function refuse(res: ServerResponse, status: number, code: number, msg: string): void {
  sendJson(res, status, { code, msg, success: false });
}

/** Whether the Authorization header is a valid v3 token of the fake's key. */
async function validToken(header: string): Promise<boolean> {
  try {
    const protectedHeader = decodeProtectedHeader(header);
    if (protectedHeader.alg !== 'HS256' || protectedHeader.sign_type !== 'SIGN') return false;
    const { payload } = await compactVerify(header, new TextEncoder().encode(ZHIPU_KEY_SECRET));
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const now = Date.now();
    return claims.api_key === ZHIPU_KEY_ID && typeof claims.timestamp === 'number' && Math.abs(claims.timestamp - now) < 60_000 && typeof claims.exp === 'number' && claims.exp > now;
  } catch {
    return false;
  }
}

export async function startFakeZhipu(): Promise<FakeZhipu> {
  const queue = new ScriptQueue<RecordedRequest>();
  const server = await startFakeHttpServer((_request, res) => refuse(res, 404, 404, 'Not Found'));
  const fake = scriptedFake(server, queue, {});

  server.route('POST', /\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)/, async (request, res) => {
    if (!(await validToken(String(request.headers.authorization ?? '')))) return refuse(res, 401, 401, '令牌已过期或验证不正确！');
    const body = request.json as { prompt?: { role: string; content: string }[] } | undefined;
    if (!body || !Array.isArray(body.prompt) || body.prompt.length === 0) return refuse(res, 400, 1214, 'prompt 参数非法');
    if (body.prompt.some((m) => m.role !== 'user' && m.role !== 'assistant')) return refuse(res, 400, 1214, 'prompt 中的 role 只能是 user 或 assistant');
    const reply = queue.next(request);
    await firstByteDelay(reply.firstByteDelayMs);
    if (reply.error) return refuse(res, reply.error.status, Number(reply.error.code ?? 1261), reply.error.message);
    const text = reply.text ?? DEFAULT_TEXT;
    const parts = pieces(text);
    const usage = { prompt_tokens: reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS, completion_tokens: reply.usage?.completion ?? parts.length, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const ids = { task_id: `task-${Date.now()}`, request_id: 'req-fake-1', task_status: 'SUCCESS' };
    if (request.params[1] === 'invoke') {
      return sendJson(res, 200, { code: 200, msg: '操作成功', success: true, data: { ...ids, choices: [{ role: 'assistant', content: JSON.stringify(text) }], usage } });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8', 'cache-control': 'no-cache' });
    let sent = 0;
    for (const piece of parts) {
      if (reply.streamErrorAfter !== undefined && sent >= reply.streamErrorAfter) {
        res.end(`id: ${ids.task_id}\nevent: error\ndata: 系统繁忙\n\n`);
        return;
      }
      if (reply.delayMs && sent > 0) await sleep(reply.delayMs);
      // A piece with a newline spans several data lines, as Zhipu sends it.
      res.write(
        `id: ${ids.task_id}\nevent: add\n${piece
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
      );
      sent += 1;
    }
    const meta = reply.noUsage ? { ...ids } : { ...ids, usage };
    res.end(`id: ${ids.task_id}\nevent: finish\ndata: \nmeta: ${JSON.stringify(meta)}\n\n`);
  });

  return fake;
}
