/**
 * `POST /v1/messages/count_tokens` (Claude's token counting; Claude Code calls it): the
 * prompt count of a Messages body as `{input_tokens}`. Authenticated and checked like
 * `/v1/messages` (x-api-key or Bearer; a bad body is a 400 in Claude's shape), routed like it
 * (model limits, group, a channel for the model), and never billed: a Claude channel is asked
 * for its own count (Anthropic does not charge for it either), every other channel's model is
 * counted here with the project's tokenizer, without an upstream call. When the Claude
 * channel's count fails (error, timeout, unreadable answer) the local count answers instead:
 * the count is advisory, and a channel's trouble is not the client's.
 */
import type { RelayChannel } from './channels/channel-index';
import { providerFor } from './providers';
import type { RelayRuntime } from './runtime';
import { UpstreamAbort } from './upstream/abort';
import { parseJsonBody } from './pipeline/body';
import { mapModel } from './pipeline/attempt';
import { checkClientIp, distribute } from './pipeline/distribute';
import { ENDPOINTS, requestedModel } from './pipeline/endpoints';
import type { RelayRequest } from './pipeline/exchange';
import { clientHeaders } from './pipeline/relay';
import { promptTokensFor } from './pipeline/token-count';
import { authenticateToken } from './pipeline/token-auth';
import { ERROR_BODY_LIMIT } from './pipeline/upstream-body';
import { channelTarget } from './pipeline/target';
import { authorize } from './pipeline/authorize';

/** A count is a quick question: a slow upstream is not waited for beyond this. */
const UPSTREAM_COUNT_TIMEOUT_MS = 15_000;

export async function countClaudeTokens(rt: RelayRuntime, request: RelayRequest): Promise<{ input_tokens: number }> {
  const auth = await authenticateToken(rt.ctx, rt.auth, request, true);
  checkClientIp(auth, request.ip);
  const { body } = parseJsonBody(request);
  const spec = ENDPOINTS.countClaudeTokens;
  spec.validate(body);
  const model = requestedModel(spec, body);
  const { group, forced } = distribute(rt.ctx, rt.channels, auth, model);
  const channel = forced ?? rt.channels.pick(group, model, 0, new Set());
  const upstream = channel ? await upstreamCount(rt, channel, model, body, request) : undefined;
  return { input_tokens: upstream ?? promptTokensFor('messages', body, model, false, rt.ctx.config) };
}

/** The channel's own count, or undefined when it has none or did not give one. */
async function upstreamCount(rt: RelayRuntime, channel: RelayChannel, model: string, body: Record<string, unknown>, request: RelayRequest): Promise<number | undefined> {
  if (channel.modelMapping === null) return undefined;
  const { upstreamModel } = mapModel(channel, model);
  const provider = providerFor(channel.type, upstreamModel);
  if (!provider?.countTokensRequest) return undefined;
  const target = channelTarget(rt, channel, model, upstreamModel, { headers: clientHeaders(request) });
  const controller = new UpstreamAbort();
  const timer = setTimeout(() => controller.abort(), UPSTREAM_COUNT_TIMEOUT_MS);
  try {
    const built = provider.countTokensRequest(body, target);
    const up = provider.authorize ? await authorize(rt, provider, built, target) : built;
    const response = await rt.pools.request({ url: up.url, method: up.method, headers: up.headers, body: up.body, signal: controller, proxy: channel.proxy });
    const text = await response.body.text(ERROR_BODY_LIMIT);
    if (response.statusCode < 200 || response.statusCode >= 300) return undefined;
    const count = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
    return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
