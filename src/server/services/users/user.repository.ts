/** Queries on the users table. Functions take the executor first so they run inside transactions too. */
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { NewUser, UserRow, UserUpdate } from '../../db/tables';

/** Non-deleted user by id. */
export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Any user by id, deleted ones included. */
export async function findUserByIdUnscoped(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByAccessToken(db: Executor, token: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('access_token', '=', token).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Non-deleted user whose username or email equals `login`. */
export async function findUserForLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('username', '=', login), eb.and([eb('email', '=', login), eb('email', '!=', '')])]))
    .orderBy('id')
    .executeTakeFirst();
}

export async function insertUser(db: Executor, user: NewUser): Promise<number> {
  const result = await db.insertInto('users').values(user).executeTakeFirstOrThrow();
  if (result.insertId !== undefined) return Number(result.insertId);
  // PostgreSQL reports no insert id without RETURNING; look the row up by its unique name.
  const row = await db.selectFrom('users').select('id').where('username', '=', user.username).executeTakeFirstOrThrow();
  return row.id;
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the database can lock a row with SELECT … FOR UPDATE (SQLite serialises writers instead). */
export function canLockRows(dialect: string): boolean {
  return dialect !== 'sqlite';
}

/** Non-deleted user by id, locked for the rest of the transaction where the database can. */
export async function findUserByIdForUpdate(trx: Executor, id: number, lock: boolean): Promise<UserRow | undefined> {
  const query = trx.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export interface UserListFilter {
  /** Substring of username, email or display name; or the id when numeric. Empty: everyone. */
  keyword?: string;
  /** Exact group; empty: any. */
  group?: string;
}

/** `%kw%` with LIKE's wildcards taken literally (escape character `!`). */
function containsPattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

function filteredUsers(db: Executor, filter: UserListFilter) {
  let query = db.selectFrom('users');
  const keyword = filter.keyword?.trim() ?? '';
  if (keyword) {
    const pattern = containsPattern(keyword);
    const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined;
    // lower() on both sides: the same case-insensitive match on every database and collation.
    const like = (column: 'username' | 'email' | 'display_name') => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
    query = query.where((eb) => eb.or([like('username'), like('email'), like('display_name'), ...(id !== undefined ? [eb('id', '=', id)] : [])]));
  }
  if (filter.group) query = query.where('group', '=', filter.group);
  return query;
}

/** One page of users, deleted ones included, newest first, and the count of all matches. */
export async function listUsers(db: Executor, filter: UserListFilter, page: { offset: number; limit: number }): Promise<{ rows: UserRow[]; total: number }> {
  const rows = await filteredUsers(db, filter).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  const count = await filteredUsers(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Updates a non-deleted user; answers whether a row was changed. */
export async function updateUser(db: Executor, id: number, patch: UserUpdate): Promise<boolean> {
  const result = await db.updateTable('users').set(patch).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Writes `patch` and adds the signed `quotaDelta` to the quota in one statement: the
 * quota moves relative to its current value, never overwriting a concurrent charge.
 */
export async function updateUserAndQuota(db: Executor, id: number, patch: UserUpdate, quotaDelta: number): Promise<void> {
  const set = quotaDelta !== 0 ? { ...patch, quota: sql<number>`quota + ${quotaDelta}` } : patch;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/** Marks a user deleted; the row stays (names remain taken, admins still see it). */
export async function softDeleteUser(db: Executor, id: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ deleted_at: sql`CURRENT_TIMESTAMP` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function hardDeleteUser(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether any user other than `exceptId` (deleted ones included) has this username. */
export async function isUsernameTaken(db: Executor, username: string, exceptId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).where('id', '!=', exceptId).executeTakeFirst();
  return row !== undefined;
}

/** Gives a user an invite code unless one is set already (two first requests at once keep one). */
export async function setAffCodeIfEmpty(db: Executor, id: number, code: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ aff_code: code })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('aff_code', 'is', null), eb('aff_code', '=', '')]))
    .execute();
}

/**
 * Moves `amount` from the invitation reward to the balance in one conditional statement,
 * so concurrent transfers can never take more than there is. Answers whether it moved.
 */
export async function transferAffQuota(db: Executor, id: number, amount: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ aff_quota: sql`aff_quota - ${amount}`, quota: sql`quota + ${amount}` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('aff_quota', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Distinct models of enabled abilities in any of `groups`, sorted. */
export async function listEnabledModels(db: Executor, groups: string[]): Promise<string[]> {
  if (groups.length === 0) return [];
  const rows = await db.selectFrom('abilities').select('model').distinct().where('group', 'in', groups).where('enabled', '=', true).orderBy('model').execute();
  return rows.map((r) => r.model);
}
