/**
 * Invitations (docs/users.md#invitations): a user's own invite code, made on first request when the
 * account has none, and moving invitation rewards (aff_quota) into the balance.
 */
import type { AppContext } from '../../context';
import { AppError, MSG } from '../../errors';
import { logQuota } from '../../../shared/quota';
import { findUserById, setAffCodeIfEmpty, transferAffQuota } from './user.repository';
import { isUniqueViolation, pickFreeAffCode } from './user.service';
import { quotaDisplay } from '../options/quota-display';

export const AFF_MSG = {
  transferred: '划转成功',
  notEnough: '划转失败 邀请额度不足！',
} as const;

/** The caller's invite code, generated and saved first if the account has none. */
export async function ensureAffCode(ctx: AppContext, userId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const user = await findUserById(ctx.db, userId);
    if (!user) throw new AppError(MSG.notFound);
    if (user.aff_code) return user.aff_code;
    try {
      await setAffCodeIfEmpty(ctx.db, userId, await pickFreeAffCode(ctx.db));
    } catch (err) {
      // Another account took the same code in between: draw again (a few times).
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
    }
  }
}

/** Moves `amount` quota units of invitation reward into the balance; at least one currency unit. */
export async function transferAffiliateQuota(ctx: AppContext, userId: number, amount: number): Promise<void> {
  const display = quotaDisplay(ctx);
  // Our words (docs/messages.md#accounts-and-settings); the reference's server said 划转失败 转移额度最小为…！
  if (amount < display.quotaPerUnit) throw new AppError(`划转金额最低为 ${logQuota(display.quotaPerUnit, display)}`);
  if (!(await transferAffQuota(ctx.db, userId, amount))) throw new AppError(AFF_MSG.notEnough);
}
