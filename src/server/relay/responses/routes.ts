/**
 * `GET` and `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`: a response
 * stored here (converted) is answered from the store; one an upstream stores (OpenAI, Azure)
 * is read or deleted at the channel that made it, with that channel's key. Either way only the
 * token that made the response sees it: for any other token (or an expired or unknown id) the
 * answer is OpenAI's 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromUpstream, refuse, RelayError, transportError } from '../errors';
import { mapModel, mapStatus } from '../pipeline/attempt';
import { authenticateToken } from '../pipeline/token-auth';
import { ERROR_BODY_LIMIT, headerValue } from '../pipeline/upstream-body';
import { providerForChannelType } from '../providers';
import { type JsonObject, isRecord } from '../providers/common/json';
import type { RelayRuntime } from '../runtime';
import { UpstreamAbort } from '../upstream/abort';
import { responsesStore, type StoredResponse } from './store';
import { channelTarget } from '../pipeline/target';

/** A stored Response is one JSON object; an answer beyond this is not one we relay. */
const STORED_ANSWER_LIMIT = 64 * 1024 * 1024;
const NUL_OR_SURROGATE = /[\0\p{Cs}]/u;

function notFound(id: string) {
  return refuse(404, `Response with id '${id}' not found.`, 'response_not_found', 'invalid_request_error');
}

/** What a call does with the stored response. */
export type StoredAction = 'GET' | 'DELETE' | 'INPUT_ITEMS';

const LIST_QUERY = ['limit', 'after', 'order'] as const;

/** The list query the client gave (text values only): passed on, or applied to a stored list. */
function listQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const q = isRecord(query) ? query : {};
  for (const key of LIST_QUERY) if (typeof q[key] === 'string') out[key] = q[key];
  return out;
}

/**
 * One page of a stored response's input items, as OpenAI lists them: newest first unless
 * `order=asc`, `limit` 1–100 (20), `after` an item id. Items sent without an id get one from
 * their position, so the same item has the same id on every read.
 */
export function inputItemPage(responseId: string, input: readonly JsonObject[], query: Record<string, string>): JsonObject {
  const items = input.map((item, i) => (typeof item.id === 'string' ? item : { ...item, id: `item_${responseId.replace(/^resp_/, '')}_${i}` }));
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw refuse(400, 'limit must be a whole number from 1 to 100', 'invalid_request', 'invalid_request_error');
  if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc') throw refuse(400, "order must be 'asc' or 'desc'", 'invalid_request', 'invalid_request_error');
  const list = query.order === 'asc' ? items : [...items].reverse();
  let start = 0;
  if (query.after !== undefined) {
    const at = list.findIndex((item) => item.id === query.after);
    if (at === -1) throw refuse(400, `No item with id '${query.after}' in this response`, 'invalid_request', 'invalid_request_error');
    start = at + 1;
  }
  const page = list.slice(start, start + limit);
  return { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: start + limit < list.length };
}

export async function storedResponseRoute(rt: RelayRuntime, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, method: StoredAction): Promise<unknown> {
  const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
  const id = request.params.id;
  if (!id || id.length > 128 || NUL_OR_SURROGATE.test(id)) throw notFound(id.slice(0, 128));
  const store = responsesStore(rt);
  const stored = await store.find(id, auth.token.id);
  if (!stored) throw notFound(id);
  if (stored.channelId === 0) {
    if (method === 'GET' || method === 'INPUT_ITEMS') {
      if (!stored.data) throw notFound(id);
      return method === 'GET' ? stored.data.response : inputItemPage(id, stored.data.input, listQuery(request.query));
    }
    await store.remove(id, auth.token.id);
    return { id, object: 'response.deleted', deleted: true };
  }
  let answer;
  try {
    answer = await atUpstream(rt, stored, method, method === 'INPUT_ITEMS' ? listQuery(request.query) : undefined);
  } catch (err) {
    // Gone upstream already (deleted there, or expired): the record points nowhere any more.
    if (method === 'DELETE' && err instanceof RelayError && err.status === 404) await store.remove(id, auth.token.id);
    throw err;
  }
  if (method === 'DELETE') await store.remove(id, auth.token.id);
  return reply.code(answer.status).header('content-type', answer.type).send(answer.text);
}

/** The same call at the channel that stores the response. */
async function atUpstream(rt: RelayRuntime, stored: StoredResponse, action: StoredAction, inputItems: Record<string, string> | undefined): Promise<{ status: number; type: string; text: string }> {
  const channel = rt.channels.byId(stored.channelId);
  const provider = channel ? providerForChannelType(channel.type) : undefined;
  if (!channel || !provider?.storedResponseRequest) throw notFound(stored.id);
  const target = channelTarget(rt, channel, stored.model, channel.modelMapping === null ? stored.model : mapModel(channel, stored.model).upstreamModel);
  const up = provider.storedResponseRequest(action === 'DELETE' ? 'DELETE' : 'GET', stored.id, target, inputItems);
  const signal = new UpstreamAbort();
  const timeout = rt.ctx.config.relayTimeoutSeconds;
  const timer = setTimeout(() => signal.abort(), (timeout > 0 ? timeout : 60) * 1000);
  try {
    let response;
    try {
      response = await rt.pools.request({ url: up.url, method: up.method, headers: up.headers, signal, proxy: channel.proxy });
    } catch (err) {
      throw transportError(err instanceof Error ? err.message : String(err));
    }
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const text = await response.body.text(ok ? STORED_ANSWER_LIMIT : ERROR_BODY_LIMIT).catch((err: unknown) => {
      throw transportError(err instanceof Error ? err.message : String(err));
    });
    if (!ok) throw mapStatus(channel, fromUpstream(provider.parseError(response.statusCode, text)));
    return { status: response.statusCode, type: headerValue(response.headers, 'content-type') ?? 'application/json', text };
  } finally {
    clearTimeout(timer);
  }
}
