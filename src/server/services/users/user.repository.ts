/** Queries on the users table. Functions take the executor first so they run inside transactions too. */
import type { Kysely, Transaction } from 'kysely';
import type { Database, NewUser, UserRow } from '../../db/tables';

export type Executor = Kysely<Database> | Transaction<Database>;

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
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
