/**
 * Redeeming a code (`POST /api/user/topup`). One conditional UPDATE claims the code (unused
 * and live → used by this user); only the caller whose statement changed the row credits
 * the quota and writes the top-up log, in the same transaction. Concurrent attempts on one
 * code therefore credit exactly once, without a process lock (which would not hold across
 * nodes) and without the reference's random sleep. A per-user attempt limit stays as a
 * cheap guard against guessing.
 */
import { logQuota } from '../../../shared/quota';
import { LOG_TYPE } from '../../../shared/roles';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { writeLog } from '../logs/log.writer';
import { claimRedemption, findRedemptionByKey } from '../redemptions/redemption.repository';
import { updateUserAndQuota } from '../users/user.repository';
import { quotaDisplay } from '../options/quota-display';
import { nowSeconds } from '../../../shared/time';

const ATTEMPTS_PER_MINUTE = 30;

export interface Redeemer {
  id: number;
  username: string;
}

/** Redeems `key` for `user`; answers the quota added. */
export async function redeemCode(ctx: AppContext, user: Redeemer, key: string): Promise<number> {
  const code = key.trim();
  // Our words (docs/messages.md#gateway-resources); the reference's server said 未提供兑换码.
  if (!code) throw new AppError('请输入兑换码！');
  if (!(await ctx.rateLimiter.hit(`RD:${user.id}`, ATTEMPTS_PER_MINUTE, 60))) throw new AppError('兑换尝试过于频繁，请稍后再试');
  const display = quotaDisplay(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const now = nowSeconds();
    if (!(await claimRedemption(trx, code, user.id, now))) {
      const existing = await findRedemptionByKey(trx, code);
      throw new AppError(existing ? '兑换失败，该兑换码已被使用' : '兑换失败，无效的兑换码');
    }
    const redemption = (await findRedemptionByKey(trx, code))!;
    const quota = Number(redemption.quota);
    await updateUserAndQuota(trx, user.id, {}, quota);
    await writeLog(trx, {
      userId: user.id,
      username: user.username,
      type: LOG_TYPE.topup,
      content: `通过兑换码充值 ${logQuota(quota, display)}，兑换码ID ${redemption.id}`,
    });
    return quota;
  });
}
