/**
 * /api/oauth: third-party sign-in and binding. GitHub, OIDC and LinuxDO come back through
 * the console's callback page with `code` and `state`; a signed-in session binds, anyone
 * else signs in. WeChat takes the code the user typed; Telegram the widget's signed data.
 * Every route shares the critical rate limit.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/tables';
import { AppError } from '../../errors';
import { readSession, updateSession } from '../../auth/session';
import { currentSession, requireSession, startSession } from '../../auth/session-store';
import { ok } from '../../plumbing/envelope';
import { githubProvider } from '../../services/oauth/github.provider';
import { linuxdoProvider } from '../../services/oauth/linuxdo.provider';
import { oidcProvider } from '../../services/oauth/oidc.provider';
import { wechatProvider } from '../../services/oauth/wechat.provider';
import { assertActive, bindTelegram, bindWithCode, signInWithCode, signInWithTelegram } from '../../services/oauth/oauth.service';
import type { CodeGrant } from '../../services/oauth/oauth.types';
import { randomAlphanumeric } from '../../plumbing/random';
import { serializeLogin } from '../../services/users/user.serializer';
import type { RouteDeps } from '../deps';
import { describedFields } from '../route-schemas';

/** What the Telegram login widget sends; the handler checks its hash with the bot token. */
const TELEGRAM_LOGIN = describedFields({
  id: 'Telegram user id',
  first_name: 'First name',
  last_name: 'Last name',
  username: 'Telegram username',
  photo_url: 'Profile photo',
  auth_date: 'Unix time of the login',
  hash: 'HMAC of the other fields',
});

/** Providers whose callback carries the state issued by GET /api/oauth/state. */
const CALLBACK_PROVIDERS = [githubProvider, oidcProvider, linuxdoProvider];

const STATE_LENGTH = 12;

const stateQuery = {
  type: 'object',
  properties: { aff: { type: 'string' } },
} as const;

const callbackQuery = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    state: { type: 'string' },
    error: { type: 'string' },
    error_description: { type: 'string' },
  },
} as const;

const codeQuery = {
  type: 'object',
  properties: { code: { type: 'string' } },
} as const;

interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/** Starts the session exactly as password login does and answers the login user shape. */
async function completeLogin(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  await startSession(ctx, request, reply, user);
  return ok(serializeLogin(user));
}

/** The account of the signed-in session (binding needs one), checked like the guards do. */
async function sessionUser(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
  const { user } = await requireSession(ctx, request, reply);
  assertActive(user);
  return user;
}

function grantOf(request: FastifyRequest, code: string | undefined): CodeGrant {
  return { code: code ?? '', requestOrigin: `${request.protocol}://${request.host}` };
}

export function oauthRoutes({ ctx, critical }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { aff?: string } }>('/oauth/state', { onRequest: critical, schema: { querystring: stateQuery } }, async (request, reply) => {
      const state = randomAlphanumeric(STATE_LENGTH);
      const aff = request.query.aff?.trim();
      updateSession(request, reply, aff ? { oauth_state: state, aff } : { oauth_state: state });
      return ok(state);
    });

    for (const provider of CALLBACK_PROVIDERS) {
      app.get<{ Querystring: CallbackQuery }>(`/oauth/${provider.id}`, { onRequest: critical, schema: { querystring: callbackQuery } }, async (request, reply) => {
        const query = request.query;
        if (provider.reportsQueryErrors && query.error) throw new AppError(query.error_description || query.error);
        const session = readSession(request);
        if (!query.state || query.state !== session.oauth_state) throw new AppError('state is empty or not same', 403);
        const grant = grantOf(request, query.code);
        // A live session binds; anyone else (an ended session included) signs in.
        if (await currentSession(ctx, request, reply)) {
          const user = await sessionUser(ctx, request, reply);
          await bindWithCode(ctx, provider, user.id, grant);
          return ok(undefined, 'bind');
        }
        const user = await signInWithCode(ctx, provider, grant, session.aff);
        return completeLogin(ctx, request, reply, user);
      });
    }

    app.get<{ Querystring: { code?: string } }>('/oauth/wechat', { onRequest: critical, schema: { querystring: codeQuery } }, async (request, reply) => {
      const user = await signInWithCode(ctx, wechatProvider, grantOf(request, request.query.code), readSession(request).aff);
      return completeLogin(ctx, request, reply, user);
    });

    app.get<{ Querystring: { code?: string } }>('/oauth/wechat/bind', { onRequest: critical, schema: { querystring: codeQuery } }, async (request, reply) => {
      const user = await sessionUser(ctx, request, reply);
      await bindWithCode(ctx, wechatProvider, user.id, grantOf(request, request.query.code));
      return ok();
    });

    app.get<{ Querystring: Record<string, unknown> }>('/oauth/telegram/login', { onRequest: critical, schema: { querystring: TELEGRAM_LOGIN } }, async (request, reply) => {
      const user = await signInWithTelegram(ctx, request.query);
      return completeLogin(ctx, request, reply, user);
    });

    // The Telegram widget redirects the browser here, so success is a redirect, not JSON.
    app.get<{ Querystring: Record<string, unknown> }>('/oauth/telegram/bind', { onRequest: critical, schema: { querystring: TELEGRAM_LOGIN } }, async (request, reply) => {
      const user = await sessionUser(ctx, request, reply);
      await bindTelegram(ctx, user.id, request.query);
      return reply.redirect('/setting', 302);
    });
  };
}
