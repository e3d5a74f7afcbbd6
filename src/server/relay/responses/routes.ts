/**
 * `GET` and `DELETE /v1/responses/{id}`: a response stored here (converted) is answered from
 * the store; one an upstream stores (OpenAI, Azure) is read or deleted at the channel that
 * made it, with that channel's key. Either way only the token that made the response sees it:
 * for any other token (or an expired or unknown id) the answer is OpenAI's 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromUpstream, refuse, RelayError, transportError } from '../errors';
import { mapModel, mapStatus } from '../pipeline/attempt';
import { authenticateToken } from '../pipeline/token-auth';
import { ERROR_BODY_LIMIT, headerValue } from '../pipeline/upstream-body';
import { providerForChannelType } from '../providers';
import type { Target } from '../providers/types';
import type { RelayRuntime } from '../runtime';
import { UpstreamAbort } from '../upstream/abort';
import { responsesStore, type StoredResponse } from './store';

/** A stored Response is one JSON object; an answer beyond this is not one we relay. */
const STORED_ANSWER_LIMIT = 64 * 1024 * 1024;
const NUL_OR_SURROGATE = /[\0\p{Cs}]/u;

function notFound(id: string) {
  return refuse(404, `Response with id '${id}' not found.`, 'response_not_found', 'invalid_request_error');
}

export async function storedResponseRoute(rt: RelayRuntime, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, method: 'GET' | 'DELETE'): Promise<unknown> {
  const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
  const id = request.params.id;
  if (!id || id.length > 128 || NUL_OR_SURROGATE.test(id)) throw notFound(id.slice(0, 128));
  const store = responsesStore(rt);
  const stored = await store.find(id, auth.token.id);
  if (!stored) throw notFound(id);
  if (stored.channelId === 0) {
    if (method === 'GET') {
      if (!stored.data) throw notFound(id);
      return stored.data.response;
    }
    await store.remove(id, auth.token.id);
    return { id, object: 'response.deleted', deleted: true };
  }
  let answer;
  try {
    answer = await atUpstream(rt, stored, method);
  } catch (err) {
    // Gone upstream already (deleted there, or expired): the record points nowhere any more.
    if (method === 'DELETE' && err instanceof RelayError && err.status === 404) await store.remove(id, auth.token.id);
    throw err;
  }
  if (method === 'DELETE') await store.remove(id, auth.token.id);
  return reply.code(answer.status).header('content-type', answer.type).send(answer.text);
}

/** The same call at the channel that stores the response. */
async function atUpstream(rt: RelayRuntime, stored: StoredResponse, method: 'GET' | 'DELETE'): Promise<{ status: number; type: string; text: string }> {
  const channel = rt.channels.byId(stored.channelId);
  const provider = channel ? providerForChannelType(channel.type) : undefined;
  if (!channel || !provider?.storedResponseRequest) throw notFound(stored.id);
  const target: Target = {
    channelType: channel.type,
    baseUrl: channel.baseUrl,
    key: channel.key,
    requestModel: stored.model,
    upstreamModel: channel.modelMapping === null ? stored.model : mapModel(channel, stored.model).upstreamModel,
    other: channel.other,
    setting: channel.setting,
    options: rt.providerOptions(),
    ...(channel.organization ? { organization: channel.organization } : {}),
  };
  const up = provider.storedResponseRequest(method, stored.id, target);
  const signal = new UpstreamAbort();
  const timeout = rt.ctx.config.relayTimeoutSeconds;
  const timer = setTimeout(() => signal.abort(), (timeout > 0 ? timeout : 60) * 1000);
  try {
    let response;
    try {
      response = await rt.pools.request({ url: up.url, method: up.method, headers: up.headers, signal });
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
