/**
 * Account creation shared by registration, admin create and third-party sign-up (the
 * reference's "Insert"): hash the password, give QuotaForNewUser, an invite code, and the
 * invitation rewards, each with its system log, in one transaction.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/executor';
import { AppError } from '../../errors';
import { logQuota } from '../../../shared/quota';
import { randomAlphanumeric } from '../../plumbing/random';
import { LOG_TYPE, ROLE_COMMON } from '../../../shared/roles';
import { writeLog } from '../logs/log.writer';
import { quotaDisplay } from '../options/quota-display';
import { hashPassword } from './setup';
import { insertUser } from './user.repository';

/**
 * An invite code no account holds yet: 4 characters from [0-9a-zA-Z] like the reference;
 * they collide now and then, so after a few tries the code grows to 6 characters.
 */
export async function pickFreeAffCode(db: Executor): Promise<string> {
  let affCode = randomAlphanumeric(4);
  for (let i = 0; i < 5; i++) {
    const taken = await db.selectFrom('users').select('id').where('aff_code', '=', affCode).executeTakeFirst();
    if (!taken) break;
    affCode = randomAlphanumeric(i < 3 ? 4 : 6);
  }
  return affCode;
}

/** Username (or email) already used by an account, deleted ones included. */
export const USERNAME_TAKEN = '用户名已存在，或已注销';

export interface NewAccount {
  username: string;
  /** Plain text; empty for third-party-only accounts. */
  password: string;
  displayName?: string;
  email?: string;
  inviterId?: number;
  githubId?: string;
  oidcId?: string;
  wechatId?: string;
  telegramId?: string;
  linuxDoId?: string;
}

/** Creates a common user; answers the new id. Unique violations become the console's message. */
export async function createAccount(ctx: AppContext, account: NewAccount): Promise<number> {
  const quotaForNewUser = ctx.options.number('QuotaForNewUser');
  const quotaForInvitee = account.inviterId ? ctx.options.number('QuotaForInvitee') : 0;
  const quotaForInviter = account.inviterId ? ctx.options.number('QuotaForInviter') : 0;
  const display = quotaDisplay(ctx);
  const passwordHash = account.password ? await hashPassword(account.password) : '';
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const affCode = await pickFreeAffCode(trx);
      const id = await insertUser(trx, {
        username: account.username,
        password: passwordHash,
        display_name: account.displayName || account.username,
        role: ROLE_COMMON,
        status: 1,
        email: account.email ?? '',
        github_id: account.githubId ?? '',
        oidc_id: account.oidcId ?? '',
        wechat_id: account.wechatId ?? '',
        telegram_id: account.telegramId ?? '',
        linux_do_id: account.linuxDoId ?? '',
        quota: quotaForNewUser + quotaForInvitee,
        access_token: null,
        aff_code: affCode,
        inviter_id: account.inviterId ?? 0,
        deleted_at: null,
        setting: '',
      });
      if (quotaForNewUser > 0) {
        await writeLog(trx, { userId: id, username: account.username, type: LOG_TYPE.system, content: `新用户注册赠送 ${logQuota(quotaForNewUser, display)}` });
      }
      if (quotaForInvitee > 0) {
        await writeLog(trx, { userId: id, username: account.username, type: LOG_TYPE.system, content: `使用邀请码赠送 ${logQuota(quotaForInvitee, display)}` });
      }
      if (account.inviterId && quotaForInviter > 0) {
        await trx
          .updateTable('users')
          .set({
            aff_count: sql`aff_count + 1`,
            aff_quota: sql`aff_quota + ${quotaForInviter}`,
            aff_history: sql`aff_history + ${quotaForInviter}`,
          })
          .where('id', '=', account.inviterId)
          .execute();
        await writeLog(trx, { userId: account.inviterId, type: LOG_TYPE.system, content: `邀请用户赠送 ${logQuota(quotaForInviter, display)}` });
      }
      return id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(USERNAME_TAKEN);
    throw err;
  }
}

/** True for a unique-constraint error of any of the three databases. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  return (
    e?.code === '23505' || // PostgreSQL
    e?.code === 'ER_DUP_ENTRY' || // MySQL/MariaDB
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
