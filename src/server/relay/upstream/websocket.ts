/**
 * Upstreams that answer over a WebSocket (Xunfei Spark): one connection per call, the request
 * body sent as one text message once it is open. Every message received becomes one SSE event
 * (`data:` lines) of an ordinary UpstreamBody, so the relay reads the answer with the same
 * stream and whole readers as an HTTP one; the upstream closing the socket ends the body.
 * A refused handshake answers its HTTP status, headers and body like any upstream error.
 * A channel with a proxy opens the socket through it (proxy-tunnel.ts), never direct.
 */
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import type WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';
import { UpstreamBody } from './body';
import { webSocketThroughProxy } from './proxy-tunnel';
import type { UpstreamCall, UpstreamResponse } from './call';

const WebSocketClass = packageOnFirstUse<typeof WebSocket>('ws');

/** The content type of a WebSocket answer: not `text/event-stream`, so a non-stream caller reads it whole. */
export const WEBSOCKET_MESSAGES = 'application/x-websocket-messages';
/** The opening handshake must complete within this. */
const HANDSHAKE_TIMEOUT_MS = 30_000;
/** Handshake refusals are short; anything longer is cut. */
const REFUSAL_LIMIT = 64 * 1024;

/** One message as the SSE event the relay's readers expect (a message's newlines become data lines). */
function asEvent(text: string): Buffer {
  return Buffer.from(`data: ${text.includes('\n') ? text.replace(/\r?\n/g, '\ndata: ') : text}\n\n`);
}

function refusal(res: IncomingMessage): Promise<UpstreamResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= REFUSAL_LIMIT) chunks.push(chunk);
    });
    const done = () => {
      const body = new UpstreamBody(
        () => undefined,
        () => undefined,
      );
      body.push(Buffer.concat(chunks));
      body.end();
      resolve({ statusCode: res.statusCode ?? 502, headers: res.headers, body });
    };
    res.on('end', done);
    res.on('error', done);
  });
}

export function websocketCall(call: UpstreamCall): Promise<UpstreamResponse> {
  return new Promise<UpstreamResponse>((resolve, reject) => {
    const options: WebSocket.ClientOptions = { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, perMessageDeflate: false };
    if (call.proxy) options.createConnection = webSocketThroughProxy(call.proxy, call.url.startsWith('wss:'));
    const socket = new (WebSocketClass())(call.url, options);
    let body: UpstreamBody | undefined;
    call.signal.bind((reason) => {
      socket.terminate();
      if (body) body.fail(reason);
      else reject(reason);
    });
    // Set once the handshake was refused: the socket's own close and error events then say nothing.
    let refused = false;
    socket.on('unexpected-response', (_request, res) => {
      refused = true;
      call.signal.bind(undefined);
      void refusal(res).then((response) => {
        resolve(response);
        socket.terminate();
      });
    });
    socket.on('open', () => {
      body = new UpstreamBody(
        () => socket.resume(),
        () => socket.terminate(),
      );
      const text = typeof call.body === 'string' ? call.body : call.body instanceof Uint8Array ? Buffer.from(call.body).toString('utf8') : '';
      socket.send(text);
      resolve({ statusCode: 200, headers: { 'content-type': WEBSOCKET_MESSAGES }, body });
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || !body) return;
      if (!body.push(asEvent(data.toString('utf8')))) socket.pause();
    });
    socket.on('close', (code) => {
      if (refused) return;
      call.signal.bind(undefined);
      if (!body) return reject(new Error(`websocket closed before it opened (code ${code})`));
      if (code === 1000 || code === 1005) body.end();
      else body.fail(new Error(`websocket closed abnormally (code ${code})`));
    });
    socket.on('error', (err) => {
      if (refused) return;
      call.signal.bind(undefined);
      if (body) body.fail(err);
      else reject(err);
    });
  });
}
