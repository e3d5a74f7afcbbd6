/**
 * The task poller (docs/tasks.md#task-polling): on the master node, every POLL_SECONDS,
 * the unfinished drawing and music tasks are followed up, in batches per channel.
 *
 * - A task past TaskTimeoutMinutes is failed and refunded, whether or not the upstream still
 *   lists it (a task the upstream lost would otherwise never end).
 * - A task without an upstream id, or whose channel is gone, cannot be followed: failed and
 *   refunded (the reference fails these without a refund; it was charged for nothing).
 * - Holds left by a submission that died with its process are given back (task-ledger.ts).
 *
 * Every refund is a conditional move of the row's billing state, so a restart in the middle
 * of a round, a second poller on another node or a notify callback racing it cannot refund a
 * task twice. One round at a time per process; a round that throws is logged and the next
 * one runs as usual.
 */
import type { TaskRelay } from './task-relay';
import { refundTask, sweepStaleHolds, updateTask } from './task-ledger';
import type { TaskPlatform, TaskRowBase } from './task-platform';
import { drawingPlatform } from './midjourney/progress';
import { musicPlatform } from './suno/progress';

export const POLL_SECONDS = 15;
/** Unfinished tasks read per platform per round. */
const BATCH = 500;

const PLATFORMS: readonly TaskPlatform<TaskRowBase>[] = [drawingPlatform as unknown as TaskPlatform<TaskRowBase>, musicPlatform as unknown as TaskPlatform<TaskRowBase>];

function timeoutText(minutes: number): string {
  return minutes % 60 === 0 ? `上游任务超时（超过${minutes / 60}小时）` : `上游任务超时（超过${minutes}分钟）`;
}

export class TaskPoller {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(private readonly rt: TaskRelay) {}

  start(): void {
    this.#timer = setInterval(() => void this.tick(), POLL_SECONDS * 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One round now (a round under way is waited for instead of starting another). */
  tick(now = Date.now()): Promise<void> {
    this.#running ??= this.#round(now)
      .catch((err: unknown) => this.rt.log.error(`task poller: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  async #round(now: number): Promise<void> {
    const released = await sweepStaleHolds(this.rt, now);
    if (released > 0) this.rt.log.warn(`task poller: gave back ${released} holds left by interrupted submissions`);
    for (const platform of PLATFORMS) await this.#platform(platform, now);
  }

  async #fail<Row extends TaskRowBase>(platform: TaskPlatform<Row>, row: Row, reason: string, now: number): Promise<void> {
    const fields = { status: 'FAILURE', progress: '100%', fail_reason: reason, finish_time: platform.nowValue(now) };
    const refunded = await refundTask(this.rt.ctx, platform.table, { id: row.id, userId: row.user_id, tokenId: row.token_id, quota: Number(row.quota) }, fields, platform.refundText(row));
    // Already refunded (or never charged): it still must stop being followed.
    if (!refunded) await updateTask(this.rt.ctx, platform.table, row.id, fields);
  }

  async #platform<Row extends TaskRowBase>(platform: TaskPlatform<Row>, now: number): Promise<void> {
    const rows = await platform.unfinished(this.rt.ctx, BATCH);
    if (rows.length === 0) return;
    const timeoutMinutes = this.rt.ctx.options.number('TaskTimeoutMinutes');
    const byChannel = new Map<number, Row[]>();
    for (const row of rows) {
      if (timeoutMinutes > 0 && now - platform.submittedMs(row) > timeoutMinutes * 60_000) {
        await this.#fail(platform, row, timeoutText(timeoutMinutes), now);
      } else if (!platform.upstreamId(row)) {
        await this.#fail(platform, row, '任务没有上游 ID，无法跟踪', now);
      } else {
        const list = byChannel.get(row.channel_id);
        if (list) list.push(row);
        else byChannel.set(row.channel_id, [row]);
      }
    }
    for (const [channelId, list] of byChannel) {
      const channel = this.rt.channels.byId(channelId);
      if (!channel) {
        for (const row of list) await this.#fail(platform, row, `获取渠道信息失败，请联系管理员，渠道ID：${channelId}`, now);
        continue;
      }
      await platform.pollChannel(this.rt, channel, list);
    }
  }
}
