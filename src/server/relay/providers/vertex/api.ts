/**
 * Vertex AI's regions, model names and endpoints. The channel's `other` is the region: one
 * name (`us-central1`, `global`), or JSON naming a region per requested model with a
 * `default` (`{"default": "us-central1", "claude-3-5-sonnet-20240620": "europe-west1"}`).
 */
import { isRecord, parseJson, str } from '../common/json';
import { joinUrl } from '../common/urls';
import type { Target } from '../types';

/** The region of a requested model (the JSON form without its model nor a default: `global`). */
export function vertexRegion(other: string, requestModel: string): string {
  const text = other.trim();
  if (!text.startsWith('{')) return text || 'global';
  const table = parseJson(text);
  if (!isRecord(table)) return 'global';
  return str(table[requestModel]) || str(table.default) || 'global';
}

/** The channel's base URL, else the region's endpoint (`global` has no region prefix). */
export function vertexBaseUrl(target: Target, region: string): string {
  if (target.baseUrl) return target.baseUrl;
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

/** A path segment; `@` (Claude's version mark, `claude-3-5-sonnet@20240620`) stays as it is, as Google writes it. */
function segment(text: string): string {
  return encodeURIComponent(text).replace(/%40/g, '@');
}

/** `…/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{action}` */
export function publisherModelUrl(target: Target, project: string, region: string, publisher: 'google' | 'anthropic', model: string, action: string): string {
  const path = `/v1/projects/${segment(project)}/locations/${segment(region)}/publishers/${publisher}/models/${segment(model)}:${action}`;
  return joinUrl(vertexBaseUrl(target, region), path);
}

/** The OpenAI-compatible endpoint of the open models Vertex serves (Llama and other `-maas` models). */
export function openapiUrl(target: Target, project: string, region: string): string {
  return joinUrl(vertexBaseUrl(target, region), `/v1beta1/projects/${segment(project)}/locations/${segment(region)}/endpoints/openapi/chat/completions`);
}

/** Claude names whose Vertex name is not simply `-YYYYMMDD` -> `@YYYYMMDD`. */
const CLAUDE_NAMES: Record<string, string> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

/** Anthropic's model names -> Vertex's (`claude-3-5-sonnet-20240620` -> `claude-3-5-sonnet@20240620`). */
export function vertexClaudeModel(model: string): string {
  return CLAUDE_NAMES[model] ?? model.replace(/-(\d{8})$/, '@$1');
}

export type VertexFamily = 'claude' | 'openapi' | 'gemini';

/** Which API a model speaks on Vertex: Claude's, OpenAI chat (open models), else Gemini's. */
export function vertexFamily(model: string): VertexFamily {
  if (model.startsWith('claude')) return 'claude';
  if (model.includes('llama') || model.includes('-maas')) return 'openapi';
  return 'gemini';
}
