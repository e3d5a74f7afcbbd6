/**
 * Role guards for /api routes: user (1), admin (10) and root (100).
 *
 * Order (the reference's, with one change): the session cookie or else an access token in
 * `Authorization`; then the `New-Api-User` header must equal the authenticated id; then
 * status and role are checked. Unlike the reference, role and status are always read
 * fresh from the database, so a disabled or demoted user loses access at once, and the
 * cookie only counts while its server-side session lives (session-store.ts).
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context';
import { AppError, MSG } from '../errors';
import { isValidRole, ROLE_ADMIN, ROLE_COMMON, ROLE_ROOT, USER_STATUS_DISABLED } from '../../shared/roles';
import { claimsSession, requireSession } from './session-store';
import { findUserByAccessToken } from '../services/users/user.repository';
import type { UserRow } from '../db/tables';

export interface AuthInfo {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  /** True when the caller used a system access token instead of the cookie. */
  viaAccessToken: boolean;
  /** Row id of the caller's console session (absent for access-token callers). */
  sessionId?: string;
  user: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthInfo;
  }
}

/** The authenticated caller; only valid inside a guarded route. */
export function authOf(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw new AppError(MSG.notLoggedIn, 401);
  return request.auth;
}

async function identify(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<{ user: UserRow; viaAccessToken: boolean; sessionId?: string }> {
  // A cookie that names a user decides alone (as before): a dead session is refused, never
  // replaced by an access token, so the playground's "no access token" rule holds.
  if (claimsSession(request)) {
    const live = await requireSession(ctx, request, reply);
    return { user: live.user, viaAccessToken: false, sessionId: live.sessionId };
  }
  const header = request.headers.authorization;
  if (!header) throw new AppError(MSG.notLoggedIn, 401);
  const token = header.replace(/^Bearer /, '').trim();
  const user = token ? await findUserByAccessToken(ctx.db, token) : undefined;
  if (!user) throw new AppError(MSG.accessTokenInvalid);
  return { user, viaAccessToken: true };
}

function checkUserHeader(request: FastifyRequest, id: number): void {
  const raw = request.headers['new-api-user'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') throw new AppError(MSG.noUserHeader, 401);
  if (!/^-?\d+$/.test(value.trim())) throw new AppError(MSG.badUserHeader, 401);
  if (Number(value) !== id) throw new AppError(MSG.userHeaderMismatch, 401);
}

/** A preHandler that admits callers with at least `minRole`. */
export function requireRole(ctx: AppContext, minRole: number): preHandlerAsyncHookHandler {
  return async function guard(request, reply) {
    const { user, viaAccessToken, sessionId } = await identify(ctx, request, reply);
    checkUserHeader(request, user.id);
    if (user.status === USER_STATUS_DISABLED) throw new AppError(MSG.banned);
    if (!user.username || !isValidRole(user.role)) throw new AppError(MSG.userInfoInvalid);
    if (user.role < minRole) throw new AppError(MSG.forbidden);
    request.auth = {
      id: user.id,
      username: user.username,
      role: user.role,
      status: user.status,
      group: user.group,
      viaAccessToken,
      ...(sessionId ? { sessionId } : {}),
      user,
    };
  };
}

export interface Guards {
  user: preHandlerAsyncHookHandler;
  admin: preHandlerAsyncHookHandler;
  root: preHandlerAsyncHookHandler;
}

export function makeGuards(ctx: AppContext): Guards {
  return { user: requireRole(ctx, ROLE_COMMON), admin: requireRole(ctx, ROLE_ADMIN), root: requireRole(ctx, ROLE_ROOT) };
}
