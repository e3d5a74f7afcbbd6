/**
 * What an online top-up costs (docs/wallet.md#amount-rules). The amount A is in currency units when
 * quota is displayed as currency, otherwise in quota units. Minimum: MinTopUp currency units
 * (floor(MinTopUp × QuotaPerUnit) quota units). Price: units × Price × TopupGroupRatio[group]
 * (a missing or 0 ratio counts as 1), exact decimals, two places.
 *
 * One deliberate difference: in quota units the reference charges for A ÷ QuotaPerUnit
 * currency units but credits only the whole ones; we charge for the whole units that will
 * be credited, so what is paid and what is received always agree.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { compare, multiply, toFraction, toMoneyText, type Fraction } from './exact-decimal';

export interface TopUpQuote {
  /** Whole currency units bought (stored on the order, credited × QuotaPerUnit). */
  units: number;
  money: Fraction;
  /** `money` with two decimals, as the console shows it and the provider receives it. */
  moneyText: string;
}

const ONE_CENT: Fraction = { n: 1n, d: 100n };

function quotaPerUnit(ctx: AppContext): number {
  return ctx.options.number('QuotaPerUnit') || 500000;
}

/** The smallest amount accepted, in the unit the amount is given in. */
export function minimumTopUp(ctx: AppContext): number {
  const min = ctx.options.number('MinTopUp');
  return ctx.options.bool('DisplayInCurrencyEnabled') ? min : Math.floor(min * quotaPerUnit(ctx));
}

function groupRatio(ctx: AppContext, group: string): number {
  const ratios = ctx.options.json<Record<string, number>>('TopupGroupRatio');
  const ratio = Object.hasOwn(ratios, group) ? Number(ratios[group]) : 0;
  return Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

/**
 * Prices `amount` for a user of `group`, or refuses with the reference's message.
 * `minMoney`: the amount endpoint refuses ≤ 0.01, the payment endpoint < 0.01.
 */
export function quoteTopUp(ctx: AppContext, amount: number, group: string, minMoney: 'above-cent' | 'at-least-cent'): TopUpQuote {
  const min = minimumTopUp(ctx);
  if (amount < min) throw new AppError(`充值数量不能小于 ${min}`);
  const units = ctx.options.bool('DisplayInCurrencyEnabled') ? amount : Math.floor(amount / quotaPerUnit(ctx));
  const price = toFraction(ctx.options.number('Price')) ?? { n: 0n, d: 1n };
  const ratio = toFraction(groupRatio(ctx, group)) ?? { n: 1n, d: 1n };
  const money = multiply({ n: BigInt(units), d: 1n }, price, ratio);
  const versusCent = compare(money, ONE_CENT);
  if (versusCent < 0 || (versusCent === 0 && minMoney === 'above-cent')) throw new AppError('充值金额过低');
  return { units, money, moneyText: toMoneyText(money) };
}

/** Quota credited for `units` currency units bought. */
export function quotaForUnits(ctx: AppContext, units: number): number {
  return Math.floor(units * quotaPerUnit(ctx));
}
