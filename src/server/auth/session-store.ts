/**
 * Server-side console sessions (issue #12). Signing in creates a row in `sessions` and puts
 * its random key in the signed cookie; every authenticated request reads that row joined
 * with the user in one query, so whatever node serves the request sees the same state:
 *
 * - a session expires 30 days after its last use (sliding: while it is used, the expiry and
 *   the cookie's Max-Age are renewed, at most once per SESSION_RENEW_AFTER_SECONDS);
 * - logout deletes the row, so a replayed cookie is refused everywhere;
 * - a password change ends the user's other sessions, a ban or a deletion all of them
 *   (the services call session.repository's delete functions).
 *
 * Cookies without a live row (expired, revoked, or written before sessions were stored)
 * sign nobody in; their identity is dropped from the cookie, the flow values stay.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { UserRow } from '../db/tables';
import { AppError, MSG } from '../errors';
import { USER_STATUS_DISABLED } from '../../shared/roles';
import { findUserByIdUnscoped } from '../services/users/user.repository';
import { deleteExpiredSessions, deleteSession, extendSession, findSessionUser, insertSession, newSessionKey, sessionIdOf } from '../services/users/session.repository';
import { clearSession, dropSessionKeys, readSession, SESSION_MAX_AGE_SECONDS, updateSession } from './session';
import { nowSeconds } from '../../shared/time';

/** How old a renewal must be before a request renews the session again (bounds the writes). */
export const SESSION_RENEW_AFTER_SECONDS = 3600;

/** The user id and name an ended session once had: the cookie's identity keys. */
const IDENTITY_KEYS = ['sid', 'id', 'username'] as const;

export interface LiveSession {
  user: UserRow;
  /** The row id (hash of the key) of the session. */
  sessionId: string;
}

// One lookup per request, however many callers ask (guards, then a route).
const looked = new WeakMap<FastifyRequest, LiveSession | null>();

/**
 * Starts a session for `user` (password, OAuth and Telegram login): a new row and a new key
 * in the cookie. A session the cookie held before is ended, as are expired rows of anyone.
 */
export async function startSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, user: { id: number; username: string }): Promise<void> {
  const previous = readSession(request).sid;
  const key = newSessionKey();
  const now = nowSeconds();
  const sessionId = sessionIdOf(key);
  await insertSession(ctx.db, { id: sessionId, userId: user.id, now, expiresAt: now + SESSION_MAX_AGE_SECONDS });
  if (previous) await deleteSession(ctx.db, sessionIdOf(previous));
  await deleteExpiredSessions(ctx.db, now);
  updateSession(request, reply, { sid: key, id: user.id, username: user.username });
  looked.delete(request);
}

/**
 * The live session of this request and its (non-deleted) user, or undefined. Renews it when
 * due; drops the identity from a cookie whose session is over.
 */
export async function currentSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<LiveSession | undefined> {
  const known = looked.get(request);
  if (known !== undefined) return known ?? undefined;
  const session = readSession(request);
  let live: LiveSession | undefined;
  if (typeof session.sid === 'string' && session.sid) {
    const sessionId = sessionIdOf(session.sid);
    const found = await findSessionUser(ctx.db, sessionId);
    const now = nowSeconds();
    if (found && found.expiresAt > now) {
      live = { user: found.user, sessionId };
      const renewed = now + SESSION_MAX_AGE_SECONDS;
      if (renewed - found.expiresAt >= SESSION_RENEW_AFTER_SECONDS) {
        await extendSession(ctx.db, sessionId, renewed);
        // The same values again: a fresh Max-Age for the browser.
        updateSession(request, reply, {});
      }
    } else if (found) {
      await deleteSession(ctx.db, sessionId);
    }
  }
  if (!live && (session.sid !== undefined || session.id !== undefined || session.username !== undefined)) dropSessionKeys(request, reply, [...IDENTITY_KEYS]);
  looked.set(request, live ?? null);
  return live;
}

/** Whether the cookie of this request claims a signed-in user (live or not). */
export function claimsSession(request: FastifyRequest): boolean {
  const session = readSession(request);
  return session.sid !== undefined || session.id !== undefined;
}

/**
 * The live session, or the refusal the guards answer: `用户已注销` (401) when the account is
 * gone, `用户已被封禁` while it is banned, else not logged in (401).
 */
export async function requireSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<LiveSession> {
  const claimedId = readSession(request).id;
  const live = await currentSession(ctx, request, reply);
  if (live) return live;
  const former = typeof claimedId === 'number' && Number.isSafeInteger(claimedId) ? await findUserByIdUnscoped(ctx.db, claimedId) : undefined;
  if (claimedId !== undefined && (!former || former.deleted_at !== null)) throw new AppError('用户已注销', 401);
  if (former && former.status === USER_STATUS_DISABLED) throw new AppError(MSG.banned);
  throw new AppError(MSG.notLoggedIn, 401);
}

/** Logout: ends the session of this request on every node and clears the cookie. */
export async function endSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { sid } = readSession(request);
  if (typeof sid === 'string' && sid) await deleteSession(ctx.db, sessionIdOf(sid));
  looked.set(request, null);
  // Every key goes, the bot-check flag included (docs/accounts.md#sessions-and-logout).
  clearSession(reply);
}
