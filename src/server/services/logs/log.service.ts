/**
 * Usage-log rules (reference gateway §10.3): administrators filter every log; a user only
 * ever reads their own, whatever they pass, and never sees channel details. Stats sum the
 * consumption of the filter; rpm and tpm look at the last minute only.
 */
import type { Page } from '../../../shared/api/envelope';
import { parsePageRequest } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { asBool, type LogRow } from '../../db/tables';
import { AppError } from '../../errors';
import { nonZeroFilter, nullsToEmpty, textFilter } from './filtered-list';
import { channelNames, countRecentConsumption, deleteLogsBefore, hasHourTotals, listLogs, sumConsumedQuota, type LogFilter } from './log.repository';

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

/** Who asks: an administrator sees every user's logs, anyone else only their own. */
export type LogScope = { admin: true } | { admin: false; userId: number };

/** A log row as replied: `channel` is the channel id, `is_stream` a boolean. */
export type LogItem = Omit<LogRow, 'channel_id' | 'is_stream'> & { channel: number; channel_name: string; is_stream: boolean };

/** The window of rpm and tpm, seconds. */
export const RECENT_WINDOW_SECONDS = 60;
/** Rows removed per statement when cleaning, so no statement holds the table for long. */
const DELETE_CHUNK = 5000;

function filterOf(query: LogQuery, scope: LogScope): LogFilter {
  const common: LogFilter = {
    type: nonZeroFilter(query.type),
    tokenName: textFilter(query.token_name),
    modelName: textFilter(query.model_name),
    start: nonZeroFilter(query.start_timestamp),
    end: nonZeroFilter(query.end_timestamp),
    group: textFilter(query.group),
  };
  if (!scope.admin) return { ...common, userId: scope.userId };
  return { ...common, username: textFilter(query.username), channelId: nonZeroFilter(query.channel) };
}

/** Drops `admin_info` (the channels a request tried) from a user's view of `other`. */
function withoutAdminInfo(other: string): string {
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
  const page = await listLogs(ctx.db, filterOf(query, scope), parsePageRequest(query), hasHourTotals(ctx.dialect));
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
  const since = Math.floor(Date.now() / 1000) - RECENT_WINDOW_SECONDS;
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
