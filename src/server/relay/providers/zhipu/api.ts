/**
 * Zhipu's v3 model API (type 16, ChatGLM): the key is `id.secret`; every request carries a
 * short-lived HS256 JWT made from it (`api_key` = the id, `exp` and `timestamp` in
 * milliseconds, header `sign_type: SIGN`) as the bare `Authorization` value.
 */
import { joinUrl } from '../common/urls';
import { ChannelKeyError, type Target } from '../types';

/** How long a token is valid: minted per request, so a short life is enough. */
const TOKEN_LIFETIME_MS = 5 * 60_000;

export interface ZhipuKey {
  id: string;
  secret: string;
}

export function zhipuKey(key: string): ZhipuKey {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new ChannelKeyError('the Zhipu channel key must be id.secret (the API key of open.bigmodel.cn)');
  return { id: parts[0], secret: parts[1] };
}

/** `{base}/api/paas/v3/model-api/{model}/invoke` (or `sse-invoke` for a stream). */
export function zhipuUrl(target: Target, model: string, stream: boolean): string {
  return joinUrl(target.baseUrl, `/api/paas/v3/model-api/${encodeURIComponent(model)}/${stream ? 'sse-invoke' : 'invoke'}`);
}

/** The JWT Zhipu's v3 API expects, signed with the key's secret. */
export async function zhipuToken(key: ZhipuKey, now = Date.now()): Promise<string> {
  const { SignJWT } = await import('jose');
  return new SignJWT({ api_key: key.id, exp: now + TOKEN_LIFETIME_MS, timestamp: now }).setProtectedHeader({ alg: 'HS256', sign_type: 'SIGN' }).sign(new TextEncoder().encode(key.secret));
}
