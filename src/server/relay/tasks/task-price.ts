/**
 * The price of one task submission (docs/billing.md#task-prices): the fixed ModelPrice of
 * the action's model (`mj_imagine`, `swap_face`, `suno_music` …), 0.1 USD when none is set,
 * times the group ratio, in quota units truncated as the reference does.
 */
import type { AppContext } from '../../context';
import { groupRatio, modelPrice, readRatioTables } from '../../services/pricing/ratios';

/** What an unpriced task action costs (USD), as in the reference. */
export const DEFAULT_TASK_PRICE = 0.1;

export interface TaskPrice {
  modelName: string;
  /** USD per submission. */
  price: number;
  groupRatio: number;
  /** Quota units charged. */
  quota: number;
}

export function taskPrice(ctx: AppContext, modelName: string, group: string): TaskPrice {
  const tables = readRatioTables(ctx.options);
  const price = modelPrice(tables, modelName) ?? DEFAULT_TASK_PRICE;
  const ratio = groupRatio(tables, group);
  const quotaPerUnit = ctx.options.number('QuotaPerUnit') || 500000;
  return { modelName, price, groupRatio: ratio, quota: Math.trunc(price * ratio * quotaPerUnit) };
}

/** The consume log's text: `模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE[，ID …]`. */
export function taskLogContent(price: TaskPrice, action: string, id?: string): string {
  const base = `模型固定价格 ${price.price.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}，操作 ${action}`;
  return id ? `${base}，ID ${id}` : base;
}
