/**
 * /api routes of accounts without a session: registration, email verification codes and
 * password reset; plus binding an email to the signed-in account.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { turnstileCheck } from '../../auth/turnstile';
import { schemaBodyChecker } from '../../plumbing/body-checker';
import { ok } from '../../plumbing/envelope';
import { bindEmail, sendVerificationCode } from '../../services/accounts/email-verification.service';
import { requestPasswordReset, resetPassword } from '../../services/accounts/password-reset.service';
import { register } from '../../services/accounts/registration.service';
import type { RouteDeps } from '../deps';
import { checkedBody } from '../route-schemas';

const text = { type: 'string' } as const;
/**
 * An optional text that may be null: the reference's binder reads null as empty, and its
 * console sends `aff_code: null` when there is no invitation.
 */
const optionalText = { type: ['string', 'null'] } as const;

interface RegisterBody {
  username?: string;
  password?: string;
  email?: string | null;
  verification_code?: string | null;
  aff_code?: string | null;
}

const registerBody = schemaBodyChecker<RegisterBody>({
  type: 'object',
  properties: { username: text, password: text, password2: optionalText, email: optionalText, verification_code: optionalText, aff_code: optionalText },
});

const resetBody = schemaBodyChecker<{ email?: string; token?: string }>({ type: 'object', properties: { email: text, token: text } });

const emailQuery = { type: 'object', properties: { email: text, turnstile: text } } as const;

const bindQuery = { type: 'object', properties: { email: text, code: text } } as const;

export function accountRoutes({ ctx, guards, critical }: RouteDeps): FastifyPluginAsync {
  const botCheck = turnstileCheck(ctx);
  return async (app) => {
    app.post('/user/register', { onRequest: critical, preHandler: botCheck, ...checkedBody(registerBody) }, async (request) => {
      const body = registerBody(request.body);
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

    app.post('/user/reset', { onRequest: critical, ...checkedBody(resetBody) }, async (request) => {
      const body = resetBody(request.body);
      const password = await resetPassword(ctx, body.email ?? '', body.token ?? '');
      return ok(password);
    });

    app.get<{ Querystring: { email?: string; code?: string } }>('/oauth/email/bind', { onRequest: critical, preHandler: guards.user, schema: { querystring: bindQuery } }, async (request) => {
      await bindEmail(ctx, authOf(request).id, request.query.email ?? '', request.query.code ?? '');
      return ok();
    });
  };
}
