/**
 * The relay's one call after settling a request: writes the consume log (when
 * LogConsumeEnabled) and feeds the dashboard (when DataExportEnabled). Keeping both behind
 * this function lets the log insert become batched later without touching the relay.
 */
import type { AppContext } from '../../context';
import { LOG_TYPE } from '../../../shared/roles';
import type { NewLog } from '../../db/tables';

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
  /** Ratios, cache tokens, frt, admin_info … (reference gateway §10.2). */
  other: Record<string, unknown>;
  /** Unix seconds; now when omitted. */
  createdAt?: number;
}

export async function recordConsumption(ctx: AppContext, entry: Consumption): Promise<void> {
  const createdAt = entry.createdAt ?? Math.floor(Date.now() / 1000);
  // The dashboard counts every request, whether or not consume logs are kept.
  if (ctx.options.bool('DataExportEnabled')) {
    ctx.quotaData.record({
      userId: entry.userId,
      username: entry.username,
      model: entry.modelName,
      quota: entry.quota,
      tokens: entry.promptTokens + entry.completionTokens,
      createdAt,
    });
  }
  if (!ctx.options.bool('LogConsumeEnabled')) return;
  const log: NewLog = {
    user_id: entry.userId,
    created_at: createdAt,
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
  await ctx.db.insertInto('logs').values(log).execute();
}
