/**
 * /api/user: sign-in and sign-out, the caller's own account, and (admins) user management.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { endSession, startSession } from '../../auth/session-store';
import { turnstileCheck } from '../../auth/turnstile';
import { AppError, MSG } from '../../errors';
import { ok } from '../../plumbing/envelope';
import { USER_STATUS_ENABLED } from '../../../shared/roles';
import { checkPassword, DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME } from '../../services/users/setup';
import { findUserForLogin } from '../../services/users/user.repository';
import { serializeLogin, serializeUser } from '../../services/users/user.serializer';
import type { RouteDeps } from '../deps';
import { userAdminRoutes } from './user-admin.routes';
import { userSelfRoutes } from './user-self.routes';
import { checkedBody, NO_INPUT } from '../route-schemas';
import { schemaBodyChecker } from '../../plumbing/body-checker';

/** Our words (docs/messages.md#accounts-and-settings) for a sign-in without a name or a password. */
export const LOGIN_FIELDS_MISSING = '请输入用户名和密码！';

const loginBody = schemaBodyChecker<{ username?: string; password?: string }>({
  type: 'object',
  properties: { username: { type: 'string' }, password: { type: 'string' } },
});

export function userRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { ctx, guards, critical } = deps;
  return async (app) => {
    await app.register(userSelfRoutes(deps));
    await app.register(userAdminRoutes(deps));

    app.post('/user/login', { onRequest: critical, preHandler: turnstileCheck(ctx), ...checkedBody(loginBody) }, async (request, reply) => {
      const body = loginBody(request.body);
      if (!ctx.options.bool('PasswordLoginEnabled')) throw new AppError('管理员关闭了密码登录');
      const username = (body.username ?? '').trim();
      const password = body.password ?? '';
      if (!username || !password) throw new AppError(LOGIN_FIELDS_MISSING);
      const user = await findUserForLogin(ctx.db, username);
      const matches = user ? await checkPassword(password, user.password) : false;
      if (!user || !matches || user.status !== USER_STATUS_ENABLED) throw new AppError(MSG.wrongPassword);
      await startSession(ctx, request, reply, user);
      const data = serializeLogin(user);
      // Lets the console warn while the first-start credentials are still in use.
      const defaultPassword = user.username === DEFAULT_ROOT_USERNAME && password === DEFAULT_ROOT_PASSWORD;
      return ok({ ...data, default_password: defaultPassword });
    });

    // Ends this session on every node (its row is deleted), not only in this browser.
    app.get('/user/logout', { schema: NO_INPUT }, async (request, reply) => {
      await endSession(ctx, request, reply);
      return ok();
    });

    app.get('/user/self', { preHandler: guards.user, schema: NO_INPUT }, async (request) => {
      return ok(serializeUser(authOf(request).user, { withAccessToken: true }));
    });
  };
}
