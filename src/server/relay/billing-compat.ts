/**
 * OpenAI's old billing endpoints, for clients that show a key's balance
 * (docs/relay.md#openai-billing-compatibility): `/dashboard/billing/subscription` and `/dashboard/billing/usage` (also under /v1).
 * The figures are the token's when DisplayTokenStatEnabled (the default), else its owner's;
 * in USD when DisplayInCurrencyEnabled, else raw quota. Failures answer 200 with an error
 * object, as the reference does. Read from the database: these are not on the hot path.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openaiErrorBody, RelayError } from './errors';
import { authenticateToken } from './pipeline/token-auth';
import { requestIdOf } from './pipeline/request-context';
import type { RelayRuntime } from './runtime';

/** What an unlimited token's limits show. */
const UNLIMITED_LIMIT = 100_000_000;

interface Figures {
  remain: number;
  used: number;
  unlimited: boolean;
  expiry: number;
}

async function figures(rt: RelayRuntime, request: FastifyRequest): Promise<Figures> {
  const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
  if (rt.ctx.options.bool('DisplayTokenStatEnabled')) {
    const row = await rt.ctx.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', auth.token.id).executeTakeFirstOrThrow();
    return { remain: Number(row.remain_quota), used: Number(row.used_quota), unlimited: auth.token.unlimited, expiry: auth.token.expiredTime };
  }
  const row = await rt.ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', auth.user.id).executeTakeFirstOrThrow();
  return { remain: Number(row.quota), used: Number(row.used_quota), unlimited: false, expiry: auth.token.expiredTime };
}

function amount(rt: RelayRuntime, quota: number): number {
  return rt.ctx.options.bool('DisplayInCurrencyEnabled') ? quota / (rt.ctx.options.number('QuotaPerUnit') || 500000) : quota;
}

async function answer(request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>): Promise<unknown> {
  try {
    return await build();
  } catch (err) {
    if (!(err instanceof RelayError)) throw err;
    return reply.code(200).send(openaiErrorBody(err, requestIdOf(request)));
  }
}

export function subscriptionHandler(rt: RelayRuntime) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, async () => {
      const f = await figures(rt, request);
      const limit = f.unlimited ? UNLIMITED_LIMIT : amount(rt, f.remain + f.used);
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: limit,
        hard_limit_usd: limit,
        system_hard_limit_usd: limit,
        access_until: f.expiry === -1 ? 0 : f.expiry,
      };
    });
}

export function usageHandler(rt: RelayRuntime) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    answer(request, reply, async () => {
      const f = await figures(rt, request);
      // Cents, as OpenAI answered.
      return { object: 'list', total_usage: amount(rt, f.used) * 100 };
    });
}
