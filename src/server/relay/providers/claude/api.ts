/** Claude's endpoints and headers (docs/relay.md#claude). */
import { joinUrl } from '../common/urls';
import type { Target } from '../types';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/**
 * Only claude-instant and claude-2 use the legacy Text Completions API; every newer name
 * (claude-3*, claude-sonnet-4* ...) uses Messages (Ours: the reference keyed on `claude-3`).
 */
export function isLegacyClaudeModel(model: string): boolean {
  return model.startsWith('claude-instant') || model.startsWith('claude-2');
}

export function messagesUrl(target: Target): string {
  return joinUrl(target.baseUrl, '/v1/messages');
}

export function countTokensUrl(target: Target): string {
  return joinUrl(target.baseUrl, '/v1/messages/count_tokens');
}

export function completeUrl(target: Target): string {
  return joinUrl(target.baseUrl, '/v1/complete');
}

/**
 * `x-api-key`, the client's `anthropic-version` (else 2023-06-01), then the optional headers
 * (`claudeOptionalHeaders`).
 */
export function claudeHeaders(target: Target, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'x-api-key': target.key,
    'anthropic-version': target.clientHeaders?.['anthropic-version'] || DEFAULT_ANTHROPIC_VERSION,
    'content-type': 'application/json',
  };
  if (stream) headers.accept = 'text/event-stream';
  return claudeOptionalHeaders(target, headers);
}

/**
 * The client's `anthropic-beta`, then the per-model headers of option
 * `claude.model_headers_settings`, which replace same-named ones; added to `headers`. Claude
 * on Vertex takes them as they are (its version and auth go elsewhere).
 */
export function claudeOptionalHeaders(target: Target, headers: Record<string, string>): Record<string, string> {
  const beta = target.clientHeaders?.['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = beta;
  const extra = target.options.claudeModelHeaders[target.requestModel];
  if (extra) {
    for (const [name, value] of Object.entries(extra)) {
      const lower = name.toLowerCase();
      for (const existing of Object.keys(headers)) if (existing.toLowerCase() === lower) delete headers[existing];
      headers[lower] = Array.isArray(value) ? value.join(',') : value;
    }
  }
  return headers;
}
