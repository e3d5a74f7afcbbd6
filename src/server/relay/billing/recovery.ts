/**
 * Refunds reservations nobody will settle any more: those this node left behind when its
 * previous run ended without writing them (kill -9, power loss: at most the last batch), and
 * those of any node older than a day (a node that never came back). Each refund gives the
 * amount back to user and token, removes the journal row and writes a system log line per
 * user, all in one transaction — the ledger adds up before, during and after.
 *
 * A live request whose reservation was refunded here (a second process with the same node
 * name) is still billed right: its settlement finds the journal row gone and charges the
 * whole cost as new.
 */
import type { AppContext } from '../../context';
import { LOG_TYPE } from '../../../shared/roles';
import { logQuota } from '../../../shared/quota';
import { writeLog } from '../../services/logs/log.writer';
import { quotaDisplay } from '../../services/options/quota-display';
import { nowSeconds } from '../../../shared/time';

/** Reservations older than this belong to a request that cannot still be running. */
export const STALE_RESERVATION_SECONDS = 24 * 3600;
const BATCH = 200;

export interface RecoveryResult {
  reservations: number;
  quota: number;
}

/**
 * `node`/`instance`: this process. With `staleOnly` (the periodic sweep) only day-old rows are
 * refunded: two processes that share a node name must not refund each other's live requests
 * every hour (at start-up it is harmless, see above, and it is what recovers a crash).
 */
export async function recoverReservations(
  ctx: AppContext,
  node: string,
  instance: string,
  { staleOnly = false, now = nowSeconds() }: { staleOnly?: boolean; now?: number } = {},
): Promise<RecoveryResult> {
  const total: RecoveryResult = { reservations: 0, quota: 0 };
  const display = quotaDisplay(ctx);
  for (;;) {
    const done = await ctx.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('quota_reservations')
        .select(['id', 'user_id', 'token_id', 'amount'])
        .where((eb) => {
          const stale = eb('created_at', '<', now - STALE_RESERVATION_SECONDS);
          return staleOnly ? stale : eb.or([eb.and([eb('node', '=', node), eb('instance', '!=', instance)]), stale]);
        })
        .orderBy('id')
        .limit(BATCH);
      if (ctx.dialect !== 'sqlite') query = query.forUpdate();
      const rows = await query.execute();
      if (rows.length === 0) return true;
      const users = new Map<number, { quota: number; count: number }>();
      const tokens = new Map<number, number>();
      for (const row of rows) {
        const amount = Number(row.amount);
        const u = users.get(row.user_id) ?? { quota: 0, count: 0 };
        u.quota += amount;
        u.count += 1;
        users.set(row.user_id, u);
        if (row.token_id > 0) tokens.set(row.token_id, (tokens.get(row.token_id) ?? 0) + amount);
        total.quota += amount;
      }
      for (const [tokenId, amount] of [...tokens].sort((a, b) => a[0] - b[0])) {
        await trx
          .updateTable('tokens')
          .set((eb) => ({ remain_quota: eb('remain_quota', '+', amount) }))
          .where('id', '=', tokenId)
          .execute();
      }
      for (const [userId, u] of [...users].sort((a, b) => a[0] - b[0])) {
        await trx
          .updateTable('users')
          .set((eb) => ({ quota: eb('quota', '+', u.quota) }))
          .where('id', '=', userId)
          .execute();
        await writeLog(trx, {
          userId,
          type: LOG_TYPE.system,
          content: `服务重启，退还 ${u.count} 个未结算请求的预扣额度 ${logQuota(u.quota, display)}`,
        });
      }
      await trx
        .deleteFrom('quota_reservations')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      total.reservations += rows.length;
      return rows.length < BATCH;
    });
    if (done) return total;
  }
}
