/**
 * The wallet: redeem a code (`POST /api/user/topup`, envelope), and online top-up through
 * epay. `/user/amount` and `/user/pay` keep the reference's own reply shape, which the
 * console relies on: `{message:"success", data, url?}` or `{message:"error", data:"<why>"}`.
 * `/user/epay/notify` is the provider's public callback and answers plain text.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { AppError } from '../../errors';
import { ok } from '../../plumbing/envelope';
import { handlePaymentNotice, quoteAmount, startPayment } from '../../services/wallet/online-topup.service';
import { redeemCode } from '../../services/wallet/redeem.service';
import type { RouteDeps } from '../deps';
import { queryText } from '../params';
import { checkedBody, describedFields } from '../route-schemas';

type TopUpReply = { message: 'success'; data: unknown; url?: string } | { message: 'error'; data: string };

/** A text field of a body read the reference's way: anything but text is empty. */
function textField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The bodies of these routes are read by hand, not by a schema: the reference answers a bad
 * one with its own words and reply shape (`未提供兑换码` from an empty key, `参数错误` in a
 * `{message:"error"}` reply), never with a schema refusal.
 */
const redeemBody = Object.assign((body: unknown) => ({ key: textField(body, 'key') }), { jsonSchema: describedFields({ key: 'Redemption code' }) });

/** A top-up order; an amount that is not an integer is the reference's `参数错误`. */
function readTopUp(body: unknown): { amount: number; paymentMethod: string } {
  const amount = (body as { amount?: unknown } | null | undefined)?.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) throw new AppError('参数错误');
  return { amount, paymentMethod: textField(body, 'payment_method') };
}

const AMOUNT = 'Top-up amount (whole number)';
const amountBody = Object.assign((body: unknown) => readTopUp(body), { jsonSchema: describedFields({ amount: AMOUNT }) });
const payBody = Object.assign((body: unknown) => readTopUp(body), { jsonSchema: describedFields({ amount: AMOUNT, payment_method: 'Payment method (e.g. alipay, wxpay)' }) });

/** Runs a top-up step, turning a refusal into the `{message:"error"}` reply. */
async function topUpReply(step: () => Promise<{ data: unknown; url?: string }>): Promise<TopUpReply> {
  try {
    return { message: 'success', ...(await step()) };
  } catch (err) {
    if (err instanceof AppError) return { message: 'error', data: err.message };
    throw err;
  }
}

/** The payment provider's signed notice (EasyPay): every field is part of the signature. */
const EPAY_NOTICE = describedFields({
  pid: 'Merchant id',
  trade_no: "Provider's trade number",
  out_trade_no: 'Our order number',
  type: 'Payment method',
  name: 'Product name',
  money: 'Amount paid',
  trade_status: 'TRADE_SUCCESS when paid',
  sign: 'Signature of the other fields',
  sign_type: 'MD5',
});

export function walletRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.post('/user/topup', { preHandler: guards.user, ...checkedBody(redeemBody) }, async (request) => {
      const { key } = redeemBody(request.body);
      const auth = authOf(request);
      return ok(await redeemCode(ctx, { id: auth.id, username: auth.username }, key));
    });

    app.post('/user/amount', { preHandler: guards.user, ...checkedBody(amountBody) }, async (request) =>
      topUpReply(async () => {
        const auth = authOf(request);
        return { data: quoteAmount(ctx, { id: auth.id, group: auth.group }, amountBody(request.body).amount) };
      }),
    );

    app.post('/user/pay', { preHandler: guards.user, ...checkedBody(payBody) }, async (request) =>
      topUpReply(async () => {
        const auth = authOf(request);
        const order = payBody(request.body);
        const form = await startPayment(ctx, { id: auth.id, group: auth.group }, order.amount, order.paymentMethod);
        return { data: form.params, url: form.url };
      }),
    );

    app.get('/user/epay/notify', { schema: { querystring: EPAY_NOTICE } }, async (request, reply) => {
      const params: Record<string, string> = {};
      for (const name of Object.keys((request.query as object | undefined) ?? {})) params[name] = queryText(request.query, name);
      const answer = await handlePaymentNotice(ctx, params);
      return reply.type('text/plain; charset=utf-8').send(answer);
    });
  };
}
