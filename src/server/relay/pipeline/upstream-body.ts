/** Small helpers for upstream answers: bounded body reads and Retry-After. */
import type { UpstreamResponse } from '../upstream/pools';

/** Error bodies are read up to this size: enough for any message, bounded against a runaway upstream. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** Reads at most `limit` bytes as text and drops the rest of the body. */
export async function readLimited(body: UpstreamResponse['body'], limit = ERROR_BODY_LIMIT): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      chunks.push(size + buf.length > limit ? buf.subarray(0, limit - size) : buf);
      size += buf.length;
      if (size >= limit) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
