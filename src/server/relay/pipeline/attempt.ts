/**
 * One upstream attempt on one channel: model mapping, the provider's request, the call
 * through the origin's connection pool, and the answer — streamed, passed through as bytes
 * (speech) or read whole and converted. Throws a RelayError while nothing was sent to the
 * client (the retry loop decides); answers the outcome once the client got an answer.
 */
import { embeddingsInBase64 } from '../providers/common/embedding-encoding';
import { headerList, type RelayReply } from './exchange';
import { channelFamily } from '../../../shared/channel-types';
import { claudeMessageFromOpenAI, ClaudeStreamFromOpenAI, openaiRequestFromClaude } from '../formats/claude-openai';
import { geminiViaOpenAI, type GeminiReturn } from '../formats/gemini-openai';
import { providerFor } from '../providers';
import { ChannelKeyError, ProviderRequestError, type ParsedResponse, type Provider, type RelayMode, type Target, type UpstreamRequest, type Usage } from '../providers/types';
import { clientGoneError, fromUpstream, refuse, RelayError, transportError } from '../errors';
import type { RelayChannel } from '../channels/channel-index';
import type { RelayRuntime } from '../runtime';
import type { UpstreamResponse } from '../upstream/call';
import { ClientGone, UpstreamAbort } from '../upstream/abort';
import { audioPromptTokens } from '../billing/audio-duration';
import { imageLogExtra, imageQuota, imageRequestOf } from '../billing/image-price';
import { delivered, type Delivered, type RelayCall, type Route } from './call';
import { relayStream } from './stream-relay';
import { journalStreamProgress } from './settle';
import { JsonArrayFraming } from '../stream/json-array';
import { SseParser } from '../stream/sse-parser';
import { countText } from './token-count';
import { ERROR_BODY_LIMIT, headerValue, retryAfterSeconds } from './upstream-body';
import { responsesInput, type ResponsesBridge } from '../responses/exchange';
import { channelTarget } from './target';
import { authorize, channelKeyError } from './authorize';

const JSON_MODES: ReadonlySet<RelayMode> = new Set(['chat', 'completions', 'embeddings', 'moderations', 'rerank', 'images', 'messages', 'speech', 'responses']);

/** Claude upstreams bill with the reference's Claude formula (docs/billing.md#settlement-formula). */
function isClaudeUpstream(channel: RelayChannel, upstreamModel: string): boolean {
  const family = channelFamily(channel.type);
  return family === 'claude' || ((family === 'aws' || family === 'vertex') && upstreamModel.includes('claude'));
}

/** model_mapping, single hop, looked up by the requested model (docs/relay.md#model-mapping-and-status-code-mapping). */
export function mapModel(channel: RelayChannel, model: string): { upstreamModel: string; mapped: boolean } {
  if (channel.modelMapping === null) throw refuse(500, 'unmarshal_model_mapping_failed', 'unmarshal_model_mapping_failed');
  const to = channel.modelMapping?.[model];
  return to ? { upstreamModel: to, mapped: true } : { upstreamModel: model, mapped: false };
}

interface ProviderInput {
  mode: RelayMode;
  body: Record<string, unknown>;
  /** A /v1/messages call converted through OpenAI chat. */
  viaChat: boolean;
  /** A Gemini-native call converted through OpenAI: how its answer goes back. */
  gemini?: GeminiReturn;
  /** A /v1/responses call (responses/exchange.ts): pass-through or converted through chat. */
  responses?: ResponsesBridge;
}

/**
 * The mode and body the provider gets: /v1/messages, Gemini's API and /v1/responses go through
 * OpenAI chat (embeddings) unless the provider speaks them (responses: responses/exchange.ts).
 */
function providerInput(rt: RelayRuntime, provider: Provider, call: RelayCall, upstreamModel: string): ProviderInput {
  if (call.mode === 'responses') return responsesInput(rt, provider, call);
  if (call.mode === 'messages') {
    return provider.modes.has('messages') ? { mode: call.mode, body: call.body, viaChat: false } : { mode: 'chat', body: openaiRequestFromClaude(call.body, { upstreamModel }), viaChat: true };
  }
  if ((call.mode === 'gemini' || call.mode === 'gemini-embeddings') && !provider.modes.has(call.mode)) {
    try {
      const via = geminiViaOpenAI(call.mode, call.body, { model: call.model, upstreamModel, stream: call.stream });
      return { mode: via.mode, body: via.body, viaChat: false, gemini: via.back };
    } catch (err) {
      if (err instanceof ProviderRequestError) throw refuse(err.status, err.message, err.code);
      throw err;
    }
  }
  return { mode: call.mode, body: call.body, viaChat: false };
}

function buildRequest(rt: RelayRuntime, provider: Provider, mode: RelayMode, body: Record<string, unknown>, target: Target, call: RelayCall, channel: RelayChannel): UpstreamRequest {
  let up: UpstreamRequest;
  try {
    up = provider.buildRequest(mode, body, target, call.stream);
  } catch (err) {
    if (err instanceof ProviderRequestError) throw refuse(err.status, err.message, err.code);
    if (err instanceof ChannelKeyError) throw channelKeyError(err);
    throw err;
  }
  const passThrough = rt.ctx.options.bool('global.pass_through_request_enabled') && call.rawBody && mode === call.mode && body === call.body && JSON_MODES.has(mode);
  if (passThrough) return { ...up, body: call.rawBody };
  if (channel.paramOverride && typeof up.body === 'string') {
    try {
      up = { ...up, body: JSON.stringify({ ...(JSON.parse(up.body) as Record<string, unknown>), ...channel.paramOverride }) };
    } catch {
      // not a JSON body: nothing to override
    }
  }
  return up;
}

async function send(rt: RelayRuntime, provider: Provider, built: UpstreamRequest, target: Target, controller: UpstreamAbort, channel: RelayChannel): Promise<UpstreamResponse> {
  // Signing and access tokens (Bedrock, Vertex); the other providers skip the await.
  const up = provider.authorize ? await authorize(rt, provider, built, target) : built;
  let response: UpstreamResponse;
  try {
    response = await rt.pools.request({ url: up.url, method: up.method, headers: up.headers, body: up.body, signal: controller, proxy: channel.proxy });
  } catch (err) {
    if (controller.reason instanceof ClientGone) throw clientGoneError();
    throw transportError(err instanceof Error ? err.message : String(err));
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  const text = await response.body.text(ERROR_BODY_LIMIT).catch(() => '');
  throw mapStatus(channel, fromUpstream(provider.parseError(response.statusCode, text), retryAfterSeconds(response.headers)));
}

/** status_code_mapping (docs/relay.md#model-mapping-and-status-code-mapping): applied to every upstream error before retry decisions and the reply. */
export function mapStatus(channel: RelayChannel, error: RelayError): RelayError {
  const to = channel.statusCodeMapping[String(error.status)];
  const status = to !== undefined ? Number(to) : NaN;
  return Number.isInteger(status) && status >= 100 && status < 600 ? error.withStatus(status) : error;
}

export async function attempt(rt: RelayRuntime, call: RelayCall, channel: RelayChannel, reply: RelayReply): Promise<Delivered> {
  const { upstreamModel, mapped } = mapModel(channel, call.model);
  const provider = providerFor(channel.type, upstreamModel);
  if (!provider) throw refuse(400, 'invalid api type', 'invalid_api_type');
  const target = channelTarget(rt, channel, call.model, upstreamModel, { query: call.clientQuery, headers: call.clientHeaders });
  const input = providerInput(rt, provider, call, upstreamModel);
  // The client's bytes may go upstream only where nothing is to be merged into the body.
  if (call.rawBody && input.mode === call.mode && input.body === call.body && !channel.paramOverride) target.rawBody = call.rawBody;
  const up = buildRequest(rt, provider, input.mode, input.body, target, call, channel);
  const sentModel = up.model ?? upstreamModel;
  const controller = new UpstreamAbort();
  const relayTimeout = rt.ctx.config.relayTimeoutSeconds;
  const overall = relayTimeout > 0 ? setTimeout(() => controller.abort(), relayTimeout * 1000) : undefined;
  // A client that leaves at any point cancels the upstream call, headers awaited or not.
  const raw = reply.raw;
  const onClientGone = () => {
    if (!raw.writableFinished) controller.abort(new ClientGone());
  };
  raw.on('close', onClientGone);
  let response: UpstreamResponse | undefined;
  try {
    response = await send(rt, provider, up, target, controller, channel);
    rt.health.succeeded(channel);
    const outcome: Route = {
      channel,
      upstreamModel: sentModel,
      isModelMapped: mapped,
      reasoningEffort: up.reasoningEffort || undefined,
      claudeUpstream: isClaudeUpstream(channel, sentModel),
    };
    const contentType = headerValue(response.headers, 'content-type') ?? '';
    if (input.mode === 'speech') return await relayBinary(call, reply, response, controller, outcome);
    const streaming =
      (call.stream || contentType.startsWith('text/event-stream')) &&
      provider.createStream !== undefined &&
      (input.mode === 'chat' || input.mode === 'completions' || input.mode === 'messages' || input.mode === 'gemini' || input.mode === 'responses');
    if (streaming) {
      const converted = input.viaChat || input.gemini !== undefined || input.responses !== undefined;
      const inner = provider.createStream!(input.mode, target, { includeUsage: converted ? false : call.includeUsage });
      const converter = input.gemini
        ? input.gemini.stream(inner)
        : input.viaChat
          ? new ClaudeStreamFromOpenAI(inner, { model: call.model, promptTokens: call.promptTokens() })
          : input.responses
            ? input.responses.stream(inner)
            : inner;
      const framing = call.spec.jsonStream ? new JsonArrayFraming() : undefined;
      const streamed = await relayStream({
        decoder: provider.streamDecoder?.(input.mode, target) ?? (provider.sseExtraField ? new SseParser({ extraField: provider.sseExtraField }) : undefined),
        call,
        reply,
        upstream: response,
        controller,
        converter,
        upstreamModel: sentModel,
        streamingTimeoutSeconds: rt.ctx.config.streamingTimeoutSeconds,
        outcome,
        framing,
        journalProgress: (soFar) => journalStreamProgress(rt, call, soFar),
      });
      input.responses?.streamed(streamed);
      return streamed;
    }
    return await relayWhole(call, reply, response, provider, input, target, outcome, contentType);
  } finally {
    raw.off('close', onClientGone);
    if (overall) clearTimeout(overall);
    // An answer left unread (something threw before reading it) must not hold its connection
    // paused for ever; after a full read this only marks the body done.
    response?.body.destroy();
  }
}

/** A non-stream answer: read, converted by the provider, sent (the original bytes when unchanged). */
async function relayWhole(
  call: RelayCall,
  reply: RelayReply,
  response: UpstreamResponse,
  provider: Provider,
  input: ProviderInput,
  target: Target,
  outcome: Route,
  contentType: string,
): Promise<Delivered> {
  let text: string;
  try {
    text = await response.body.text();
  } catch (err) {
    if (reply.raw.destroyed) throw clientGoneError();
    throw transportError(err instanceof Error ? err.message : String(err));
  }
  // Read whole, but the client is gone: nothing is delivered, nothing billed.
  if (reply.raw.destroyed) throw clientGoneError();
  const isJson = contentType.includes('json') || /^\s*[[{]/.test(text);
  let json: unknown = text;
  if (isJson) {
    try {
      json = JSON.parse(text);
    } catch {
      throw fromUpstream({ status: 500, message: 'invalid upstream response: not JSON', type: 'upstream_error', code: 'bad_response_body' });
    }
  }
  let parsed: ParsedResponse;
  try {
    parsed = provider.parseResponse(input.mode, json, target);
  } catch (err) {
    if (err instanceof ProviderRequestError) throw refuse(err.status, err.message, err.code);
    throw fromUpstream({ status: 500, message: err instanceof Error ? err.message : String(err), type: 'upstream_error', code: 'bad_response_body' });
  }
  if (parsed.error) throw fromUpstream(parsed.error);
  const usage = parsed.usage ?? localUsage(call, parsed, outcome.upstreamModel);
  let body: unknown = parsed.body;
  if (input.viaChat) body = claudeMessageFromOpenAI(parsed.body, call.model);
  else if (input.responses) body = input.responses.whole(parsed.body, outcome.channel);
  else if (input.gemini) body = input.gemini.whole(parsed.body, usage);
  // Converted upstreams answer floats; the client may have asked for base64 (the openai SDK's default).
  if (input.mode === 'embeddings' && call.body.encoding_format === 'base64') body = embeddingsInBase64(body);
  const extra = usageExtras(call, json, parsed);
  const { payload, type } = replyPayload(body, json, text, isJson, contentType);
  sendWhole(reply, type, payload);
  return delivered(outcome, {
    usage: extra.usage ?? usage,
    usageReported: parsed.usage !== undefined,
    isStream: false,
    firstResponseMs: 0,
    ending: 'complete',
    logExtra: extra.logExtra,
    fixedQuota: extra.fixedQuota,
  });
}

/**
 * What goes back: the upstream's own bytes when the provider left the answer as it was (no
 * re-serialisation), else the converted JSON; text answers (transcripts as text/srt/vtt) as text.
 */
function replyPayload(body: unknown, json: unknown, text: string, isJson: boolean, contentType: string): { payload: string; type: string } {
  if (body === json) return { payload: text, type: isJson ? 'application/json' : contentType || 'text/plain; charset=utf-8' };
  if (typeof body === 'string') return { payload: body, type: 'text/plain; charset=utf-8' };
  return { payload: JSON.stringify(body), type: 'application/json' };
}

/**
 * Writes the answer straight to the socket: the relay needs none of Fastify's reply hooks
 * (cookies, serializers), and skipping them is measurable on the hot path.
 */
function sendWhole(reply: RelayReply, type: string, payload: string): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, headerList(reply, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(payload) }));
  raw.end(payload);
}

/** Usage counted here when the answer carries none: the local prompt count and the answer's text. */
function localUsage(call: RelayCall, parsed: ParsedResponse, upstreamModel: string): Usage {
  return { promptTokens: call.promptTokens(), completionTokens: parsed.text ? countText(parsed.text, upstreamModel) : 0 };
}

/** Modes billed by something else than tokens: images by size and count, audio by its length. */
function usageExtras(call: RelayCall, json: unknown, parsed: ParsedResponse): { usage?: Usage; fixedQuota?: number; logExtra?: string } {
  if (call.mode === 'images') {
    const image = imageRequestOf(call.model, call.body);
    return { fixedQuota: imageQuota(image, call.price), logExtra: imageLogExtra(image) };
  }
  if (call.mode === 'transcriptions' || call.mode === 'translations') {
    if (parsed.usage) return {};
    const reported = json && typeof json === 'object' ? (json as { duration?: unknown }).duration : undefined;
    const seconds = typeof reported === 'number' ? reported : (call.audioSeconds ?? 0);
    return { usage: { promptTokens: audioPromptTokens(seconds), completionTokens: 0 } };
  }
  return {};
}

/** Speech: the audio goes back to the client as it arrives; billed by the input (characters for tts*). */
async function relayBinary(call: RelayCall, reply: RelayReply, response: UpstreamResponse, controller: UpstreamAbort, outcome: Route): Promise<Delivered> {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, headerList(reply, { 'Content-Type': headerValue(response.headers, 'content-type') ?? 'application/octet-stream' }));
  const onClose = () => {
    if (!raw.writableFinished) controller.abort();
  };
  raw.on('close', onClose);
  let ending: Delivered['ending'] = 'complete';
  try {
    for await (const chunk of response.body) {
      if (raw.destroyed) break;
      if (!raw.write(chunk as Buffer))
        await new Promise<void>((resolve) => {
          raw.once('drain', resolve);
          raw.once('close', resolve);
        });
    }
  } catch {
    ending = raw.destroyed ? 'client_gone' : 'upstream_broken';
  } finally {
    raw.off('close', onClose);
    if (!raw.destroyed) raw.end();
  }
  return delivered(outcome, { usage: { promptTokens: call.promptTokens(), completionTokens: 0 }, usageReported: false, isStream: false, firstResponseMs: 0, ending });
}
