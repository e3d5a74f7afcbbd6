/**
 * Queries on the logs table. Every filter has an index led by its column and followed by
 * created_at (see the initial migration), so each list and sum is an index range scan.
 */
import { sql } from 'kysely';
import type { Page, PageRequest } from '../../../shared/api/envelope';
import { LOG_TYPE } from '../../../shared/roles';
import type { LogRow } from '../../db/tables';
import type { Executor } from '../users/user.repository';
import { fetchPage, whereGiven } from './filtered-list';

export interface LogFilter {
  userId?: number;
  /** Omitted (or 0 in the query): every type. */
  type?: number;
  username?: string;
  tokenName?: string;
  /** Exact name, or a LIKE pattern when it contains `%`. */
  modelName?: string;
  /** Unix seconds, inclusive. */
  start?: number;
  end?: number;
  channelId?: number;
  group?: string;
}

function filteredLogs(db: Executor, filter: LogFilter) {
  const model = filter.modelName;
  return whereGiven(db.selectFrom('logs'), [
    ['user_id', '=', filter.userId],
    ['type', '=', filter.type],
    ['username', '=', filter.username],
    ['token_name', '=', filter.tokenName],
    ['model_name', model?.includes('%') ? 'like' : '=', model],
    ['created_at', '>=', filter.start],
    ['created_at', '<=', filter.end],
    ['channel_id', '=', filter.channelId],
    ['group', '=', filter.group],
  ]);
}

/**
 * One page, newest first. Ordered by created_at (then id) rather than id alone so that the
 * filter's (column, created_at) index also yields the order and a page stops early.
 */
export async function listLogs(db: Executor, filter: LogFilter, page: PageRequest): Promise<Page<LogRow>> {
  return fetchPage(filteredLogs(db, filter), (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

/** Sum of consumed quota over the filter (its type is ignored: consumption only). */
export async function sumConsumedQuota(db: Executor, filter: LogFilter): Promise<number> {
  const row = await filteredLogs(db, { ...filter, type: LOG_TYPE.consume })
    .select(sql<number | string | null>`sum(quota)`.as('quota'))
    .executeTakeFirst();
  return Number(row?.quota ?? 0);
}

/** Consume requests and their prompt + completion tokens since `since` (unix seconds). */
export async function countRecentConsumption(db: Executor, filter: LogFilter, since: number): Promise<{ requests: number; tokens: number }> {
  const row = await filteredLogs(db, { ...filter, type: LOG_TYPE.consume, start: since, end: undefined })
    .select([sql<number | string>`count(*)`.as('requests'), sql<number | string | null>`sum(prompt_tokens + completion_tokens)`.as('tokens')])
    .executeTakeFirst();
  return { requests: Number(row?.requests ?? 0), tokens: Number(row?.tokens ?? 0) };
}

/** Names of the given channels by id (never their keys). */
export async function channelNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('channels').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Deletes at most `limit` of the oldest rows created before `before`; answers how many. */
export async function deleteLogsBefore(db: Executor, before: number, limit: number): Promise<number> {
  // Two steps because MySQL refuses a LIMIT subquery on the table being deleted from.
  const rows = await db.selectFrom('logs').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
  if (rows.length === 0) return 0;
  const result = await db
    .deleteFrom('logs')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
