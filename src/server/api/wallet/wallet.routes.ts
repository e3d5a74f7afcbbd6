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
import { bodyCheckedByHandler, describedFields } from '../route-schemas';

interface TopUpBody {
  amount?: unknown;
  payment_method?: unknown;
  top_up_code?: unknown;
}

type TopUpReply = { message: 'success'; data: unknown; url?: string } | { message: 'error'; data: string };

/** The amount of a top-up body: an integer, else the reference's `参数错误`. */
function amountOf(body: unknown): number {
  const amount = (body as TopUpBody | undefined)?.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) throw new AppError('参数错误');
  return amount;
}

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
  trade_no: 'Provider\'s trade number',
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
    app.post('/user/topup', { preHandler: guards.user, ...bodyCheckedByHandler(describedFields({ key: 'Redemption code' })) }, async (request) => {
      const key = (request.body as { key?: unknown } | undefined)?.key;
      const auth = authOf(request);
      return ok(await redeemCode(ctx, { id: auth.id, username: auth.username }, typeof key === 'string' ? key : ''));
    });

    app.post('/user/amount', { preHandler: guards.user, ...bodyCheckedByHandler(describedFields({ amount: 'Top-up amount (whole number)' })) }, async (request) =>
      topUpReply(async () => {
        const auth = authOf(request);
        return { data: quoteAmount(ctx, { id: auth.id, group: auth.group }, amountOf(request.body)) };
      }),
    );

    app.post('/user/pay', { preHandler: guards.user, ...bodyCheckedByHandler(describedFields({ amount: 'Top-up amount (whole number)', payment_method: 'Payment method (e.g. alipay, wxpay)' })) }, async (request) =>
      topUpReply(async () => {
        const auth = authOf(request);
        const method = (request.body as TopUpBody).payment_method;
        const form = await startPayment(ctx, { id: auth.id, group: auth.group }, amountOf(request.body), typeof method === 'string' ? method : '');
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
