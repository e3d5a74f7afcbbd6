/**
 * Opening a Realtime session, before the client's upgrade is answered: the same steps as every
 * relay request (token, model rate limit, IP allow-list, model check, distributor, price,
 * reservation), then the upstream WebSocket, tried across channels by the relay's retry rules.
 * Anything refused here is an ordinary HTTP error to the client, and the reservation is given
 * back; once this answers, the session owns the reservation.
 */
import { packageOnFirstUse } from '../../plumbing/on-first-use';
import type WebSocket from 'ws';
import { channelTypeById } from '../../../shared/channel-types';
import { priceFor } from '../billing/price';
import type { RelayChannel } from '../channels/channel-index';
import { fromUpstream, refuse, RelayError, transportError } from '../errors';
import { providerForChannelType } from '../providers';
import type { Provider } from '../providers/types';
import type { RelayRuntime } from '../runtime';
import { mapModel } from '../pipeline/attempt';
import type { RelayCall, Route } from '../pipeline/call';
import { checkClientIp, distribute } from '../pipeline/distribute';
import { ENDPOINTS, requestedModel } from '../pipeline/endpoints';
import { checkModelRateLimit, type RateLimitTicket } from '../pipeline/hooks';
import { acrossChannels, reserve, tokenCaller } from '../pipeline/relay';
import { requestIdOf } from '../pipeline/request-context';
import { refund } from '../pipeline/settle';
import { channelTarget } from '../pipeline/target';
import { authenticateToken } from '../pipeline/token-auth';
import { ERROR_BODY_LIMIT } from '../pipeline/upstream-body';
import { webSocketThroughProxy } from '../upstream/proxy-tunnel';
import type { Handshake } from './handshake';

const WebSocketClass = packageOnFirstUse<typeof WebSocket>('ws');

/** How long the upstream may take to accept the WebSocket. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Largest event accepted from either side (audio chunks are base64 in JSON). */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

export interface OpenedSession {
  call: RelayCall;
  route: Route;
  upstream: WebSocket;
  ticket: RateLimitTicket;
}

export async function openRealtime(rt: RelayRuntime, hs: Handshake): Promise<OpenedSession> {
  const { ctx } = rt;
  const auth = await authenticateToken(ctx, rt.auth, hs.request, false);
  const ticket = await checkModelRateLimit(ctx, auth.user.id);
  try {
    checkClientIp(auth, hs.request.ip);
    const body = { model: hs.model };
    ENDPOINTS.realtime.validate(body);
    const model = requestedModel(ENDPOINTS.realtime, body);
    const caller = tokenCaller(auth, distribute(ctx, rt.channels, auth, model));
    const price = priceFor(ctx.options, { model, group: caller.group, userId: caller.userId, acceptUnset: caller.acceptUnset });
    const call: RelayCall = {
      requestId: requestIdOf(hs.request),
      startedAt: Date.now(),
      spec: ENDPOINTS.realtime,
      mode: 'realtime',
      body,
      rawBody: undefined,
      model,
      stream: true,
      includeUsage: false,
      maxTokens: 0,
      caller,
      price,
      promptTokens: () => 0,
      promptEstimate: () => 0,
      clientHeaders: {},
      clientQuery: hs.query,
      tried: [],
      reservation: undefined,
    };
    const reservation = await reserve(rt, call);
    call.reservation = reservation;
    try {
      const { route, upstream } = await acrossChannels(rt, call, (channel) => connect(rt, call, channel, hs.beta));
      return { call, route, upstream, ticket };
    } catch (err) {
      refund(rt, call, reservation);
      throw err;
    }
  } catch (err) {
    ticket.finish(err instanceof RelayError ? err.status : 500);
    throw err;
  }
}

function realtimeProvider(channel: RelayChannel): Provider & Required<Pick<Provider, 'realtimeRequest'>> {
  const provider = providerForChannelType(channel.type);
  if (!provider?.realtimeRequest) {
    throw refuse(400, `渠道类型 ${channelTypeById(channel.type)?.name ?? channel.type} 不支持 Realtime API；channel type not supported for realtime`, 'not_supported', 'invalid_request_error');
  }
  return provider as Provider & Required<Pick<Provider, 'realtimeRequest'>>;
}

async function connect(rt: RelayRuntime, call: RelayCall, channel: RelayChannel, beta: boolean): Promise<{ route: Route; upstream: WebSocket }> {
  const provider = realtimeProvider(channel);
  const { upstreamModel, mapped } = mapModel(channel, call.model);
  const up = provider.realtimeRequest(channelTarget(rt, channel, call.model, upstreamModel, { query: call.clientQuery }));
  const headers = beta ? { ...up.headers, 'OpenAI-Beta': 'realtime=v1' } : up.headers;
  const url = up.url.replace(/^http(s?):\/\//i, 'ws$1://');
  const upstream = await dial(provider, url, headers, channel.proxy);
  rt.health.succeeded(channel);
  return { route: { channel, upstreamModel: up.model ?? upstreamModel, isModelMapped: mapped, reasoningEffort: undefined, claudeUpstream: false }, upstream };
}

/** The upstream socket once open; an HTTP refusal becomes the upstream's error, as for any call. */
function dial(provider: Provider, url: string, headers: Record<string, string>, proxy: string | undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      const options: WebSocket.ClientOptions = { headers, handshakeTimeout: CONNECT_TIMEOUT_MS, maxPayload: MAX_EVENT_BYTES, followRedirects: false, perMessageDeflate: false };
      if (proxy) options.createConnection = webSocketThroughProxy(proxy, url.startsWith('wss:'));
      ws = new (WebSocketClass())(url, options);
    } catch (err) {
      reject(transportError(err instanceof Error ? err.message : String(err)));
      return;
    }
    const fail = (err: RelayError) => {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      reject(err);
    };
    ws.once('open', () => {
      ws.removeAllListeners();
      // Its first events (session.created) wait until the client's socket is there to take them.
      ws.pause();
      resolve(ws);
    });
    ws.once('error', (err) => fail(transportError(err.message)));
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < ERROR_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
      });
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_LIMIT);
        const status = res.statusCode ?? 502;
        fail(fromUpstream(provider.parseError(status, text)));
      };
      res.once('end', done);
      res.once('error', done);
    });
  });
}
