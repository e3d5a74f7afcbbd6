/** Queries on the top_ups table (online payment orders; trade_no is unique). */
import type { Insertable, Selectable } from 'kysely';
import type { TopUpsTable } from '../../db/tables';
import type { Executor } from '../../db/executor';

export type TopUpRow = Selectable<TopUpsTable>;

export const TOPUP_PENDING = 'pending';
export const TOPUP_SUCCESS = 'success';

export async function insertTopUp(db: Executor, order: Insertable<TopUpsTable>): Promise<void> {
  await db.insertInto('top_ups').values(order).execute();
}

export async function findTopUpByTradeNo(db: Executor, tradeNo: string): Promise<TopUpRow | undefined> {
  return db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
}

/** The one atomic claim of a paid order: pending → success; true for exactly one caller. */
export async function claimPaidTopUp(db: Executor, tradeNo: string): Promise<boolean> {
  const result = await db.updateTable('top_ups').set({ status: TOPUP_SUCCESS }).where('trade_no', '=', tradeNo).where('status', '=', TOPUP_PENDING).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
