/**
 * Queries on the `sessions` table (migration 2026-11-24-007-sessions). Rows are keyed by the
 * SHA-256 of the cookie's random key, so a copy of the table signs nobody in. Executor first,
 * so revocations can run inside the transaction of the change that causes them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../../db/tables';
import type { Executor } from '../../db/executor';

/** A fresh random session key (what the cookie carries): 32 bytes, base64url. */
export function newSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The row id of a session key. */
export function sessionIdOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export async function insertSession(db: Executor, row: { id: string; userId: number; now: number; expiresAt: number }): Promise<void> {
  await db.insertInto('sessions').values({ id: row.id, user_id: row.userId, created_at: row.now, expires_at: row.expiresAt }).execute();
}

/** The session's non-deleted user with the session's expiry, in one query; undefined when either is gone. */
export async function findSessionUser(db: Executor, id: string): Promise<{ user: UserRow; expiresAt: number } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.expires_at as session_expires_at')
    .where('sessions.id', '=', id)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_expires_at: expiresAt, ...user } = row;
  return { user, expiresAt: Number(expiresAt) };
}

/** Moves the expiry of a session that still exists forward. */
export async function extendSession(db: Executor, id: string, expiresAt: number): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of a user, but `keepId` (the caller's own, when they changed their password). */
export async function deleteUserSessions(db: Executor, userId: number, keepId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}

/** Ends every session of the non-deleted users with this email (a password reset by mail). */
export async function deleteSessionsByEmail(db: Executor, email: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('users.id').where('users.email', '=', email).where('users.deleted_at', 'is', null))
    .execute();
}

/** Removes expired rows (anyone's); the index on expires_at keeps it cheap. */
export async function deleteExpiredSessions(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
