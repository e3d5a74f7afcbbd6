/**
 * Queries on quota_data, the hourly usage table behind the dashboard. Reads use the
 * (created_at), (username, created_at) and (user_id, created_at) indexes.
 */
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { whereGiven } from '../logs/filtered-list';

/** One hour bucket of one user's use of one model. */
export interface QuotaBucket {
  userId: number;
  username: string;
  modelName: string;
  /** Start of the hour, unix seconds. */
  createdAt: number;
  count: number;
  quota: number;
  tokenUsed: number;
}

/** Adds a bucket to its row with atomic `col = col + ?` updates, or inserts the row. */
export async function addQuotaBucket(db: Executor, b: QuotaBucket): Promise<void> {
  const updated = await db
    .updateTable('quota_data')
    .set({
      count: sql`${sql.ref('count')} + ${b.count}`,
      quota: sql`${sql.ref('quota')} + ${b.quota}`,
      token_used: sql`${sql.ref('token_used')} + ${b.tokenUsed}`,
    })
    .where('user_id', '=', b.userId)
    .where('created_at', '=', b.createdAt)
    .where('username', '=', b.username)
    .where('model_name', '=', b.modelName)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('quota_data')
    .values({ user_id: b.userId, username: b.username, model_name: b.modelName, created_at: b.createdAt, count: b.count, quota: b.quota, token_used: b.tokenUsed })
    .execute();
}

export interface QuotaDataFilter {
  userId?: number;
  username?: string;
  /** Unix seconds, inclusive, on the hour buckets. */
  start?: number;
  end?: number;
}

/** A point of the dashboard: one model in one hour, summed over the filter's rows. */
export interface QuotaDataPoint {
  model_name: string;
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

/** Sums per (model, hour), oldest first. Grouping also merges rows two nodes wrote for one bucket. */
export async function sumQuotaData(db: Executor, filter: QuotaDataFilter): Promise<QuotaDataPoint[]> {
  const rows = await whereGiven(db.selectFrom('quota_data'), [
    ['user_id', '=', filter.userId],
    ['username', '=', filter.username],
    ['created_at', '>=', filter.start],
    ['created_at', '<=', filter.end],
  ])
    .select([
      'model_name',
      'created_at',
      sql<number | string>`sum(${sql.ref('count')})`.as('count'),
      sql<number | string>`sum(${sql.ref('quota')})`.as('quota'),
      sql<number | string>`sum(${sql.ref('token_used')})`.as('token_used'),
    ])
    .groupBy(['model_name', 'created_at'])
    .orderBy('created_at')
    .orderBy('model_name')
    .execute();
  return rows.map((r) => ({
    model_name: r.model_name,
    created_at: Number(r.created_at),
    count: Number(r.count),
    quota: Number(r.quota),
    token_used: Number(r.token_used),
  }));
}
