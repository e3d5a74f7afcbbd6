/**
 * `GET /v1/realtime` (and Azure's `/openai/realtime`) on the Node server's `upgrade` event:
 * Fastify serves no WebSockets, so upgrades come here. The session is opened (token, checks,
 * reservation, upstream socket) before the client's upgrade is answered, so every refusal is
 * a plain HTTP error in OpenAI's shape; then `ws` completes the handshake and the session runs.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import { openaiErrorBody, refuse, type RelayError } from '../errors';
import type { RelayRuntime } from '../runtime';
import { assignRequestId } from '../pipeline/request-context';
import { REQUEST_ID_HEADER } from '../request-id';
import { toRelayError } from '../routes';
import { answeredProtocol, readHandshake, REALTIME_PATHS } from './handshake';
import { MAX_EVENT_BYTES, openRealtime, type OpenedSession } from './open';
import { RealtimeSession } from './session';
import { refund } from '../pipeline/settle';
import { onFirstUse, packageOnFirstUse } from '../../plumbing/on-first-use';

const wsPackage = packageOnFirstUse<typeof import('ws')>('ws');

export interface RealtimeRelay {
  /** Sessions running now. */
  readonly sessions: ReadonlySet<RealtimeSession>;
  /** Refuses new sessions and ends (and settles) the running ones. */
  close(): void;
}

/** A WebSocket handshake `ws` will accept (checked before anything is reserved). */
function isWebSocketHandshake(req: IncomingMessage): boolean {
  const key = req.headers['sec-websocket-key'];
  return (
    req.method === 'GET' && req.headers.upgrade?.toLowerCase() === 'websocket' && req.headers['sec-websocket-version'] === '13' && typeof key === 'string' && /^[+/0-9A-Za-z]{22}==$/.test(key.trim())
  );
}

function writeError(socket: Duplex, error: RelayError, requestId: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(openaiErrorBody(error, requestId));
  const lines = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    ...(error.retryAfter !== undefined ? [`Retry-After: ${error.retryAfter}`] : []),
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export function attachRealtime(rt: RelayRuntime, server: Server): RealtimeRelay {
  const sessions = new Set<RealtimeSession>();
  let closing = false;
  // The client's address as Fastify reads it: through the trusted proxies' X-Forwarded-For.
  const trusted = rt.ctx.config.trustedProxies;
  const trust = trusted.length > 0 ? proxyAddr.compile(trusted) : undefined;
  // Made at the first upgrade: a node no realtime client reaches never loads `ws`.
  let made = false;
  const wss = onFirstUse(() => {
    made = true;
    return new (wsPackage().WebSocketServer)({ noServer: true, maxPayload: MAX_EVENT_BYTES, perMessageDeflate: false, handleProtocols: (offered) => answeredProtocol(offered) });
  });

  /** The session was opened but the client is gone before its upgrade: nothing was used. */
  function abandon(opened: OpenedSession): void {
    opened.upstream.terminate();
    opened.ticket.finish(499);
    refund(rt, opened.call, opened.call.reservation!);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ip = trust ? proxyAddr(req, trust) : (req.socket.remoteAddress ?? '');
    const hs = readHandshake(req, url, ip);
    const requestId = assignRequestId(hs.request);
    if (!REALTIME_PATHS.has(url.pathname.replace(/\/+$/, ''))) {
      writeError(socket, refuse(404, `Invalid URL (${req.method ?? 'GET'} ${url.pathname})`, 'invalid_request_error'), requestId);
      return;
    }
    if (closing) {
      writeError(socket, refuse(503, 'server is shutting down', 'server_closing'), requestId);
      return;
    }
    if (!isWebSocketHandshake(req)) {
      writeError(socket, refuse(400, 'invalid WebSocket handshake', 'invalid_request'), requestId);
      return;
    }
    openRealtime(rt, hs).then(
      (opened) => {
        if (closing || socket.destroyed || !socket.readable || !socket.writable) {
          abandon(opened);
          if (!socket.destroyed) writeError(socket, refuse(503, 'server is shutting down', 'server_closing'), requestId);
          return;
        }
        wss().handleUpgrade(req, socket, head, (client) => {
          const session = new RealtimeSession(rt, opened, client, (s) => sessions.delete(s));
          sessions.add(session);
          session.start();
        });
      },
      (err: unknown) => writeError(socket, toRelayError(err, hs.request, rt), requestId),
    );
  });

  return {
    sessions,
    close() {
      closing = true;
      for (const session of [...sessions]) session.end('interrupted', { code: 1001, reason: 'server is shutting down' });
      if (made) wss().close();
    },
  };
}
