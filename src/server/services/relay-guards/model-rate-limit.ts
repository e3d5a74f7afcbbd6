/**
 * The per-user model request rate limit (docs/relay.md#model-request-rate-limit): with
 * ModelRequestRateLimitEnabled, a user may send at most ModelRequestRateLimitCount relay
 * requests (failures included) and ModelRequestRateLimitSuccessCount successful ones per
 * ModelRequestRateLimitDurationMinutes. A count ≤ 0 (or a period ≤ 0) means unlimited.
 *
 * Both counters are the shared sliding log of `ctx.rateLimiter` (memory, or Redis so every
 * node counts together). The total counter is checked and recorded before the request; the
 * success counter is checked before and recorded after, only when the final status is < 400.
 * Rejections are OpenAI-shaped 429s with the reference's two messages.
 */
import type { AppContext } from '../../context';
import { refuse, RelayError } from '../../relay/errors';

export const MODEL_RATE_LIMIT_MSG = {
  total: (minutes: number, count: number) => `您已达到总请求数限制：${minutes}分钟内最多请求${count}次，包括失败次数，请检查您的请求是否正确`,
  success: (minutes: number, count: number) => `您已达到请求数限制：${minutes}分钟内最多请求${count}次`,
  checkFailed: 'rate_limit_check_failed',
} as const;

/** What the relay holds while a request runs; `finish` once with the final HTTP status. */
export interface ModelRequestPass {
  /** Counts a success (status < 400) against the success limit. Never throws; only the first call counts. */
  finish(status: number): Promise<void>;
}

const UNLIMITED: ModelRequestPass = { finish: async () => undefined };

export type RateLimitContext = Pick<AppContext, 'options' | 'rateLimiter'>;

/** The two counters' keys of a user (Redis adds the limiter's `rateLimit:` prefix). */
export function modelRateLimitKeys(userId: number): { total: string; success: string } {
  return { total: `MRRL:${userId}`, success: `MRRLS:${userId}` };
}

/**
 * The relay hook before handling a request of `userId`: throws the 429 (or a 500 when the
 * counter store fails) and otherwise answers the pass to finish after the request.
 */
export async function admitModelRequest(ctx: RateLimitContext, userId: number): Promise<ModelRequestPass> {
  const o = ctx.options;
  if (!o.bool('ModelRequestRateLimitEnabled')) return UNLIMITED;
  const minutes = o.number('ModelRequestRateLimitDurationMinutes');
  const total = o.number('ModelRequestRateLimitCount');
  const success = o.number('ModelRequestRateLimitSuccessCount');
  if (minutes <= 0 || (total <= 0 && success <= 0)) return UNLIMITED;
  const seconds = minutes * 60;
  const keys = modelRateLimitKeys(userId);
  try {
    if (total > 0 && !(await ctx.rateLimiter.hit(keys.total, total, seconds))) {
      throw refuse(429, MODEL_RATE_LIMIT_MSG.total(minutes, total));
    }
    if (success > 0 && !(await ctx.rateLimiter.allows(keys.success, success, seconds))) {
      throw refuse(429, MODEL_RATE_LIMIT_MSG.success(minutes, success));
    }
  } catch (err) {
    if (err instanceof RelayError) throw err;
    throw refuse(500, MODEL_RATE_LIMIT_MSG.checkFailed, MODEL_RATE_LIMIT_MSG.checkFailed);
  }
  if (success <= 0) return UNLIMITED;
  let finished = false;
  return {
    async finish(status) {
      if (finished) return;
      finished = true;
      if (status >= 400) return;
      // A lost count only lets one more request through; it must not fail the answered request.
      await ctx.rateLimiter.record(keys.success, success, seconds).catch(() => undefined);
    },
  };
}
