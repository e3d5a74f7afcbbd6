/**
 * The upstream call of a channel test (docs/channels.md#channel-test): one small non-stream request
 * for the test model through the channel's own provider adaptor and the relay's connection
 * pools (the same path real traffic takes), with the channel's key, base URL and model
 * mapping. Chat models get `hi`; embedding models get `["hello world"]`.
 */
import { channelFamily } from '../../../shared/channel-types';
import type { RelayChannel } from '../../relay/channels/channel-index';
import { fromUpstream, refuse, RelayError, transportError } from '../../relay/errors';
import { mapModel } from '../../relay/pipeline/attempt';
import { providerFor } from '../../relay/providers';
import { ChannelKeyError, ProviderRequestError, type RelayMode, type Usage } from '../../relay/providers/types';
import { authorize, channelKeyError } from '../../relay/pipeline/authorize';
import type { RelayRuntime } from '../../relay/runtime';
import { UpstreamAbort } from '../../relay/upstream/abort';
import { channelTarget } from '../../relay/pipeline/target';
import { countText, promptTokensFor } from '../../relay/pipeline/token-count';
import { WEBSOCKET_MESSAGES } from '../../relay/upstream/websocket';

/** A test never waits longer than this unless RELAY_TIMEOUT says otherwise (a hung upstream must not stall "test all"). */
export const TEST_TIMEOUT_MS = 60_000;
/** Answers bigger than this are not a plausible test reply. */
const ANSWER_LIMIT = 1024 * 1024;

export const MSG_PROBE = {
  noUsage: 'usage is nil',
  status: (status: number, message: string) => `status code ${status}: ${message}`,
} as const;

/** Embedding models are tested on the embeddings endpoint (MokaAI channels always). */
export function isEmbeddingModel(model: string, channelType: number): boolean {
  return channelFamily(channelType) === 'mokaai' || /embedding/i.test(model) || model.startsWith('m3e') || model.includes('bge-');
}

/** The reference's test body: the smallest answer each model family accepts. */
export function testRequestBody(model: string, mode: RelayMode): Record<string, unknown> {
  if (mode === 'embeddings') return { model, input: ['hello world'] };
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: 'hi' }], stream: false };
  if (model.startsWith('o1') || model.startsWith('o3')) body.max_completion_tokens = 10;
  else if (model.includes('thinking')) {
    // Claude's thinking models need room for their budget: no limit at all.
    if (!model.startsWith('claude')) body.max_tokens = 50;
  } else if (model.includes('gemini')) body.max_tokens = 300;
  else body.max_tokens = 10;
  return body;
}

export interface ProbeResult {
  usage: Usage;
  upstreamModel: string;
}

function asRelayError(err: unknown): RelayError {
  if (err instanceof RelayError) return err;
  if (err instanceof ProviderRequestError) return refuse(err.status, err.message, err.code);
  if (err instanceof ChannelKeyError) return channelKeyError(err);
  return transportError(err instanceof Error ? err.message : String(err));
}

/**
 * Sends the test request through the channel's proxy if it has one; throws a RelayError
 * (upstream, transport or local) when it did not pass. `stop` cancels it (the server closes).
 */
export async function probeChannel(rt: RelayRuntime, channel: RelayChannel, model: string, stop?: AbortSignal): Promise<ProbeResult> {
  const { upstreamModel } = mapModel(channel, model);
  const provider = providerFor(channel.type, upstreamModel);
  if (!provider) throw refuse(400, 'invalid api type', 'invalid_api_type');
  const mode: RelayMode = isEmbeddingModel(model, channel.type) ? 'embeddings' : 'chat';
  if (!provider.modes.has(mode)) throw refuse(400, `${mode} is not supported by this channel`, 'convert_request_failed');
  const target = channelTarget(rt, channel, model, upstreamModel);
  const relayTimeout = rt.ctx.config.relayTimeoutSeconds;
  const signal = new UpstreamAbort();
  // In AbortSignal.timeout's words, which the console shows as the test's failure.
  const timer = setTimeout(() => signal.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), relayTimeout > 0 ? relayTimeout * 1000 : TEST_TIMEOUT_MS);
  const onStop = () => signal.abort(stop?.reason instanceof Error ? stop.reason : undefined);
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  try {
    const body = testRequestBody(model, mode);
    const built = provider.buildRequest(mode, body, target, false);
    const up = provider.authorize ? await authorize(rt, provider, built, target) : built;
    const response = await rt.pools.request({ url: up.url, method: up.method, headers: up.headers, body: up.body, signal, proxy: channel.proxy });
    const text = await response.body.text(ANSWER_LIMIT);
    if (response.statusCode !== 200) {
      const error = provider.parseError(response.statusCode, text);
      throw fromUpstream({ ...error, message: MSG_PROBE.status(response.statusCode, error.message) });
    }
    // A WebSocket answer (Xunfei) is its messages as events: the provider reads them itself.
    let json: unknown = text;
    if (response.headers['content-type'] !== WEBSOCKET_MESSAGES) {
      try {
        json = JSON.parse(text);
      } catch {
        throw fromUpstream({ status: 500, message: 'invalid upstream response: not JSON', type: 'upstream_error', code: 'bad_response_body' });
      }
    }
    const parsed = provider.parseResponse(mode, json, target);
    if (parsed.error) throw fromUpstream(parsed.error);
    const usage = parsed.usage ?? (provider.usageCountedLocally ? { promptTokens: promptTokensFor(mode, body, model, false, {}), completionTokens: countText(parsed.text ?? '', model) } : undefined);
    if (!usage) throw fromUpstream({ status: 200, message: MSG_PROBE.noUsage, type: 'upstream_error', code: 'bad_response_body' });
    return { usage, upstreamModel: up.model ?? upstreamModel };
  } catch (err) {
    throw asRelayError(err);
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
}
