/**
 * The bot check (Cloudflare Turnstile, docs/accounts.md#bot-check) in front of login, registration,
 * verification codes and reset requests. Active only while TurnstileCheckEnabled is on.
 * A passed check is remembered in the session, so the widget is solved once per session.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { readSession, updateSession } from './session';

export const TURNSTILE_EMPTY = 'Turnstile token 为空';
export const TURNSTILE_FAILED = 'Turnstile 校验失败，请刷新重试！';

const VERIFY_TIMEOUT_MS = 10_000;

/** Asks the verify endpoint about a token: siteverify's form POST, its JSON `success`. */
async function verifyToken(url: string, form: { secret: string; response: string; remoteip: string }): Promise<boolean> {
  const res = await fetch(url, { method: 'POST', body: new URLSearchParams(form), signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
  const body = (await res.json()) as { success?: unknown };
  return body?.success === true;
}

/** A preHandler that refuses callers without a valid token in the `turnstile` query value. */
export function turnstileCheck(ctx: AppContext): preHandlerAsyncHookHandler {
  return async function botCheck(request, reply) {
    if (!ctx.options.bool('TurnstileCheckEnabled')) return;
    if (readSession(request).turnstile === true) return;
    const token = (request.query as { turnstile?: unknown } | undefined)?.turnstile;
    if (typeof token !== 'string' || token.trim() === '') throw new AppError(TURNSTILE_EMPTY);
    let passed = false;
    try {
      passed = await verifyToken(ctx.config.turnstileVerifyUrl, { secret: ctx.options.get('TurnstileSecretKey'), response: token, remoteip: request.ip });
    } catch (err) {
      // Unreachable or unreadable verifier: the caller can only retry; the operator needs the cause.
      request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'turnstile verification failed');
    }
    if (!passed) throw new AppError(TURNSTILE_FAILED);
    updateSession(request, reply, { turnstile: true });
  };
}
