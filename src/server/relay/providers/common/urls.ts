/** URL building shared by the providers. */

/** Joins a base URL (no trailing slash) and a path that starts with '/'. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

/** Appends query parameters, keeping any the URL already has. */
export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const pairs = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  if (pairs.length === 0) return url;
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return url + (url.includes('?') ? '&' : '?') + query;
}

/**
 * Cloudflare AI Gateway URLs already name the provider: OpenAI-type paths drop their `/v1`
 * prefix and Azure paths drop `/openai/deployments` there (docs/relay.md#base-url).
 */
export function isCloudflareGateway(base: string): boolean {
  return base.startsWith('https://gateway.ai.cloudflare.com');
}
