/**
 * What a Realtime upgrade request says, read before anything else: the key (the
 * `Authorization` header, `api-key` as Azure clients send it, or the subprotocol
 * `openai-insecure-api-key.<key>` that browser clients must use), the model (`?model=`, or
 * Azure's `?deployment=`), and the subprotocol answered back, never the one with the key.
 */
import type { IncomingMessage } from 'node:http';
import type { RelayRequest } from '../pipeline/exchange';

/** The paths served: OpenAI's and Azure's. */
export const REALTIME_PATHS: ReadonlySet<string> = new Set(['/v1/realtime', '/openai/realtime']);

const KEY_PROTOCOL = 'openai-insecure-api-key.';
/** The subprotocol that asks for the beta interface (the header `OpenAI-Beta: realtime=v1`). */
const BETA_PROTOCOL = 'openai-beta.realtime-v1';

export interface Handshake {
  /** The view the token check and the distributor read. */
  request: RelayRequest;
  /** '' when the query names none. */
  model: string;
  /** The client asked for the beta interface: the upstream is asked for it too. */
  beta: boolean;
  /** The query the provider may read (Azure's api-version). */
  query: Record<string, string>;
}

export function offeredProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  return raw
    ? raw
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
}

/** The protocol the server answers with, from those offered: never the key's. */
export function answeredProtocol(offered: ReadonlySet<string>): string | false {
  for (const p of ['realtime', BETA_PROTOCOL]) if (offered.has(p)) return p;
  return false;
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

export function readHandshake(req: IncomingMessage, url: URL, ip: string): Handshake {
  const offered = offeredProtocols(req);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
  const headers = { ...req.headers };
  // The key goes where the token check reads it; the header wins over the subprotocol.
  const protocolKey = offered.find((p) => p.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length) ?? '';
  const key = first(req.headers.authorization) || (first(req.headers['api-key']) ? `Bearer ${first(req.headers['api-key'])}` : '') || (protocolKey ? `Bearer ${protocolKey}` : '');
  headers.authorization = key;
  delete headers['sec-websocket-protocol'];
  const beta = offered.includes(BETA_PROTOCOL) || /realtime=v1/i.test(first(req.headers['openai-beta']));
  return {
    request: { headers, body: undefined, ip, query },
    model: (url.pathname === '/openai/realtime' ? query.deployment || query.model : query.model || query.deployment) ?? '',
    beta,
    query,
  };
}
