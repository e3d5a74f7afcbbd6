/**
 * Usage-log rules (docs/logs.md#queries): administrators filter every log; a user only
 * ever reads their own, whatever they pass, and never sees channel details. Stats sum the
 * consumption of the filter; rpm and tpm look at the last minute only. The searches and the
 * public lookup by token key serve the same pages (`p` from 0, `{items, total, page,
 * page_size}`) as the lists.
 */
import type { Page, PageRequest } from '../../../shared/api/envelope';
import { parsePageRequest } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { asBool, type LogRow } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import { USER_STATUS_ENABLED } from '../../../shared/roles';
import { findTokenByKey } from '../tokens/token.repository';
import { nonZeroFilter, nullsToEmpty, textFilter } from './filtered-list';
import { channelNames, countRecentConsumption, deleteLogsBefore, hasHourTotals, listLogs, sumConsumedQuota, type LogFilter } from './log.repository';
import { nowSeconds } from '../../../shared/time';

/** The list and stat query as the console sends it (validated text). */
export interface LogQuery {
  p?: string;
  page_size?: string;
  type?: string;
  username?: string;
  token_name?: string;
  model_name?: string;
  start_timestamp?: string;
  end_timestamp?: string;
  channel?: string;
  group?: string;
}

/** The search query: `keyword`, and the page. */
export interface LogSearchQuery {
  p?: string;
  page_size?: string;
  keyword?: string;
}

/**
 * Who asks: an administrator sees every user's logs, anyone else only their own; a caller
 * with only a token key sees only that token's logs (as its owner would).
 */
export type LogScope = { admin: true } | { admin: false; userId: number; tokenId?: number };

/** A log row as replied: `channel` is the channel id, `is_stream` a boolean. */
export type LogItem = Omit<LogRow, 'channel_id' | 'is_stream'> & { channel: number; channel_name: string; is_stream: boolean };

/** The window of rpm and tpm, seconds. */
export const RECENT_WINDOW_SECONDS = 60;
/** Longer than any stored token key (48 characters): refused without a query. */
const MAX_KEY_LENGTH = 64;
/** Rows removed per statement when cleaning, so no statement holds the table for long. */
const DELETE_CHUNK = 5000;

/** The repository filter of a list query, narrowed to what the scope may read. */
export function filterOf(query: LogQuery, scope: LogScope): LogFilter {
  const common: LogFilter = {
    type: nonZeroFilter(query.type),
    tokenName: textFilter(query.token_name),
    modelName: textFilter(query.model_name),
    start: nonZeroFilter(query.start_timestamp),
    end: nonZeroFilter(query.end_timestamp),
    group: textFilter(query.group),
  };
  if (!scope.admin) return { ...common, userId: scope.userId, tokenId: scope.tokenId };
  return { ...common, username: textFilter(query.username), channelId: nonZeroFilter(query.channel) };
}

/** A log type written as a keyword (`2`), or undefined. */
function typeKeyword(keyword: string): number | undefined {
  return /^-?\d{1,9}$/.test(keyword) ? Number(keyword) : undefined;
}

/** Drops `admin_info` (the channels a request tried) from a user's view of `other`. */
export function withoutAdminInfo(other: string): string {
  if (!other.includes('admin_info')) return other;
  try {
    const parsed = JSON.parse(other) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return other;
    const { admin_info: _hidden, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return other;
  }
}

export async function listLogsFor(ctx: AppContext, query: LogQuery, scope: LogScope): Promise<Page<LogItem>> {
  return pageFor(ctx, filterOf(query, scope), parsePageRequest(query), scope);
}

/**
 * The searches of the reference (docs/logs.md#search), paged like the lists. Administrators: logs whose
 * type is the keyword or whose content starts with it (literally; wildcards are plain
 * characters). Users: their own logs of the type the keyword names; a keyword that names
 * no type finds nothing. An empty keyword does not filter.
 */
export async function searchLogsFor(ctx: AppContext, query: LogSearchQuery, scope: LogScope): Promise<Page<LogItem>> {
  const page = parsePageRequest(query);
  const keyword = (query.keyword ?? '').trim();
  const type = typeKeyword(keyword);
  if (scope.admin) return pageFor(ctx, keyword ? { search: { prefix: keyword, type } } : {}, page, scope);
  if (keyword && type === undefined) return { items: [], total: 0, page: page.page, page_size: page.pageSize };
  return pageFor(ctx, { userId: scope.userId, type }, page, scope);
}

/**
 * The token a key names, for the public usage lookup: `sk-` and an admin's `-CHANNEL` suffix
 * are ignored, as the relay reads keys. A disabled, expired or exhausted token may still read
 * its usage (the lookup only reads); a deleted one, or one of a deleted user, is unknown.
 * Refusals never repeat the key.
 */
export async function tokenScopeOfKey(ctx: AppContext, presented: string): Promise<LogScope> {
  const key =
    presented
      .trim()
      .replace(/^Bearer\s+/i, '')
      .replace(/^sk-/, '')
      .split('-')[0] ?? '';
  if (!key) throw new AppError('未提供令牌', 401);
  const token = key.length <= MAX_KEY_LENGTH ? await findTokenByKey(ctx.db, key) : undefined;
  if (!token) throw new AppError('无效的令牌', 401);
  const user = await ctx.db.selectFrom('users').select('status').where('id', '=', token.user_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!user) throw new AppError('无效的令牌', 401);
  if (user.status !== USER_STATUS_ENABLED) throw new AppError(MSG.banned, 403);
  return { admin: false, userId: token.user_id, tokenId: token.id };
}

async function pageFor(ctx: AppContext, filter: LogFilter, request: PageRequest, scope: LogScope): Promise<Page<LogItem>> {
  const page = await listLogs(ctx.db, filter, request, hasHourTotals(ctx.dialect));
  const names = scope.admin ? await channelNames(ctx.db, [...new Set(page.items.map((r) => r.channel_id).filter((id) => id > 0))]) : new Map<number, string>();
  const items = page.items.map((raw): LogItem => {
    const { channel_id, is_stream, ...row } = nullsToEmpty(raw);
    return {
      ...row,
      is_stream: asBool(is_stream),
      channel: scope.admin ? channel_id : 0,
      channel_name: names.get(channel_id) ?? '',
      other: scope.admin ? row.other : withoutAdminInfo(row.other),
    };
  });
  return { ...page, items };
}

export interface LogStat {
  quota: number;
  /** Consume requests in the last minute. */
  rpm: number;
  /** Prompt + completion tokens in the last minute. */
  tpm: number;
}

export async function logStatFor(ctx: AppContext, query: LogQuery, scope: LogScope): Promise<LogStat> {
  const filter = filterOf(query, scope);
  const since = nowSeconds() - RECENT_WINDOW_SECONDS;
  const quota = await sumConsumedQuota(ctx.db, filter, hasHourTotals(ctx.dialect));
  const recent = await countRecentConsumption(ctx.db, filter, since);
  return { quota, rpm: recent.requests, tpm: recent.tokens };
}

/**
 * Deletes every log (all users, all types) created before `targetTimestamp` (unix
 * seconds), chunk by chunk; answers how many rows went.
 */
export async function deleteLogsOlderThan(ctx: AppContext, targetTimestamp: unknown): Promise<number> {
  const text = typeof targetTimestamp === 'string' ? targetTimestamp.trim() : '';
  const target = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (target <= 0) throw new AppError('target timestamp is required');
  let total = 0;
  for (;;) {
    const deleted = await deleteLogsBefore(ctx.db, target, DELETE_CHUNK);
    if (deleted === 0) return total;
    total += deleted;
  }
}
