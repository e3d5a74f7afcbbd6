/**
 * One relay request from start to end:
 *
 *   token (memory) → model rate limit → IP allow-list → body → checks → distributor (memory)
 *   → sensitive words → price (memory) → reservation (the only database write before the
 *   call, group-committed) → attempts across priority tiers → settlement (queued, not awaited)
 *
 * The reservation is given back exactly once when no answer was delivered; an answer that
 * was delivered, even in part, is billed for what was delivered.
 */
import type { RelayReply, RelayRequest } from './exchange';
import { formatQuota } from '../../../shared/quota';
import { quotaDisplay } from '../../services/options/quota-display';
import { estimateQuota } from '../billing/formula';
import { imageQuota, imageRequestOf } from '../billing/image-price';
import { priceFor } from '../billing/price';
import { refuse, RelayError } from '../errors';
import { isDatabaseUnavailable } from '../../db/unavailable';
import type { RelayChannel } from '../channels/channel-index';
import type { RelayRuntime } from '../runtime';
import { attempt } from './attempt';
import { parseJsonBody, parseMultipartBody, type ParsedBody } from './body';
import type { Caller, Delivered, RelayCall } from './call';
import { checkClientIp, distribute, noChannelMessage, type Distribution } from './distribute';
import { maxTokensOf, requestedModel, type EndpointSpec } from './endpoints';
import { checkModelRateLimit, checkSensitiveWords } from './hooks';
import { finalError, shouldRetry } from './retry';
import { refund, settleDelivered, type Reservation } from './settle';
import { authenticateToken, type TokenAuth } from './token-auth';
import { promptEstimateFor, promptTokensFor } from './token-count';
import { requestIdOf } from './request-context';
import { prepareResponses } from '../responses/exchange';
import type { RelayMetrics } from '../../metrics/relay-metrics';

function firstHeader(request: RelayRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Client headers a provider may honour; nothing else (and never the client's credentials) goes on. */
export function clientHeaders(request: RelayRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const v = firstHeader(request, name);
    if (v) out[name] = v;
  }
  return out;
}

function clientQuery(request: RelayRequest): Record<string, string> {
  const q = request.query as Record<string, unknown> | undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

export async function readRelayBody(spec: EndpointSpec, request: RelayRequest): Promise<ParsedBody> {
  return spec.multipart ? parseMultipartBody(request) : parseJsonBody(request);
}

/** `/v1/...` with an sk- token. */
export async function relayWithToken(rt: RelayRuntime, spec: EndpointSpec, request: RelayRequest, reply: RelayReply): Promise<void> {
  const { ctx } = rt;
  let ticket: Awaited<ReturnType<typeof checkModelRateLimit>> | undefined;
  // Whether runCall took the request (it counts its own ends for the metrics).
  let staged = false;
  try {
    const auth = await authenticateToken(ctx, rt.auth, request, spec.clientFormat === 'claude');
    ticket = await checkModelRateLimit(ctx, auth.user.id);
    checkClientIp(auth, request.ip);
    const parsed = await readRelayBody(spec, request);
    spec.validate(parsed.body);
    const model = requestedModel(spec, parsed.body);
    const caller = tokenCaller(auth, distribute(ctx, rt.channels, auth, model));
    staged = true;
    await runCall(rt, spec, request, reply, caller, parsed, model);
    ticket.finish(reply.statusCode);
  } catch (err) {
    const status = err instanceof RelayError ? err.status : 500;
    // Failures from runCall on were counted there, with their channel and model.
    if (!staged) rt.metrics?.refused(status);
    ticket?.finish(status);
    throw err;
  }
}

/** Who calls, once the token is known and the distributor answered. */
export function tokenCaller(auth: TokenAuth, { group, forced }: Distribution): Caller {
  return {
    userId: auth.user.id,
    username: auth.user.username,
    userGroup: auth.user.group,
    role: auth.user.role,
    acceptUnset: auth.user.acceptUnsetRatio,
    userSetting: auth.user.setting,
    tokenId: auth.token.id,
    tokenName: auth.token.name,
    tokenLimited: !auth.token.unlimited,
    group,
    forced,
  };
}

/**
 * Everything after the caller is known (shared with the playground); resolves once the answer
 * went out with the milliseconds to a stream's first event (0: a whole answer). Without
 * metrics it is the call itself, not one step more. With them, every end of it is counted once
 * here: by the channel that answered or failed last (none when the request was refused before
 * any was tried), its model and the status sent.
 */
export function runCall(rt: RelayRuntime, spec: EndpointSpec, request: RelayRequest, reply: RelayReply, caller: Caller, parsed: ParsedBody, model: string): Promise<number> {
  const tried: number[] = [];
  const startedAt = Date.now();
  const call = callUpstream(rt, spec, request, reply, caller, parsed, model, startedAt, tried);
  return rt.metrics ? measured(rt.metrics, call, { model, reply, tried, startedAt }) : call;
}

/** The call counted in the metrics when it ends, however it ends. */
async function measured(metrics: RelayMetrics, call: Promise<number>, { model, reply, tried, startedAt }: { model: string; reply: RelayReply; tried: number[]; startedAt: number }): Promise<number> {
  let firstByteMs: number;
  try {
    firstByteMs = await call;
  } catch (err) {
    const ms = Date.now() - startedAt;
    metrics.answered(tried.at(-1) ?? 0, model, err instanceof RelayError ? err.status : 500, ms, ms);
    throw err;
  }
  // The channel that answered is the last one tried; a whole answer is written at once, so
  // its first byte is its end.
  const ms = Date.now() - startedAt;
  metrics.answered(tried.at(-1) ?? 0, model, reply.raw.statusCode, firstByteMs || ms, ms);
  return firstByteMs;
}

/** The call from the sensitive words to the settlement; `tried` becomes the call's list of channels tried. */
async function callUpstream(
  rt: RelayRuntime,
  spec: EndpointSpec,
  request: RelayRequest,
  reply: RelayReply,
  caller: Caller,
  parsed: ParsedBody,
  model: string,
  startedAt: number,
  tried: number[],
): Promise<number> {
  const { ctx } = rt;
  checkSensitiveWords(ctx, spec.mode, parsed.body, rt.log);
  const price = priceFor(ctx.options, { model, group: caller.group, userId: caller.userId, acceptUnset: caller.acceptUnset });
  const body = parsed.body;
  const stream = spec.stream ?? body.stream === true;
  let prompt: number | undefined;
  const call: RelayCall = {
    requestId: requestIdOf(request),
    startedAt,
    spec,
    mode: spec.mode,
    body,
    rawBody: parsed.raw,
    model,
    stream,
    includeUsage: stream && (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true,
    maxTokens: maxTokensOf(body),
    caller,
    price,
    promptTokens: () => (prompt ??= promptTokensFor(spec.mode, body, model, stream, rt.ctx.config)),
    promptEstimate: () => prompt ?? promptEstimateFor(spec.mode, body, model, stream, rt.ctx.config),
    clientHeaders: clientHeaders(request),
    clientQuery: clientQuery(request),
    tried,
    reservation: undefined,
    ...(parsed.audioSeconds !== undefined ? { audioSeconds: parsed.audioSeconds } : {}),
  };
  if (call.mode === 'responses') await prepareResponses(rt, call);
  const reservation = await reserve(rt, call);
  call.reservation = reservation;
  let delivered: Delivered;
  try {
    delivered = await runAttempts(rt, call, reply);
  } catch (err) {
    refund(rt, call, reservation);
    throw err;
  }
  if (call.tried.length > 1) rt.log.info(`重试：${call.tried.join('->')} (request id: ${call.requestId})`);
  settleDelivered(rt, call, reservation, delivered);
  return delivered.firstResponseMs;
}

export function estimateOf(rt: RelayRuntime, call: RelayCall): number {
  const preConsumed = rt.ctx.options.number('PreConsumedQuota');
  if (call.mode === 'images') return imageQuota(imageRequestOf(call.model, call.body), call.price);
  if (call.mode === 'speech' || call.mode === 'transcriptions' || call.mode === 'translations') return estimateQuota(call.price, 0, 0, preConsumed);
  return estimateQuota(call.price, call.maxTokens > 0 ? call.promptTokens() : 0, call.maxTokens, preConsumed);
}

/** The estimate taken before the call (docs/billing.md#reservation), refused in the reference's words. */
export async function reserve(rt: RelayRuntime, call: RelayCall, amount = estimateOf(rt, call)): Promise<Reservation> {
  let result;
  try {
    result = await rt.ledger.reserve({ userId: call.caller.userId, tokenId: call.caller.tokenId, tokenLimited: call.caller.tokenLimited, amount });
  } catch (err) {
    // An unreachable database is told once, by the ledger; anything else per request.
    const down = isDatabaseUnavailable(err);
    if (!down) rt.log.error(`reservation failed: ${err instanceof Error ? err.message : String(err)}`);
    throw refuse(down ? 503 : 500, '数据库错误，请稍后重试', 'pre_consume_failed');
  }
  if (result.ok) {
    rt.auth.adjustRemain(call.caller.tokenId, -amount);
    return { id: result.id, amount };
  }
  const display = quotaDisplay(rt.ctx);
  const q = (n: number) => formatQuota(n, display);
  if (result.reason === 'token') {
    throw refuse(403, `token quota is not enough, token remain quota: ${q(result.remain)}, need quota: ${q(amount)}`, 'pre_consume_token_quota_failed');
  }
  if (result.quota <= 0) throw refuse(403, 'user quota is not enough', 'insufficient_user_quota');
  const what = call.mode === 'images' ? 'image' : 'chat';
  throw refuse(403, `${what} pre-consumed quota failed, user quota: ${q(result.quota)}, need quota: ${q(amount)}`, 'insufficient_user_quota');
}

function runAttempts(rt: RelayRuntime, call: RelayCall, reply: RelayReply): Promise<Delivered> {
  return acrossChannels(rt, call, (channel) => attempt(rt, call, channel, reply));
}

/** `tryOne` across priority tiers until one answers or the retry rules stop (docs/relay.md#retries). */
export async function acrossChannels<T>(rt: RelayRuntime, call: RelayCall, tryOne: (channel: RelayChannel) => Promise<T>): Promise<T> {
  const retryTimes = Math.max(0, rt.ctx.options.number('RetryTimes'));
  const forced = call.caller.forced;
  for (let n = 0; ; n++) {
    const channel: RelayChannel | undefined = n === 0 && forced ? forced : rt.channels.pick(call.caller.group, call.model, n, new Set(call.tried));
    if (!channel) throw refuse(503, noChannelMessage(call.caller.group, call.model), 'model_not_found');
    call.tried.push(channel.id);
    try {
      return await tryOne(channel);
    } catch (err) {
      if (!(err instanceof RelayError)) throw err;
      if (!err.local) rt.health.failed(channel, err);
      if (!shouldRetry(err, { attempts: n + 1, retryTimes, forcedChannel: forced !== undefined, channelType: channel.type })) throw finalError(err);
      rt.metrics?.retried(channel.id);
    }
  }
}
