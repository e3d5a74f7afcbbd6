/**
 * /api routes of accounts without a session: registration, email verification codes and
 * password reset; plus binding an email to the signed-in account.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { turnstileCheck } from '../../auth/turnstile';
import { ok } from '../../plumbing/envelope';
import { bindEmail, sendVerificationCode } from '../../services/accounts/email-verification.service';
import { requestPasswordReset, resetPassword } from '../../services/accounts/password-reset.service';
import { register } from '../../services/accounts/registration.service';
import type { RouteDeps } from '../deps';

const text = { type: 'string' } as const;
/**
 * An optional text that may be null: the reference's binder reads null as empty, and its
 * console sends `aff_code: null` when there is no invitation.
 */
const optionalText = { type: ['string', 'null'] } as const;

const registerBody = {
  type: 'object',
  properties: { username: text, password: text, password2: optionalText, email: optionalText, verification_code: optionalText, aff_code: optionalText },
} as const;

const resetBody = { type: 'object', properties: { email: text, token: text } } as const;

const emailQuery = { type: 'object', properties: { email: text, turnstile: text } } as const;

const bindQuery = { type: 'object', properties: { email: text, code: text } } as const;

interface RegisterBody {
  username?: string;
  password?: string;
  email?: string | null;
  verification_code?: string | null;
  aff_code?: string | null;
}

export function accountRoutes({ ctx, guards, critical }: RouteDeps): FastifyPluginAsync {
  const botCheck = turnstileCheck(ctx);
  return async (app) => {
    app.post<{ Body: RegisterBody }>('/user/register', { onRequest: critical, preHandler: botCheck, schema: { body: registerBody } }, async (request) => {
      const body = request.body ?? {};
      await register(ctx, {
        username: body.username ?? '',
        password: body.password ?? '',
        email: body.email ?? '',
        verificationCode: body.verification_code ?? '',
        affCode: body.aff_code ?? '',
      });
      return ok();
    });

    app.get<{ Querystring: { email?: string } }>('/verification', { onRequest: critical, preHandler: botCheck, schema: { querystring: emailQuery } }, async (request) => {
      await sendVerificationCode(ctx, request.query.email ?? '');
      return ok();
    });

    app.get<{ Querystring: { email?: string } }>('/reset_password', { onRequest: critical, preHandler: botCheck, schema: { querystring: emailQuery } }, async (request) => {
      await requestPasswordReset(ctx, request.query.email ?? '');
      return ok();
    });

    app.post<{ Body: { email?: string; token?: string } }>('/user/reset', { onRequest: critical, schema: { body: resetBody } }, async (request) => {
      const password = await resetPassword(ctx, request.body?.email ?? '', request.body?.token ?? '');
      return ok(password);
    });

    app.get<{ Querystring: { email?: string; code?: string } }>(
      '/oauth/email/bind',
      { onRequest: critical, preHandler: guards.user, schema: { querystring: bindQuery } },
      async (request) => {
        await bindEmail(ctx, authOf(request).id, request.query.email ?? '', request.query.code ?? '');
        return ok();
      },
    );
  };
}
