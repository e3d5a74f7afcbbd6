/** Queries for third-party bindings and sign-up. Functions take the executor first. */
import type { UserRow } from '../../db/tables';
import type { Executor } from '../../db/executor';
import type { BindingColumn } from './oauth.types';

/** The non-deleted account bound to an external id (the oldest, should several share it). */
export async function findBoundUser(db: Executor, column: BindingColumn, externalId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(column, '=', externalId).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst();
}

/** Whether any account, deleted ones included, holds this external id. */
export async function isExternalIdTaken(db: Executor, column: BindingColumn, externalId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(column, '=', externalId).executeTakeFirst();
  return row !== undefined;
}

export async function setExternalId(db: Executor, userId: number, column: BindingColumn, externalId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ [column]: externalId })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Whether the username is used by any account, deleted ones included. */
export async function isUsernameUsed(db: Executor, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function maxUserId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max<number | null>('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** The id of the non-deleted account owning an invitation code. */
export async function findInviterId(db: Executor, affCode: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('id').where('aff_code', '=', affCode).where('deleted_at', 'is', null).executeTakeFirst();
  return row?.id;
}
