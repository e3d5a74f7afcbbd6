/** Queries of registration, email binding and password reset. Executor first. */
import type { Executor } from '../../db/executor';

/** Whether any user, deleted ones included, has this username. */
export async function usernameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

/** Whether any user other than `exceptId`, deleted ones included, uses this email. */
export async function emailInUse(db: Executor, email: string, exceptId = 0): Promise<boolean> {
  if (!email) return false;
  const row = await db.selectFrom('users').select('id').where('email', '=', email).where('id', '!=', exceptId).executeTakeFirst();
  return row !== undefined;
}

/** The id of the non-deleted user owning an invite code; undefined when none does. */
export async function findInviterId(db: Executor, affCode: string): Promise<number | undefined> {
  if (!affCode) return undefined;
  const row = await db.selectFrom('users').select('id').where('aff_code', '=', affCode).where('deleted_at', 'is', null).executeTakeFirst();
  return row?.id;
}

export async function setUserEmail(db: Executor, userId: number, email: string): Promise<void> {
  await db.updateTable('users').set({ email }).where('id', '=', userId).where('deleted_at', 'is', null).execute();
}

/** Sets the password hash of every non-deleted user with this email; answers how many. */
export async function setPasswordByEmail(db: Executor, email: string, passwordHash: string): Promise<number> {
  const result = await db.updateTable('users').set({ password: passwordHash }).where('email', '=', email).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface NewDefaultToken {
  userId: number;
  name: string;
  key: string;
  remainQuota: number;
  now: number;
}

/** An enabled, unlimited, never-expiring API token. */
export async function insertUnlimitedToken(db: Executor, token: NewDefaultToken): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      user_id: token.userId,
      key: token.key,
      name: token.name,
      status: 1,
      created_time: token.now,
      accessed_time: token.now,
      expired_time: -1,
      remain_quota: token.remainQuota,
      unlimited_quota: true,
      allow_ips: '',
    })
    .execute();
}
