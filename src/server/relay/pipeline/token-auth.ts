/**
 * Relay token authentication (docs/relay.md#token-authentication), answered from the auth cache:
 * the key comes from `x-api-key` (Claude clients, /v1/messages first) or `Authorization:
 * Bearer sk-…`; `sk-KEY-CHANNELID` forces a channel (admins only). Each refusal carries the
 * reference's words and status. Expiry and exhaustion found here are written back to the
 * token row (only while it is still enabled), without holding the request up.
 */
import type { RelayRequest } from './exchange';
import type { AppContext } from '../../context';
import { MSG } from '../../errors';
import { ROLE_ADMIN, USER_STATUS_ENABLED } from '../../../shared/roles';
import { refreshTokenStatus } from '../../services/tokens/token.status';
import { TOKEN_STATUS } from '../../../shared/token-status';
import { refuse } from '../errors';
import { isDatabaseUnavailable } from '../../db/unavailable';
import type { AuthCache, CachedToken, CachedUser } from '../tokens/auth-cache';
import { nowSeconds } from '../../../shared/time';

export interface TokenAuth {
  token: CachedToken;
  user: CachedUser;
  /** Set by the `sk-KEY-CHANNELID` form (raw text: validated by the distributor). */
  channelSuffix: string | undefined;
}

function header(request: RelayRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/** The key as sent, without `Bearer `. */
export function presentedKey(request: RelayRequest, claudePath: boolean): string {
  const apiKey = header(request, 'x-api-key');
  if (claudePath && apiKey) return apiKey;
  let key = header(request, 'authorization').replace(/^Bearer\s+/i, '');
  if (!key || key === 'midjourney-proxy') key = header(request, 'mj-api-secret').replace(/^Bearer\s+/i, '');
  return key || apiKey;
}

/** `sk-<first3>***<last3>` for messages: enough to recognise a key, never enough to use it. */
export function maskedKey(key: string): string {
  return `sk-${key.slice(0, 3)}***${key.slice(-3)}`;
}

export async function authenticateToken(ctx: AppContext, cache: AuthCache, request: RelayRequest, claudePath: boolean): Promise<TokenAuth> {
  const presented = presentedKey(request, claudePath).replace(/^sk-/, '');
  const [key = '', channelSuffix] = presented.split('-');
  if (!key) throw refuse(401, '未提供令牌');
  const token = await cache.token(key);
  if (!token) throw refuse(401, '无效的令牌');
  if (token.status === TOKEN_STATUS.exhausted) throw refuse(401, `该令牌额度已用尽 TokenStatusExhausted[${maskedKey(key)}]`);
  if (token.status === TOKEN_STATUS.expired) throw refuse(401, '该令牌已过期');
  if (token.status !== TOKEN_STATUS.enabled) throw refuse(401, '该令牌状态不可用');
  const now = nowSeconds();
  if (token.expiredTime !== -1 && token.expiredTime < now) {
    markStatus(ctx, cache, token);
    throw refuse(401, '该令牌已过期');
  }
  if (!token.unlimited && token.remainQuota <= 0) {
    markStatus(ctx, cache, token);
    throw refuse(401, `[${maskedKey(key)}] 该令牌额度已用尽 !token.UnlimitedQuota && token.RemainQuota = ${token.remainQuota}`);
  }
  let user: CachedUser | null;
  try {
    user = await cache.user(token.userId);
  } catch (err) {
    throw refuse(isDatabaseUnavailable(err) ? 503 : 500, MSG.dbError);
  }
  if (!user) throw refuse(500, MSG.notFound);
  if (user.status !== USER_STATUS_ENABLED) throw refuse(403, MSG.banned);
  if (channelSuffix !== undefined && user.role < ROLE_ADMIN) throw refuse(403, '普通用户不支持指定渠道');
  return { token, user, channelSuffix };
}

/**
 * The reference writes expired/exhausted only without Redis (its cache would go stale); our
 * cache entry is simply dropped, so we always write it — from the row as stored now (never
 * from a cached copy), only while still enabled, and in the background.
 */
function markStatus(ctx: AppContext, cache: AuthCache, token: CachedToken): void {
  ctx.db
    .selectFrom('tokens')
    .select(['id', 'status', 'expired_time', 'remain_quota', 'unlimited_quota'])
    .where('id', '=', token.id)
    .executeTakeFirst()
    .then(async (row) => {
      if (!row) return;
      const status = await refreshTokenStatus(ctx.db, row);
      if (status !== token.status) cache.forgetToken(token.id);
    })
    .catch(() => undefined);
}
