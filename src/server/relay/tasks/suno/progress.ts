/**
 * Following music tasks to their end (docs/tasks.md#task-polling): one `POST {base}/suno/fetch`
 * per channel for its unfinished tasks; each changed task's status, failure reason, times
 * and payload copied; a failure refunded exactly once (user and token), a success 100%.
 */
import type { RelayChannel } from '../../channels/channel-index';
import type { TaskRelay } from '../task-relay';
import type { TaskRow } from '../../../services/tasks/task.repository';
import { refundTask, updateTask } from '../task-ledger';
import { isObject, pollTaskUpstream } from '../task-upstream';
import type { TaskPlatform } from '../task-platform';
import { nowSeconds } from '../../../../shared/time';

const KNOWN_STATUSES = new Set(['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN']);

export function musicRefundText(taskId: string): (amount: string) => string {
  return (amount) => `异步任务执行失败 ${taskId}，补偿 ${amount}`;
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function changesOf(row: TaskRow, item: Record<string, unknown>): Record<string, unknown> {
  const status = typeof item.status === 'string' ? item.status.toUpperCase() : '';
  const next: Record<string, unknown> = {
    status: KNOWN_STATUSES.has(status) ? status : status ? 'UNKNOWN' : undefined,
    fail_reason: typeof item.fail_reason === 'string' && item.fail_reason ? item.fail_reason : undefined,
    start_time: seconds(item.start_time),
    finish_time: seconds(item.finish_time),
    progress: typeof item.progress === 'string' && item.progress ? item.progress.slice(0, 20) : undefined,
    data: item.data !== undefined && item.data !== null ? JSON.stringify(item.data) : undefined,
  };
  const current = row as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => v !== undefined && v !== current[k] && !(typeof current[k] === 'number' && Number(current[k]) === v)));
}

async function pollChannel(rt: TaskRelay, channel: RelayChannel, rows: TaskRow[]): Promise<void> {
  const what = `music tasks of channel #${channel.id}`;
  const reply = await pollTaskUpstream(rt, channel, what, `${channel.baseUrl}/suno/fetch`, { authorization: `Bearer ${channel.key}` }, { ids: rows.map((r) => r.task_id) });
  if (!isObject(reply) || reply.code !== 'success' || !Array.isArray(reply.data)) {
    if (reply !== undefined) rt.log.warn(`${what}: the answer is not a successful list`);
    return;
  }
  const byId = new Map(rows.map((r) => [r.task_id, r]));
  const now = nowSeconds();
  for (const item of reply.data) {
    if (!isObject(item) || typeof item.task_id !== 'string') continue;
    const row = byId.get(item.task_id);
    if (!row) continue;
    const changes = changesOf(row, item);
    if (Object.keys(changes).length === 0) continue;
    changes.updated_at = now;
    const status = (changes.status ?? row.status) as string;
    if (status === 'FAILURE' || changes.fail_reason) {
      changes.progress = '100%';
      if (!changes.finish_time && !Number(row.finish_time)) changes.finish_time = now;
      await refundTask(rt.ctx, 'tasks', { id: row.id, userId: row.user_id, tokenId: row.token_id, quota: Number(row.quota) }, changes, musicRefundText(row.task_id));
    } else if (status === 'SUCCESS') {
      changes.progress = '100%';
      if (!changes.finish_time && !Number(row.finish_time)) changes.finish_time = now;
    }
    await updateTask(rt.ctx, 'tasks', row.id, changes, { unfinishedOnly: true });
  }
}

export const musicPlatform: TaskPlatform<TaskRow> = {
  name: 'music',
  table: 'tasks',
  async unfinished(ctx, limit) {
    return ctx.db.selectFrom('tasks').selectAll().where('platform', '=', 'suno').where('progress', '!=', '100%').where('billing', '!=', 'held').orderBy('id').limit(limit).execute();
  },
  submittedMs: (row) => Number(row.submit_time) * 1000,
  upstreamId: (row) => row.task_id,
  refundText: (row) => musicRefundText(row.task_id),
  nowValue: (ms) => Math.floor(ms / 1000),
  pollChannel,
};
