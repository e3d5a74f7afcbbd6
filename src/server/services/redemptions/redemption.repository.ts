/**
 * Queries on the redemptions table (live rows only). Status changes are conditional
 * updates, so a code being redeemed and edited at the same moment ends in one consistent
 * state: whichever statement runs second finds the status it expects gone.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { PageRequest } from '../../../shared/api/envelope';
import { likeMatch, pageRows, prefixPattern } from '../../db/query-helpers';
import type { RedemptionRow, RedemptionsTable } from '../../db/tables';
import type { Executor } from '../../db/executor';
import { REDEMPTION_STATUS } from '../../../shared/redemption-status';

export type NewRedemption = Insertable<RedemptionsTable>;
export type RedemptionPatch = Updateable<RedemptionsTable>;

function liveRedemptions(db: Executor) {
  return db.selectFrom('redemptions').where('deleted_at', 'is', null);
}

export async function insertRedemptions(db: Executor, rows: NewRedemption[]): Promise<void> {
  for (const row of rows) await db.insertInto('redemptions').values(row).execute();
}

export async function findRedemption(db: Executor, id: number): Promise<RedemptionRow | undefined> {
  return liveRedemptions(db).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRedemptionByKey(db: Executor, key: string): Promise<RedemptionRow | undefined> {
  return liveRedemptions(db).selectAll().where('key', '=', key).executeTakeFirst();
}

/** One page, newest first; `keyword` matches the start of the name, or the id when numeric. */
export async function listRedemptions(db: Executor, keyword: string, page: PageRequest): Promise<{ rows: RedemptionRow[]; total: number }> {
  let query = liveRedemptions(db);
  if (keyword) {
    // Nine digits at most: the id column is an integer (PostgreSQL refuses larger numbers).
    const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined;
    query = query.where((eb) => eb.or([likeMatch('name', prefixPattern(keyword)), ...(id !== undefined ? [eb('id', '=', id)] : [])]));
  }
  return pageRows(query.selectAll().orderBy('id', 'desc'), page);
}

/** Updates a live code only while its status is one of `statuses`; answers whether it did. */
export async function updateRedemptionIf(db: Executor, id: number, statuses: number[], patch: RedemptionPatch): Promise<boolean> {
  const result = await db.updateTable('redemptions').set(patch).where('id', '=', id).where('status', 'in', statuses).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function softDeleteRedemption(db: Executor, id: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ deleted_at: sql`CURRENT_TIMESTAMP` as unknown as string })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The one atomic claim of a redemption: marks an unused live code used by `userId`.
 * Of any number of concurrent attempts exactly one sees `true`.
 */
export async function claimRedemption(db: Executor, key: string, userId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status: REDEMPTION_STATUS.used, used_user_id: userId, redeemed_time: now })
    .where('key', '=', key)
    .where('status', '=', REDEMPTION_STATUS.unused)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
