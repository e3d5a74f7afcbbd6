/**
 * Builds a `Provider` for an OpenAI-shaped upstream from its config: request adjustments,
 * URL and headers, forwarded answers with usage, and the pass-through stream.
 */
import { parseUpstreamError } from '../common/errors';
import type { JsonObject } from '../common/json';
import { OpenAIPassThroughStream } from '../common/openai-stream';
import { ResponsesPassThroughStream } from '../common/responses-stream';
import { isReasoningModel, type ReasoningEffort, splitEffortSuffix } from '../common/reasoning';
import { usageFromOpenAI } from '../common/usage';
import { isCloudflareGateway, joinUrl, withQuery } from '../common/urls';
import { type Provider, ProviderRequestError, type RelayMode, type Target, type UpstreamRequest } from '../types';
import type { OpenAICompatibleConfig } from './config';
import { buildAudioForm } from './multipart';
import { adjustOpenAIBody } from './request';
import { parseOpenAIResponse } from './response';

export function bearer(target: Target): Record<string, string> {
  return { Authorization: `Bearer ${target.key}` };
}

/** The effort suffix means `reasoning_effort` only on reasoning models (`gpt-4o-high` stays a name). */
export function resolveModel(upstreamModel: string): { model: string; effort?: ReasoningEffort } {
  const split = splitEffortSuffix(upstreamModel);
  return split.effort && isReasoningModel(split.model) ? split : { model: upstreamModel };
}

/** base + path; a Cloudflare AI Gateway base already ends where `/v1` would go. */
export function defaultUrl(base: string, path: string): string {
  return joinUrl(base, isCloudflareGateway(base) && path.startsWith('/v1/') ? path.slice(3) : path);
}

const STREAMING_MODES: ReadonlySet<RelayMode> = new Set(['chat', 'completions']);

/** The same keys holding the very same values (adjustments always make new values). */
export function sameFields(a: JsonObject, b: JsonObject): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (a[key] !== b[key] || !Object.hasOwn(b, key)) return false;
  return true;
}

export function createOpenAICompatible(config: OpenAICompatibleConfig): Provider {
  const modes = new Set(Object.keys(config.paths) as RelayMode[]);
  const readUsage = config.readUsage ?? usageFromOpenAI;
  const headersFor = config.headers ?? bearer;

  function urlFor(mode: RelayMode, target: Target, model: string): string {
    const path = config.paths[mode];
    if (path === undefined) throw new ProviderRequestError(`${mode} is not supported by this channel type`, 'not_supported');
    return config.url ? config.url({ mode, target, model, path }) : defaultUrl(target.baseUrl, path);
  }

  const provider: Provider = {
    id: config.id,
    modes,

    buildRequest(mode, body, target, stream): UpstreamRequest {
      const { model, effort } = resolveModel(target.upstreamModel);
      const url = urlFor(mode, target, model);
      const headers: Record<string, string> = { ...headersFor(target) };
      // One shape for every request (no spreads of a base object): built once per relay call.
      const request = (upstreamBody: UpstreamRequest['body']): UpstreamRequest => ({ url, method: 'POST', headers, model, reasoningEffort: effort || undefined, body: upstreamBody });
      if (mode === 'transcriptions' || mode === 'translations') return request(buildAudioForm(body, model));

      const custom = config.custom?.[mode];
      let json: JsonObject;
      if (custom) {
        json = custom.request(body, model);
      } else {
        json = adjustOpenAIBody(body, {
          mode,
          model,
          effort,
          stream,
          streamUsage: config.streamUsage ?? false,
          forceStreamUsage: target.options.forceStreamUsage ?? true,
        });
      }
      config.adjustBody?.(json, mode, target);
      headers['Content-Type'] = 'application/json';
      if (stream) headers.Accept = 'text/event-stream';
      // Nothing changed: the client's own bytes go upstream (no re-serialisation).
      return request(target.rawBody && !custom && sameFields(json, body) ? target.rawBody : JSON.stringify(json));
    },

    parseResponse(mode, json, target) {
      const custom = config.custom?.[mode];
      return custom ? custom.response(json, target) : parseOpenAIResponse(mode, json, readUsage);
    },

    createStream(mode, target, client) {
      if (mode === 'responses' && modes.has('responses')) return new ResponsesPassThroughStream(readUsage);
      if (!STREAMING_MODES.has(mode)) throw new ProviderRequestError(`${mode} does not stream`, 'not_supported');
      return new OpenAIPassThroughStream({
        includeUsage: client.includeUsage,
        forceFormat: target.setting.force_format === true,
        thinkingToContent: target.setting.thinking_to_content === true,
        readUsage,
        model: resolveModel(target.upstreamModel).model,
        mode: mode === 'completions' ? 'completions' : 'chat',
      });
    },

    parseError: parseUpstreamError,
  };

  const responsesPath = config.paths.responses;
  if (responsesPath !== undefined) {
    provider.storedResponseRequest = (method, id, target, inputItems) => {
      const path = `${responsesPath}/${encodeURIComponent(id)}${inputItems ? '/input_items' : ''}`;
      const model = resolveModel(target.upstreamModel).model;
      const url = config.url ? config.url({ mode: 'responses', target, model, path }) : defaultUrl(target.baseUrl, path);
      return { url: inputItems && Object.keys(inputItems).length > 0 ? withQuery(url, inputItems) : url, method, headers: { ...headersFor(target) } };
    };
  }

  const realtimePath = config.paths.realtime;
  if (realtimePath !== undefined) {
    provider.realtimeRequest = (target) => {
      const model = resolveModel(target.upstreamModel).model;
      // OpenAI names the model in the query; a provider with its own addresses (Azure) says where it goes.
      const url = config.url ? config.url({ mode: 'realtime', target, model, path: realtimePath }) : withQuery(defaultUrl(target.baseUrl, realtimePath), { model });
      return { url, method: 'GET', headers: { ...headersFor(target) }, model };
    };
  }

  const modelsPath = config.modelsPath === undefined ? '/v1/models' : config.modelsPath;
  if (modelsPath !== null) {
    provider.modelsRequest = (target) => ({ url: defaultUrl(target.baseUrl, modelsPath), method: 'GET', headers: headersFor(target) });
  }
  return provider;
}
