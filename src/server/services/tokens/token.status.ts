/**
 * The two automatic transitions of a token's status (the statuses: shared/token-status.ts).
 * Users switch a token between enabled and disabled; the server turns an enabled token into
 * expired once its expiry has passed, or exhausted once a limited token has no quota left — checked in that order,
 * as the relay checks them. Nothing sweeps tokens in the background: the relay calls
 * `refreshTokenStatus` when it meets a token, and the console's reads (list, search, get)
 * apply it to the rows they show, so a token is never shown enabled when it cannot be used.
 * A full edit never changes the status; enabling again is refused while the cause remains.
 */
import { asBool, type DbBool } from '../../db/tables';
import type { Executor } from '../../db/executor';
import { setTokenStatusIf } from './token.repository';
import { nowSeconds } from '../../../shared/time';
import { TOKEN_STATUS } from '../../../shared/token-status';

export const TOKEN_EXPIRED_MESSAGE = '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期';
export const TOKEN_EXHAUSTED_MESSAGE = '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度';

export interface TokenStatusFields {
  id: number;
  status: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: DbBool;
}

/** Whether the expiry (a unix time, -1 = never) has passed by `now`. */
export function isExpired(token: Pick<TokenStatusFields, 'expired_time'>, now: number): boolean {
  const expiry = Number(token.expired_time);
  return expiry !== -1 && expiry < now;
}

/** Whether a limited token has no quota left. */
export function isExhausted(token: Pick<TokenStatusFields, 'remain_quota' | 'unlimited_quota'>): boolean {
  return !asBool(token.unlimited_quota) && Number(token.remain_quota) <= 0;
}

/** The status a token should have at `now`: only an enabled token changes. */
export function dueTokenStatus(token: TokenStatusFields, now: number): number {
  if (token.status !== TOKEN_STATUS.enabled) return token.status;
  if (isExpired(token, now)) return TOKEN_STATUS.expired;
  if (isExhausted(token)) return TOKEN_STATUS.exhausted;
  return token.status;
}

/**
 * Applies the due transition to the stored row (only if it is still enabled, so a concurrent
 * change by the owner wins) and answers the status to act on. The relay calls this when it
 * authenticates a token; the console reads call it for each row they show.
 */
export async function refreshTokenStatus(db: Executor, token: TokenStatusFields, now = nowSeconds()): Promise<number> {
  const due = dueTokenStatus(token, now);
  if (due !== token.status) await setTokenStatusIf(db, token.id, TOKEN_STATUS.enabled, due);
  return due;
}
