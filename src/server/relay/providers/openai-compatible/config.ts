/** What distinguishes one OpenAI-shaped upstream from another: a small declarative config. */
import type { JsonObject } from '../common/json';
import type { ParsedResponse, RelayMode, Target, Usage } from '../types';

export interface UrlContext {
  mode: RelayMode;
  target: Target;
  /** The model name sent upstream (suffixes stripped). */
  model: string;
  /** The family's path for this mode. */
  path: string;
}

/** An endpoint whose wire format is not OpenAI's, converted both ways (e.g. Ollama's /api/embed). */
export interface CustomEndpoint {
  request(body: JsonObject, model: string): JsonObject;
  response(json: unknown, target: Target): ParsedResponse;
}

export interface OpenAICompatibleConfig {
  /** Provider id (the channel family). */
  id: string;
  /** Upstream path per supported mode, appended to the base URL; its keys are the modes served. */
  paths: Partial<Record<RelayMode, string>>;
  /** Builds the whole URL instead of base + path (custom channels, Azure deployments, per-model paths). */
  url?: (ctx: UrlContext) => string;
  /** Auth and extra headers; default `Authorization: Bearer <key>`. */
  headers?: (target: Target) => Record<string, string>;
  /** The upstream honours `stream_options.include_usage` (docs/relay.md#openai-request-adjustments); else it is removed. */
  streamUsage?: boolean;
  /** Family tweaks of the outgoing JSON body, after the common adjustments (mutates the copy). */
  adjustBody?: (body: JsonObject, mode: RelayMode, target: Target) => void;
  /** Usage reader; default `usageFromOpenAI`. */
  readUsage?: (raw: unknown) => Usage | undefined;
  custom?: Partial<Record<RelayMode, CustomEndpoint>>;
  /** Path of the model list (GET); null when the upstream has none. Default `/v1/models`. */
  modelsPath?: string | null;
}
