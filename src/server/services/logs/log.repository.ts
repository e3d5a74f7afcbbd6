/**
 * Queries on the logs table. Every selective filter (user, token, model, channel, group) has
 * an index led by its column and followed by created_at; a time range, a type or no filter
 * at all use (created_at, type, quota), which also answers the stat's sum without reading
 * rows (see the migrations). Totals over a type and a time range alone come from the hourly
 * totals where the database keeps them.
 */
import { sql } from 'kysely';
import type { Page, PageRequest } from '../../../shared/api/envelope';
import { LOG_TYPE } from '../../../shared/roles';
import type { DialectName } from '../../db/connect';
import type { LogRow } from '../../db/tables';
import type { Executor } from '../../db/executor';
import { likeMatch, prefixPattern } from '../../db/query-helpers';
import { fetchPage, whereGiven } from './filtered-list';

/** Seconds per row of log_hour_totals. */
const HOUR = 3600;

/**
 * Whether the database keeps log_hour_totals: migration 2026-11-21-004 creates it (and its
 * triggers) on SQLite and PostgreSQL, not on MySQL.
 */
export function hasHourTotals(dialect: DialectName): boolean {
  return dialect !== 'mysql';
}

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
  /** The logs of one token (always given with its owner's userId, whose index finds them). */
  tokenId?: number;
  /** The administrators' search: content starting with `prefix` (literally), or of `type`. */
  search?: { prefix: string; type?: number };
}

function filteredLogs(db: Executor, filter: LogFilter) {
  const model = filter.modelName;
  const query = whereGiven(db.selectFrom('logs'), [
    ['user_id', '=', filter.userId],
    ['token_id', '=', filter.tokenId],
    ['type', '=', filter.type],
    ['username', '=', filter.username],
    ['token_name', '=', filter.tokenName],
    ['model_name', model?.includes('%') ? 'like' : '=', model],
    ['created_at', '>=', filter.start],
    ['created_at', '<=', filter.end],
    ['channel_id', '=', filter.channelId],
    ['group', '=', filter.group],
  ]);
  const search = filter.search;
  if (!search) return query;
  const content = likeMatch('content', prefixPattern(search.prefix));
  return query.where((eb) => (search.type === undefined ? content : eb.or([eb('type', '=', search.type), content])));
}

/**
 * The whole hours a filter covers, when log_hour_totals can answer for it: `from` (first
 * second of the first whole hour, inclusive) and `to` (first second after the last one,
 * exclusive), either open where the range is. Undefined when the filter has more than a
 * type and a time range, when the range holds no whole hour, or when it reaches into the
 * first hour of 1970 or before (where `created_at % 3600`, which truncates toward zero, no
 * longer gives the hour's first second).
 */
function wholeHours(filter: LogFilter): { from?: number; to?: number } | undefined {
  const { type: _type, start, end, ...others } = filter;
  if (Object.values(others).some((value) => value !== undefined)) return undefined;
  if ((start !== undefined && start < HOUR) || (end !== undefined && end < HOUR)) return undefined;
  const from = start === undefined ? undefined : Math.ceil(start / HOUR) * HOUR;
  const to = end === undefined ? undefined : Math.floor((end + 1) / HOUR) * HOUR;
  if (from !== undefined && to !== undefined && from >= to) return undefined;
  return { from, to };
}

/**
 * COUNT(*) (`n`) or SUM(quota) of the logs matching the filter. With hourly totals and a
 * filter they can answer, the whole hours' totals plus the logs of the partial hours at
 * either end (an index range each), in one statement so the parts see the same moment;
 * otherwise over the matching logs.
 */
async function total(db: Executor, filter: LogFilter, of: 'n' | 'quota', hourTotals: boolean): Promise<number> {
  const ofLogs = () => (of === 'n' ? sql<number | string>`count(*)` : sql<number | string | null>`sum(quota)`).as('v');
  const hours = hourTotals ? wholeHours(filter) : undefined;
  if (!hours) return Number((await filteredLogs(db, filter).select(ofLogs()).executeTakeFirst())?.v ?? 0);
  const { from, to } = hours;
  const ofHours = whereGiven(db.selectFrom('log_hour_totals'), [
    ['type', '=', filter.type],
    ['hour', '>=', from],
    ['hour', '<', to],
  ]).select(sql<number | string>`coalesce(sum(${sql.ref(of)}), 0)`.as('v'));
  const none = sql<number>`0`;
  const row = await db
    .selectNoFrom([
      ofHours.as('hours'),
      from === undefined
        ? none.as('before')
        : filteredLogs(db, { ...filter, end: from - 1 })
            .select(ofLogs())
            .as('before'),
      to === undefined
        ? none.as('after')
        : filteredLogs(db, { ...filter, start: to })
            .select(ofLogs())
            .as('after'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.hours ?? 0) + Number(row.before ?? 0) + Number(row.after ?? 0);
}

/**
 * One page, newest first. Ordered by created_at (then id) rather than id alone so that the
 * filter's (column, created_at) index also yields the order and a page stops early.
 */
export async function listLogs(db: Executor, filter: LogFilter, page: PageRequest, hourTotals: boolean): Promise<Page<LogRow>> {
  return fetchPage(
    filteredLogs(db, filter),
    (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
    () => total(db, filter, 'n', hourTotals),
  );
}

/**
 * The next rows of an export: newest first by id, below `belowId` (the last id of the
 * previous page; undefined for the first). A keyset page costs the same at the end of ten
 * million rows as at the start, where an offset would read every row before it.
 */
export async function logsBelowId(db: Executor, filter: LogFilter, belowId: number | undefined, limit: number): Promise<LogRow[]> {
  const filtered = filteredLogs(db, filter);
  const after = belowId === undefined ? filtered : filtered.where('id', '<', belowId);
  return after.selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Sum of consumed quota over the filter (its type is ignored: consumption only). */
export async function sumConsumedQuota(db: Executor, filter: LogFilter, hourTotals: boolean): Promise<number> {
  return total(db, { ...filter, type: LOG_TYPE.consume }, 'quota', hourTotals);
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
