/**
 * Azure OpenAI (type 3): OpenAI's bodies, sent to a deployment named after the model with its
 * dots removed (`gpt-3.5-turbo` -> `gpt-35-turbo`), an `api-version` query and an `api-key` header.
 *
 * The Responses API is served only by Azure's OpenAI-compatible v1 surface,
 * `/openai/v1/responses`, which has no deployment in the path: the deployment goes in the
 * body's `model`, and the GA v1 API needs no `api-version` (a client's own is passed on).
 * Realtime sessions open `/openai/realtime?api-version=…&deployment=…`.
 */
import { createOpenAICompatible } from '../openai-compatible/factory';
import { openaiPaths } from '../openai-compatible/paths';
import { isCloudflareGateway, joinUrl, withQuery } from '../common/urls';
import type { JsonObject } from '../common/json';
import type { RelayMode, Target } from '../types';

/** The request query wins over the channel's `other`, which wins over the global default (docs/relay.md#channel-settings-per-type). */
export function azureApiVersion(target: Target): string {
  return target.clientQuery?.['api-version'] || target.other.trim() || target.options.azureDefaultApiVersion;
}

export function azureDeployment(model: string): string {
  return model.replace(/\./g, '');
}

export const azureProvider = createOpenAICompatible({
  id: 'azure',
  paths: { ...openaiPaths('chat', 'completions', 'embeddings', 'images', 'speech', 'transcriptions', 'translations'), responses: '/v1/responses', realtime: '/realtime' },
  url: ({ mode, target, model, path }) => {
    if (mode === 'realtime') {
      return withQuery(joinUrl(target.baseUrl, `/openai${path}`), { 'api-version': azureApiVersion(target), deployment: azureDeployment(model) });
    }
    if (mode === 'responses') {
      const version = target.clientQuery?.['api-version'];
      const url = joinUrl(target.baseUrl, `/openai${path}`);
      return version ? withQuery(url, { 'api-version': version }) : url;
    }
    // `/v1/chat/completions` -> `/openai/deployments/<d>/chat/completions`; a Cloudflare gateway drops the prefix.
    const prefix = isCloudflareGateway(target.baseUrl) ? '' : '/openai/deployments';
    const url = joinUrl(target.baseUrl, `${prefix}/${encodeURIComponent(azureDeployment(model))}${path.slice('/v1'.length)}`);
    return withQuery(url, { 'api-version': azureApiVersion(target) });
  },
  headers: (target) => ({ 'api-key': target.key }),
  adjustBody: (body: JsonObject, mode: RelayMode) => {
    if (mode === 'responses' && typeof body.model === 'string') body.model = azureDeployment(body.model);
  },
  streamUsage: true,
  modelsPath: null,
});
