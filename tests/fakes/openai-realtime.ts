/**
 * A fake OpenAI / Azure Realtime upstream on 127.0.0.1 (ephemeral port), speaking the Realtime
 * API's events over a real WebSocket (`ws`): `session.created` on connect, `session.updated`
 * for `session.update`, `conversation.item.created` for `conversation.item.create`, and for
 * `response.create` the response's events (`response.created`, text and audio deltas and
 * their `.done`s) ending in `response.done` with the next scripted usage.
 *
 * The key is checked as OpenAI (`Authorization: Bearer`) and Azure (`api-key`) check it: a
 * wrong one gets a 401 with OpenAI's error body and no upgrade. Every connection is kept with
 * its handshake, the events it received and how it closed. A `response.create` whose
 * `response.instructions` is `hold` gets no answer (a response still running).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface RealtimeUsageScript {
  input_tokens: number;
  output_tokens: number;
  input_token_details: { text_tokens: number; audio_tokens: number; cached_tokens: number; cached_tokens_details?: { text_tokens: number; audio_tokens: number } };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

export interface RealtimeConnection {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The port the caller's connection came from (which proxy tunnel carried it: helpers/proxies.ts). */
  remotePort: number | undefined;
  /** Events received from the relay, parsed. */
  received: Record<string, unknown>[];
  /** Resolves with the close code once the socket closed. */
  closed: Promise<number>;
  socket: WebSocket;
}

export interface FakeRealtime {
  /** http://127.0.0.1:port (a channel's base URL). */
  url: string;
  connections: RealtimeConnection[];
  /** Usages of the next responses, in order; then `defaultUsage`. */
  usages: RealtimeUsageScript[];
  defaultUsage: RealtimeUsageScript;
  close(): Promise<void>;
}

export const DEFAULT_REALTIME_USAGE: RealtimeUsageScript = {
  input_tokens: 100,
  output_tokens: 50,
  input_token_details: { text_tokens: 60, audio_tokens: 40, cached_tokens: 20, cached_tokens_details: { text_tokens: 20, audio_tokens: 0 } },
  output_token_details: { text_tokens: 10, audio_tokens: 40 },
};

let seq = 0;
const id = (prefix: string) => `${prefix}_${++seq}`;

function answer(ws: WebSocket, fake: FakeRealtime, event: Record<string, unknown>, model: string): void {
  const send = (e: Record<string, unknown>) => ws.send(JSON.stringify({ event_id: id('event'), ...e }));
  switch (event.type) {
    case 'session.update':
      send({ type: 'session.updated', session: { id: 'sess_fake', object: 'realtime.session', model, ...(event.session as object) } });
      return;
    case 'conversation.item.create':
      send({ type: 'conversation.item.created', previous_item_id: null, item: { id: id('item'), ...(event.item as object) } });
      return;
    case 'response.create': {
      if ((event.response as { instructions?: string } | undefined)?.instructions === 'hold') return;
      const responseId = id('resp');
      const itemId = id('item');
      const usage = fake.usages.shift() ?? fake.defaultUsage;
      send({ type: 'response.created', response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [], usage: null } });
      for (const delta of ['Hello', ' from', ' the fake']) send({ type: 'response.output_text.delta', response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, delta });
      send({ type: 'response.output_text.done', response_id: responseId, item_id: itemId, output_index: 0, content_index: 0, text: 'Hello from the fake' });
      send({ type: 'response.output_audio.delta', response_id: responseId, item_id: itemId, output_index: 0, content_index: 1, delta: Buffer.from('pcm16-audio').toString('base64') });
      send({
        type: 'response.done',
        response: { id: responseId, object: 'realtime.response', status: 'completed', output: [], usage: { total_tokens: usage.input_tokens + usage.output_tokens, ...usage } },
      });
      return;
    }
    default:
  }
}

export async function startFakeRealtime(keys: string[] = ['sk-fake-good']): Promise<FakeRealtime> {
  const http = createServer((_req, res) => {
    res.writeHead(426).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  const fake: FakeRealtime = { url: '', connections: [], usages: [], defaultUsage: DEFAULT_REALTIME_USAGE, close: async () => undefined };
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = req.headers['api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
    if (typeof key !== 'string' || !keys.includes(key)) {
      const body = JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? '';
      const connection: RealtimeConnection = {
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        remotePort: req.socket.remotePort,
        received: [],
        closed: new Promise((resolve) => ws.once('close', (code) => resolve(code))),
        socket: ws,
      };
      fake.connections.push(connection);
      ws.on('message', (data) => {
        const event = JSON.parse(data.toString()) as Record<string, unknown>;
        connection.received.push(event);
        answer(ws, fake, event, model);
      });
      ws.send(JSON.stringify({ type: 'session.created', event_id: id('event'), session: { id: 'sess_fake', object: 'realtime.session', model, output_modalities: ['audio'] } }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return fake;
}
