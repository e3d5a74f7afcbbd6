/**
 * A fake Xunfei Spark on 127.0.0.1 speaking its WebSocket protocol:
 * - the upgrade `GET /{version}/chat?authorization=…&date=…&host=…` is checked as Spark checks
 *   it: `authorization` is base64 of `api_key="…", algorithm="hmac-sha256", headers="host date
 *   request-line", signature="…"`, the signature the HMAC-SHA256 (API secret) of `host: …\n
 *   date: …\nGET /{version}/chat HTTP/1.1`, the date at most 5 minutes off; a refusal is an HTTP
 *   401/403 with `{"message": …}` instead of the upgrade;
 * - the one request message (`header.app_id`, `parameter.chat.domain` of the path's version,
 *   `payload.message.text`) is answered with frames `{header: {code, message, sid, status},
 *   payload: {choices: {status, seq, text}, usage}}`, status 2 (with `usage.text`) last, then
 *   the server closes; an error is a frame with a non-zero `header.code`.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_PROMPT_TOKENS, DEFAULT_TEXT, pieces, type ScriptEntry, ScriptQueue, type ScriptedReply, sleep } from './script';

export const XUNFEI_APP_ID = 'fakeapp1';
export const XUNFEI_API_SECRET = 'fakeApiSecret0001';
export const XUNFEI_API_KEY = 'fakeApiKey0001';
export const XUNFEI_KEY = `${XUNFEI_APP_ID}|${XUNFEI_API_SECRET}|${XUNFEI_API_KEY}`;

const DOMAINS: Record<string, string> = { 'v1.1': 'lite', 'v2.1': 'generalv2', 'v3.1': 'generalv3', 'v3.5': 'generalv3.5', 'v4.0': '4.0Ultra' };

export interface XunfeiRequest {
  path: string;
  query: URLSearchParams;
  /** The caller's port as the fake saw it (a proxy's, when the call came through one). */
  remotePort?: number;
  json: { header?: { app_id?: string }; parameter?: { chat?: Record<string, unknown> }; payload?: { message?: { text?: { role: string; content: string }[] } } };
}

export interface FakeXunfei {
  url: string;
  /** Upgrades refused (bad signature, stale date, unknown key). */
  refused: number;
  requests: XunfeiRequest[];
  script(...replies: ScriptEntry<XunfeiRequest>[]): void;
  close(): Promise<void>;
}

/** Spark's check of the signed URL: undefined when it holds, else the HTTP status and message. */
function urlProblem(req: IncomingMessage, url: URL): [number, string] | undefined {
  const auth = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString('utf8');
  const fields = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (fields.api_key !== XUNFEI_API_KEY) return [401, 'HMAC signature cannot be verified: fail to retrieve credential'];
  if (fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line') return [401, 'HMAC signature cannot be verified'];
  const date = url.searchParams.get('date') ?? '';
  if (!(Math.abs(Date.parse(date) - Date.now()) <= 300_000)) return [401, 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication'];
  const host = url.searchParams.get('host') ?? '';
  if (host !== req.headers.host) return [401, 'HMAC signature cannot be verified'];
  const expected = createHmac('sha256', XUNFEI_API_SECRET).update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`).digest('base64');
  return expected === fields.signature ? undefined : [403, 'HMAC signature does not match'];
}

function frame(sid: string, status: number, text: string, seq: number, usage?: Record<string, number>, code = 0, message = 'Success'): string {
  const out: Record<string, unknown> = { header: { code, message, sid, status } };
  if (code === 0) {
    const payload: Record<string, unknown> = { choices: { status, seq, text: [{ content: text, role: 'assistant', index: 0 }] } };
    if (usage) payload.usage = { text: usage };
    out.payload = payload;
  }
  return JSON.stringify(out);
}

async function answer(ws: WebSocket, reply: ScriptedReply): Promise<void> {
  const sid = `cht000fake${Date.now()}`;
  if (reply.error) {
    ws.send(frame(sid, 2, '', 0, undefined, Number(reply.error.code ?? 10013), reply.error.message));
    ws.close(1000);
    return;
  }
  const parts = pieces(reply.text ?? DEFAULT_TEXT);
  const prompt = reply.usage?.prompt ?? DEFAULT_PROMPT_TOKENS;
  const completion = reply.usage?.completion ?? parts.length;
  for (const [index, piece] of parts.entries()) {
    if (reply.streamErrorAfter !== undefined && index >= reply.streamErrorAfter) {
      ws.send(frame(sid, 2, '', index, undefined, 10013, '输入内容审核不通过，涉嫌违规，请重新调整输入内容'));
      ws.close(1000);
      return;
    }
    if (reply.delayMs && index > 0) await sleep(reply.delayMs);
    const last = index === parts.length - 1;
    const usage = last && !reply.noUsage ? { question_tokens: 4, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } : undefined;
    ws.send(frame(sid, last ? 2 : index === 0 ? 0 : 1, piece, index, usage));
  }
  ws.close(1000);
}

export async function startFakeXunfei(): Promise<FakeXunfei> {
  const queue = new ScriptQueue<XunfeiRequest>();
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Upgrade Required' }));
  });
  const wss = new WebSocketServer({ noServer: true });
  const fake: FakeXunfei = {
    url: '',
    refused: 0,
    requests: [],
    script: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const version = /^\/(v\d+\.\d+)\/chat$/.exec(url.pathname)?.[1];
    const problem = version ? urlProblem(req, url) : ([404, 'no Route matched with those values'] as [number, string]);
    if (problem) {
      fake.refused += 1;
      const body = JSON.stringify({ message: problem[1] });
      socket.end(
        `HTTP/1.1 ${problem[0]} ${problem[0] === 404 ? 'Not Found' : problem[0] === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once('message', (data: Buffer) => {
        let json: XunfeiRequest['json'];
        try {
          json = JSON.parse(data.toString('utf8')) as XunfeiRequest['json'];
        } catch {
          ws.send(frame('', 2, '', 0, undefined, 10163, 'request body is not a valid JSON'));
          ws.close(1000);
          return;
        }
        const request: XunfeiRequest = { path: url.pathname, query: url.searchParams, remotePort: req.socket.remotePort, json };
        fake.requests.push(request);
        if (json.header?.app_id !== XUNFEI_APP_ID) return void (ws.send(frame('', 2, '', 0, undefined, 10313, 'appid cannot match apikey')), ws.close(1000));
        if (json.parameter?.chat?.domain !== DOMAINS[version!]) return void (ws.send(frame('', 2, '', 0, undefined, 10404, 'domain does not match the version of the url')), ws.close(1000));
        if (!json.payload?.message?.text?.length) return void (ws.send(frame('', 2, '', 0, undefined, 10160, 'request text is empty')), ws.close(1000));
        void answer(ws, queue.next(request));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The channel form takes an http(s) base URL; the provider makes it ws(s).
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
