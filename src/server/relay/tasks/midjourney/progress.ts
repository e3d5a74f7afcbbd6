/**
 * Following drawing tasks to their end (docs/tasks.md#task-polling): one list-by-condition call
 * per channel for its unfinished tasks, each returned task's fields copied, a failure
 * refunded exactly once (user and token), a success marked 100%.
 */
import type { RelayChannel } from '../../channels/channel-index';
import type { TaskRelay } from '../task-relay';
import type { MidjourneyRow } from '../../../services/tasks/task.repository';
import { refundTask, updateTask } from '../task-ledger';
import { isObject, pollTaskUpstream } from '../task-upstream';
import type { TaskPlatform } from '../task-platform';

/** A task that ended badly, by the reference's rule (and any task the upstream calls FAILURE). */
export function failureOf(row: { progress: string; fail_reason: string | null; status: string }): boolean {
  if (row.status === 'FAILURE') return true;
  return row.progress !== '100%' && !!row.fail_reason;
}

export function drawingRefundText(mjId: string): (amount: string) => string {
  return (amount) => `构图失败 ${mjId}，补偿 ${amount}`;
}

function text(value: unknown, limit = 65535): string | undefined {
  return typeof value === 'string' ? value.slice(0, limit) : undefined;
}

function millis(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The row's new fields from the upstream's view of the task (unknown or mistyped fields left out). */
function changesOf(row: MidjourneyRow, item: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = {
    code: 1,
    progress: text(item.progress, 30),
    prompt_en: text(item.promptEn),
    state: text(item.state),
    start_time: millis(item.startTime),
    finish_time: millis(item.finishTime),
    image_url: text(item.imageUrl),
    status: text(item.status, 20),
    fail_reason: text(item.failReason),
    buttons: Array.isArray(item.buttons) ? JSON.stringify(item.buttons) : undefined,
    properties: isObject(item.properties) ? JSON.stringify(item.properties) : undefined,
  };
  const current = row as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => v !== undefined && v !== current[k] && !(typeof current[k] === 'number' && Number(current[k]) === v)));
}

async function pollChannel(rt: TaskRelay, channel: RelayChannel, rows: MidjourneyRow[]): Promise<void> {
  const what = `drawing tasks of channel #${channel.id}`;
  const items = await pollTaskUpstream(rt, channel, what, `${channel.baseUrl}/mj/task/list-by-condition`, { 'mj-api-secret': channel.key }, { ids: rows.map((r) => r.mj_id) });
  if (!Array.isArray(items)) {
    if (items !== undefined) rt.log.warn(`${what}: the answer is not a list`);
    return;
  }
  const byId = new Map(rows.map((r) => [r.mj_id, r]));
  for (const item of items) {
    if (!isObject(item) || typeof item.id !== 'string') continue;
    const row = byId.get(item.id);
    if (!row) continue;
    const changes = changesOf(row, item);
    const next = { ...row, ...changes } as MidjourneyRow;
    if (failureOf(next)) {
      changes.progress = '100%';
      if (!changes.finish_time && !row.finish_time) changes.finish_time = Date.now();
      await refundTask(rt.ctx, 'midjourneys', { id: row.id, userId: row.user_id, tokenId: row.token_id, quota: Number(row.quota) }, changes, drawingRefundText(row.mj_id));
    } else if (next.status === 'SUCCESS') {
      changes.progress = '100%';
    }
    await updateTask(rt.ctx, 'midjourneys', row.id, changes, { unfinishedOnly: true });
  }
}

export const drawingPlatform: TaskPlatform<MidjourneyRow> = {
  name: 'drawing',
  table: 'midjourneys',
  async unfinished(ctx, limit) {
    return ctx.db.selectFrom('midjourneys').selectAll().where('progress', '!=', '100%').where('billing', '!=', 'held').orderBy('id').limit(limit).execute();
  },
  submittedMs: (row) => Number(row.submit_time),
  upstreamId: (row) => row.mj_id,
  refundText: (row) => drawingRefundText(row.mj_id),
  nowValue: (ms) => ms,
  pollChannel,
};
