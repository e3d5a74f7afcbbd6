/**
 * What a settled request leaves behind: its consume log (when LogConsumeEnabled) and its
 * count on the dashboard (when DataExportEnabled). `recordConsumption` does both in one
 * call; the pieces are exported for writers that batch log inserts themselves.
 */
import type { AppContext } from '../../context';
import { LOG_TYPE } from '../../../shared/roles';
import type { NewLog } from '../../db/tables';
import { nowSeconds } from '../../../shared/time';

export interface Consumption {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  /** The model the client asked for (gizmo models as their wildcard). */
  modelName: string;
  quota: number;
  promptTokens: number;
  completionTokens: number;
  /** Seconds the request took. */
  useTime: number;
  isStream: boolean;
  channelId: number;
  /** The group the request was billed in. */
  group: string;
  /** `模型倍率 …，补全倍率 …，分组倍率 …` or `模型价格 …，分组倍率 …` plus extras. */
  content: string;
  /** Ratios, cache tokens, frt, admin_info … (docs/logs.md#what-is-written). */
  other: Record<string, unknown>;
  /** Unix seconds; now when omitted. */
  createdAt?: number;
}

/** The consume-log row of a request (type 2); `other` stored as JSON text. */
export function consumeLogRow(entry: Consumption): NewLog {
  return {
    user_id: entry.userId,
    created_at: entry.createdAt ?? nowSeconds(),
    type: LOG_TYPE.consume,
    content: entry.content,
    username: entry.username,
    token_name: entry.tokenName,
    token_id: entry.tokenId,
    model_name: entry.modelName,
    quota: entry.quota,
    prompt_tokens: entry.promptTokens,
    completion_tokens: entry.completionTokens,
    use_time: entry.useTime,
    is_stream: entry.isStream,
    channel_id: entry.channelId,
    group: entry.group,
    other: JSON.stringify(entry.other),
  };
}

/** Whether consume logs are kept (option LogConsumeEnabled); other log types always are. */
export function consumeLogsEnabled(ctx: AppContext): boolean {
  return ctx.options.bool('LogConsumeEnabled');
}

/**
 * Counts a request on the dashboard (when DataExportEnabled), whether or not its consume
 * log is kept. Memory only: the aggregator writes quota_data in batches.
 */
export function recordDashboardUsage(ctx: AppContext, entry: Consumption): void {
  if (!ctx.options.bool('DataExportEnabled')) return;
  ctx.quotaData.record({
    userId: entry.userId,
    username: entry.username,
    model: entry.modelName,
    quota: entry.quota,
    tokens: entry.promptTokens + entry.completionTokens,
    createdAt: entry.createdAt ?? nowSeconds(),
  });
}

/**
 * Both at once for a settled request: the dashboard, then the consume log (when kept),
 * inserted directly. A writer that already inserts logs in its own transaction (the
 * relay's ledger) uses `consumeLogRow` and `recordDashboardUsage` instead.
 */
export async function recordConsumption(ctx: AppContext, entry: Consumption): Promise<void> {
  const stamped = { ...entry, createdAt: entry.createdAt ?? nowSeconds() };
  recordDashboardUsage(ctx, stamped);
  if (!consumeLogsEnabled(ctx)) return;
  await ctx.db.insertInto('logs').values(consumeLogRow(stamped)).execute();
}
