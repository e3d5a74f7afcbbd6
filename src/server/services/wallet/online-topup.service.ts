/**
 * Online top-up through an epay-compatible provider (docs/wallet.md#online-top-up): quote an amount,
 * create a pending order with the signed parameters the console posts to the provider,
 * and take the provider's notification. The notification is trusted only with a valid
 * signature, our merchant id and the order's exact money; the order moves pending →
 * success in one conditional UPDATE, so a replayed or concurrent notification credits once.
 */
import { logQuota } from '../../../shared/quota';
import { LOG_TYPE } from '../../../shared/roles';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { writeLog } from '../logs/log.writer';
import { updateUserAndQuota } from '../users/user.repository';
import { quotaDisplay } from '../options/quota-display';
import { randomAlphanumeric } from '../../plumbing/random';
import { epaySign, epaySignatureValid, type EpayParams } from './epay.signature';
import { compare, toFraction } from './exact-decimal';
import { quoteTopUp, quotaForUnits } from './topup.pricing';
import { claimPaidTopUp, findTopUpByTradeNo, insertTopUp, TOPUP_PENDING } from './topup.repository';
import { nowSeconds } from '../../../shared/time';

export interface Payer {
  id: number;
  /** The payer's group as stored (it selects the top-up ratio). */
  group: string;
}

interface EpayConfig {
  payAddress: string;
  pid: string;
  merchantKey: string;
}

function epayConfig(ctx: AppContext): EpayConfig | undefined {
  const config = { payAddress: ctx.options.get('PayAddress'), pid: ctx.options.get('EpayId'), merchantKey: ctx.options.get('EpayKey') };
  return config.payAddress && config.pid && config.merchantKey ? config : undefined;
}

function withoutTrailingSlash(address: string): string {
  return address.replace(/\/+$/, '');
}

function serverAddress(ctx: AppContext): string {
  return withoutTrailingSlash(ctx.options.get('ServerAddress') || `http://localhost:${ctx.config.port}`);
}

/** `<PayAddress>/submit.php`, path-joined. */
function submitUrl(payAddress: string): string {
  try {
    const url = new URL(payAddress);
    url.pathname = `${withoutTrailingSlash(url.pathname)}/submit.php`;
    return url.toString();
  } catch {
    throw new AppError('拉起支付失败');
  }
}

/** The payable money for `amount` (two decimals). */
export function quoteAmount(ctx: AppContext, payer: Payer, amount: number): string {
  return quoteTopUp(ctx, amount, payer.group, 'above-cent').moneyText;
}

export interface PaymentForm {
  params: EpayParams;
  url: string;
}

/** Creates a pending order and answers the signed form the console submits to the provider. */
export async function startPayment(ctx: AppContext, payer: Payer, amount: number, paymentMethod: string): Promise<PaymentForm> {
  const quote = quoteTopUp(ctx, amount, payer.group, 'at-least-cent');
  const config = epayConfig(ctx);
  if (!config) throw new AppError('当前管理员未配置支付信息');
  const now = nowSeconds();
  const tradeNo = `USR${payer.id}NO${randomAlphanumeric(6)}${now}`;
  const callbackBase = withoutTrailingSlash(ctx.options.get('CustomCallbackAddress')) || serverAddress(ctx);
  const params: EpayParams = {
    pid: config.pid,
    type: paymentMethod === 'zfb' ? 'alipay' : 'wxpay',
    out_trade_no: tradeNo,
    notify_url: `${callbackBase}/api/user/epay/notify`,
    return_url: `${serverAddress(ctx)}/log`,
    name: `TUC${amount}`,
    money: quote.moneyText,
    device: 'pc',
  };
  const url = submitUrl(config.payAddress);
  const signed = { ...params, sign_type: 'MD5', sign: epaySign(params, config.merchantKey) };
  try {
    await insertTopUp(ctx.db, {
      user_id: payer.id,
      amount: quote.units,
      money: Number(quote.moneyText),
      trade_no: tradeNo,
      create_time: now,
      status: TOPUP_PENDING,
    });
  } catch {
    throw new AppError('创建订单失败');
  }
  return { params: signed, url };
}

/**
 * Handles the provider's notification; answers the plain-text reply the provider expects:
 * `success` once the order is (or already was) credited, or when a non-success trade status
 * is acknowledged; `fail` for anything untrustworthy or unknown, which changes nothing.
 */
export async function handlePaymentNotice(ctx: AppContext, params: EpayParams): Promise<'success' | 'fail'> {
  const config = epayConfig(ctx);
  if (!config || !epaySignatureValid(params, config.merchantKey) || params.pid !== config.pid) return 'fail';
  if (params.trade_status !== 'TRADE_SUCCESS') return 'success';
  const order = await findTopUpByTradeNo(ctx.db, params.out_trade_no ?? '');
  const paid = toFraction(params.money ?? '');
  const due = order ? toFraction(order.money) : undefined;
  if (!order || !paid || !due || compare(paid, due) !== 0) return 'fail';
  const quota = quotaForUnits(ctx, Number(order.amount));
  const display = quotaDisplay(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimPaidTopUp(trx, order.trade_no))) return;
    await updateUserAndQuota(trx, order.user_id, {}, quota);
    await writeLog(trx, {
      userId: order.user_id,
      type: LOG_TYPE.topup,
      content: `使用在线充值成功，充值金额: ${logQuota(quota, display)}，支付金额：${Number(order.money).toFixed(6)}`,
    });
  });
  return 'success';
}
