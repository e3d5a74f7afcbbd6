/**
 * Queries on the tokens table. Every console query is scoped to the owner (`user_id`, led
 * by the (user_id, id) index) and to live rows; functions take the executor first so they
 * run inside transactions too.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { PageRequest } from '../../../shared/api/envelope';
import { containsPattern, likeMatch, likeMatchIgnoringCase, pageRows } from '../../db/query-helpers';
import type { TokenRow, TokensTable } from '../../db/tables';
import type { Executor } from '../../db/executor';

export type NewToken = Insertable<TokensTable>;
export type TokenPatch = Updateable<TokensTable>;

export interface TokenFilter {
  /** Substring of the name, any case. */
  name?: string;
  /** Substring of the stored key (without the sk- prefix). */
  key?: string;
}

function ownTokens(db: Executor, userId: number) {
  return db.selectFrom('tokens').where('user_id', '=', userId).where('deleted_at', 'is', null);
}

/** Inserts the rows and answers them as stored, in the order given. */
export async function insertTokens(db: Executor, rows: NewToken[]): Promise<TokenRow[]> {
  for (const row of rows) await db.insertInto('tokens').values(row).execute();
  const keys = rows.map((r) => r.key);
  const stored = await db.selectFrom('tokens').selectAll().where('key', 'in', keys).execute();
  const byKey = new Map(stored.map((r) => [r.key, r]));
  return keys.map((k) => byKey.get(k)!);
}

export async function findOwnToken(db: Executor, userId: number, id: number): Promise<TokenRow | undefined> {
  return ownTokens(db, userId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** A live token by its stored key (the relay's lookup). */
export async function findTokenByKey(db: Executor, key: string): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
}

/** One page of the owner's tokens, newest first, and the count of all matches. */
export async function listOwnTokens(db: Executor, userId: number, filter: TokenFilter, page: PageRequest): Promise<{ rows: TokenRow[]; total: number }> {
  let query = ownTokens(db, userId);
  if (filter.name) query = query.where(likeMatchIgnoringCase('name', containsPattern(filter.name)));
  if (filter.key) query = query.where(likeMatch('key', containsPattern(filter.key)));
  return pageRows(query.selectAll().orderBy('id', 'desc'), page);
}

/** Updates the owner's live token; answers whether it exists. */
export async function updateOwnToken(db: Executor, userId: number, id: number, patch: TokenPatch): Promise<boolean> {
  const result = await db.updateTable('tokens').set(patch).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function softDeleteOwnToken(db: Executor, userId: number, id: number): Promise<boolean> {
  return updateOwnToken(db, userId, id, { deleted_at: sql`CURRENT_TIMESTAMP` as unknown as string });
}

/** Changes the status only while it is still `from`; answers whether it changed. */
export async function setTokenStatusIf(db: Executor, id: number, from: number, to: number): Promise<boolean> {
  const result = await db.updateTable('tokens').set({ status: to }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
