/** Small helpers for upstream answers: the error-body limit, headers and Retry-After. */
import type { UpstreamResponse } from '../upstream/call';

/** Error bodies are read up to this size: enough for any message, bounded against a runaway upstream. */
export const ERROR_BODY_LIMIT = 64 * 1024;

export function headerValue(headers: UpstreamResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After in seconds (a number or an HTTP date), if the upstream sent one. */
export function retryAfterSeconds(headers: UpstreamResponse['headers']): number | undefined {
  const raw = headerValue(headers, 'retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw));
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
