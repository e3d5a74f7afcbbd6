/**
 * The dashboard's usage series (docs/logs.md#dashboard): sums per model and hour from
 * quota_data. Administrators may see everyone or one username; a user sees their own, at
 * most one month at a time.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { nonZeroFilter, textFilter } from '../logs/filtered-list';
import { sumQuotaData, type QuotaDataPoint } from './quota-data.repository';
import { nowSeconds } from '../../../shared/time';

export interface DataQuery {
  start_timestamp?: string;
  end_timestamp?: string;
  username?: string;
}

/** The longest span a user may ask for, seconds. */
export const SELF_MAX_SPAN_SECONDS = 30 * 24 * 3600;

/** Everyone's usage, or one username's, between the given unix seconds (0 or none: open). */
export async function quotaDataForAdmin(ctx: AppContext, query: DataQuery): Promise<QuotaDataPoint[]> {
  return sumQuotaData(ctx.db, {
    username: textFilter(query.username),
    start: nonZeroFilter(query.start_timestamp),
    end: nonZeroFilter(query.end_timestamp),
  });
}

/** The caller's own usage. The end defaults to now, the start to one month before the end. */
export async function quotaDataForUser(ctx: AppContext, userId: number, query: DataQuery): Promise<QuotaDataPoint[]> {
  const end = nonZeroFilter(query.end_timestamp) ?? nowSeconds();
  const start = nonZeroFilter(query.start_timestamp) ?? end - SELF_MAX_SPAN_SECONDS;
  if (end - start > SELF_MAX_SPAN_SECONDS) throw new AppError('时间跨度不能超过 1 个月');
  return sumQuotaData(ctx.db, { userId, start, end });
}
