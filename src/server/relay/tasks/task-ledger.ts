/**
 * The money of asynchronous tasks (drawing and music), moved exactly once (issue #17).
 *
 * A task's row is its own journal: the `billing` column says where its money is, and every
 * move is one transaction whose first statement is a conditional update of that column
 * (`… WHERE id = ? AND billing = 'held'`). Only the transaction that wins it moves money, so
 * a refund cannot happen twice, whether two nodes, a notify callback and the poller, or a
 * restart race for it.
 *
 *   hold     before the upstream call: the price is taken from the user (and a limited token
 *            must cover it; an unlimited one is counted down, as the relay's ledger does) and
 *            the row is inserted as `held`. Refused when the balance does not cover it.
 *   confirm  the upstream accepted: `held → charged`, used_quota / request_count of user,
 *            token and channel, the consume log, all in one transaction.
 *   release  the upstream refused (or was unreachable): `held → released`, the price given
 *            back; the row stays as a failed task, or goes when nothing was submitted.
 *   refund   the task failed later (poller, callback, time-out): `charged → refunded`, the
 *            price given back to user and token, with a system log line.
 *   sweep    a hold older than HELD_STALE_SECONDS belongs to a submission that died with its
 *            process (a submit times out after a minute): released by the poller.
 *
 * The consume log and used_quota keep a refunded charge (they say what was consumed when);
 * the refund is its own system log. So Σ consume logs = used_quota holds for user, token and
 * channel, and quota + used_quota − refunded = what the user had.
 */
import type { Insertable, Transaction, Updateable } from 'kysely';
import type { AppContext } from '../../context';
import type { Database, MidjourneysTable, TasksTable } from '../../db/tables';
import { LOG_TYPE } from '../../../shared/roles';
import { logQuota } from '../../../shared/quota';
import { quotaDisplay } from '../../services/options/quota-display';
import { consumeLogRow, consumeLogsEnabled, recordDashboardUsage, type Consumption } from '../../services/logs/consumption';
import type { TaskRelay } from './task-relay';
import { changeEvents } from '../../plumbing/change-events';
import { nowSeconds } from '../../../shared/time';

export type TaskTable = 'midjourneys' | 'tasks';

/** Rows of either table, as inserted and as updated. */
export type TaskInsert<T extends TaskTable> = T extends 'midjourneys' ? Insertable<MidjourneysTable> : Insertable<TasksTable>;
export type TaskUpdate<T extends TaskTable> = T extends 'midjourneys' ? Updateable<MidjourneysTable> : Updateable<TasksTable>;

export const BILLING = { held: 'held', charged: 'charged', released: 'released', refunded: 'refunded' } as const;

/** A hold older than this (seconds) belongs to a submission that cannot still be running. */
export const HELD_STALE_SECONDS = 600;

/** Who pays for a task. */
export interface TaskPayer {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  /** A limited token must itself cover the price. */
  tokenLimited: boolean;
  group: string;
}

export type HoldOutcome = { ok: true; id: number } | { ok: false; reason: 'user' | 'token' };

type Trx = Transaction<Database>;

/**
 * One table's statements. Kysely cannot type an update over a union of tables, so each
 * statement names its table through this narrow view (both tables have these columns).
 */
function rows(trx: Trx, table: TaskTable) {
  return trx.updateTable(table as 'tasks');
}

async function insertRow<T extends TaskTable>(ctx: AppContext, trx: Trx, table: T, row: TaskInsert<T>): Promise<number> {
  const values = row as Insertable<TasksTable>;
  if (ctx.dialect === 'mysql') {
    const result = await trx
      .insertInto(table as 'tasks')
      .values(values)
      .executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const inserted = await trx
    .insertInto(table as 'tasks')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Takes `amount` from user (and token) only while they cover it; answers who could not. */
async function take(trx: Trx, payer: TaskPayer, amount: number): Promise<'user' | 'token' | undefined> {
  if (payer.tokenId > 0) {
    let update = trx
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount) }))
      .where('id', '=', payer.tokenId);
    if (payer.tokenLimited) update = update.where('remain_quota', '>=', amount);
    const moved = await update.executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return 'token';
  }
  const moved = await trx
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', payer.userId)
    .where('quota', '>=', amount)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 0 ? 'user' : undefined;
}

/** Gives `amount` back to user and token (never conditional: it was taken before). */
async function giveBack(trx: Trx, userId: number, tokenId: number, amount: number): Promise<void> {
  if (amount === 0) return;
  if (tokenId > 0) {
    await trx
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '+', amount) }))
      .where('id', '=', tokenId)
      .execute();
  }
  await trx
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', userId)
    .execute();
}

/** Moves the row from `from` to `to` (with `fields`); true when this transaction did it. */
async function claim<T extends TaskTable>(trx: Trx, table: T, id: number, from: readonly string[], to: string, fields: TaskUpdate<T>): Promise<boolean> {
  const result = await rows(trx, table)
    .set({ ...(fields as Updateable<TasksTable>), billing: to })
    .where('id', '=', id)
    .where('billing', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Takes the price and inserts the task row as `held`, in one transaction. */
export async function holdTask<T extends TaskTable>(rt: TaskRelay, table: T, payer: TaskPayer, amount: number, row: TaskInsert<T>): Promise<HoldOutcome> {
  const outcome = await rt.ctx.db
    .transaction()
    .execute(async (trx): Promise<HoldOutcome> => {
      const short = amount > 0 ? await take(trx, payer, amount) : undefined;
      // Rolls the transaction back: a token counted down before the user was found short too.
      if (short) throw new Refused(short);
      const id = await insertRow(rt.ctx, trx, table, { ...row, user_id: payer.userId, token_id: payer.tokenId, quota: amount, billing: BILLING.held } as TaskInsert<T>);
      return { ok: true, id };
    })
    .catch((err: unknown) => {
      if (err instanceof Refused) return { ok: false as const, reason: err.reason };
      throw err;
    });
  if (outcome.ok) rt.auth.adjustRemain(payer.tokenId, -amount);
  return outcome;
}

/** Thrown inside the hold's transaction so it rolls back (the token side may have moved). */
class Refused extends Error {
  constructor(readonly reason: 'user' | 'token') {
    super(reason);
  }
}

export interface TaskCharge {
  amount: number;
  channelId: number;
  /** The priced name (`mj_imagine`, `suno_music` …). */
  modelName: string;
  content: string;
  other: Record<string, unknown>;
  /** Seconds the submission took. */
  useTime: number;
}

/**
 * The upstream accepted: `held → charged` with the row's new fields, the usage counters and
 * the consume log in one transaction. Answers false when the hold was gone (swept as stale:
 * the task is then billed as new, so it is never free and never billed twice).
 */
export async function confirmTask<T extends TaskTable>(rt: TaskRelay, table: T, id: number, payer: TaskPayer, charge: TaskCharge, fields: TaskUpdate<T>): Promise<void> {
  const { ctx } = rt;
  const now = nowSeconds();
  const entry: Consumption = {
    userId: payer.userId,
    username: payer.username,
    tokenId: payer.tokenId,
    tokenName: payer.tokenName,
    modelName: charge.modelName,
    quota: charge.amount,
    promptTokens: 0,
    completionTokens: 0,
    useTime: charge.useTime,
    isStream: false,
    channelId: charge.channelId,
    group: payer.group,
    content: charge.content,
    other: charge.other,
    createdAt: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await claim(trx, table, id, [BILLING.held], BILLING.charged, fields))) {
      // The hold was swept and given back meanwhile: take the price again, unconditionally
      // (the upstream has the task; the balance may go below zero as with any late charge).
      await claim(trx, table, id, [BILLING.released], BILLING.charged, fields);
      await giveBack(trx, payer.userId, payer.tokenId, -charge.amount);
    }
    if (charge.amount !== 0) {
      if (payer.tokenId > 0) {
        await trx
          .updateTable('tokens')
          .set((eb) => ({ used_quota: eb('used_quota', '+', charge.amount), accessed_time: now }))
          .where('id', '=', payer.tokenId)
          .execute();
      }
      await trx
        .updateTable('users')
        .set((eb) => ({ used_quota: eb('used_quota', '+', charge.amount), request_count: eb('request_count', '+', 1) }))
        .where('id', '=', payer.userId)
        .execute();
      await trx
        .updateTable('channels')
        .set((eb) => ({ used_quota: eb('used_quota', '+', charge.amount) }))
        .where('id', '=', charge.channelId)
        .execute();
    }
    if (consumeLogsEnabled(ctx)) await trx.insertInto('logs').values(consumeLogRow(entry)).execute();
  });
  recordDashboardUsage(ctx, entry);
}

/**
 * The upstream refused or could not be reached: `held → released`, the price given back.
 * `fields` updates the kept row (a failed task the user can see); `remove` deletes it instead
 * (nothing reached the upstream, as the reference keeps no row then).
 */
export async function releaseTask<T extends TaskTable>(rt: TaskRelay, table: T, id: number, payer: TaskPayer, amount: number, fields: TaskUpdate<T> | 'remove'): Promise<void> {
  const released = await rt.ctx.db.transaction().execute(async (trx) => {
    if (!(await claim(trx, table, id, [BILLING.held], BILLING.released, fields === 'remove' ? ({} as TaskUpdate<T>) : fields))) return false;
    await giveBack(trx, payer.userId, payer.tokenId, amount);
    if (fields === 'remove')
      await trx
        .deleteFrom(table as 'tasks')
        .where('id', '=', id)
        .execute();
    return true;
  });
  if (released) rt.auth.adjustRemain(payer.tokenId, amount);
}

export interface RefundTarget {
  id: number;
  userId: number;
  tokenId: number;
  quota: number;
}

/**
 * A charged task failed: `charged → refunded` (reference rows, billing '', count as charged)
 * with `fields`, the price back to user and token, and the system log `logText(amount)`.
 * Answers whether this call refunded it (false: someone already did, or it was not charged).
 */
export async function refundTask<T extends TaskTable>(ctx: AppContext, table: T, task: RefundTarget, fields: TaskUpdate<T>, logText: (amount: string) => string): Promise<boolean> {
  const refunded = await ctx.db.transaction().execute(async (trx) => {
    if (!(await claim(trx, table, task.id, [BILLING.charged, ''], BILLING.refunded, fields))) return false;
    if (task.quota !== 0) {
      await giveBack(trx, task.userId, task.tokenId, task.quota);
      const username = (await trx.selectFrom('users').select('username').where('id', '=', task.userId).executeTakeFirst())?.username ?? '';
      await trx
        .insertInto('logs')
        .values({ user_id: task.userId, created_at: nowSeconds(), type: LOG_TYPE.system, content: logText(logQuota(task.quota, quotaDisplay(ctx))), username, token_id: task.tokenId, other: '' })
        .execute();
    }
    return true;
  });
  // Any node (this one included) reads the token afresh: a refund can come from any node.
  if (refunded && task.tokenId > 0) changeEvents(ctx).emit('tokens', [task.tokenId]);
  return refunded;
}

/**
 * Updates a task's fields. `unfinishedOnly` (progress reports): only while the task is still
 * unfinished, since its reader looked another node may have finished it (timed out and
 * refunded), and a late SUCCESS must not turn a refunded task into a delivered one.
 */
export async function updateTask<T extends TaskTable>(ctx: AppContext, table: T, id: number, fields: TaskUpdate<T>, { unfinishedOnly = false } = {}): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  let update = ctx.db
    .updateTable(table as 'tasks')
    .set(fields as Updateable<TasksTable>)
    .where('id', '=', id);
  if (unfinishedOnly) update = update.where('progress', '!=', '100%');
  await update.execute();
}

/**
 * Holds left by submissions that died with their process: given back, the row marked
 * failed. Answers how many were released.
 */
export async function sweepStaleHolds(rt: TaskRelay, now = Date.now()): Promise<number> {
  let released = 0;
  const reason = '提交过程中服务中断，已退还额度';
  const stale = Math.floor(now / 1000) - HELD_STALE_SECONDS;
  for (const table of ['midjourneys', 'tasks'] as const) {
    const cutoff = table === 'midjourneys' ? stale * 1000 : stale;
    const held = await rt.ctx.db
      .selectFrom(table as 'tasks')
      .select(['id', 'user_id', 'token_id', 'quota'])
      .where('billing', '=', BILLING.held)
      .where('submit_time', '<', cutoff)
      .limit(500)
      .execute();
    for (const row of held) {
      const payer = { userId: row.user_id, tokenId: row.token_id } as TaskPayer;
      const fields = { status: 'FAILURE', progress: '100%', fail_reason: reason, finish_time: table === 'midjourneys' ? now : Math.floor(now / 1000) };
      await releaseTask(rt, table, row.id, payer, Number(row.quota), fields);
      released++;
    }
  }
  return released;
}
