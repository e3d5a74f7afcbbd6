/**
 * The console session cookie: a signed (HMAC, not encrypted) HttpOnly SameSite=Strict cookie
 * named `session`. It carries the random key of a server-side session (`sid`, see
 * session-store.ts: that row, not the cookie, decides who is signed in and until when), the
 * user id and name for reference, and a few flow values (OAuth state, invitation code,
 * passed bot check). Role and status are never trusted from it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface SessionData {
  /** Key of the server-side session (session-store.ts); absent when nobody signed in. */
  sid?: string;
  id?: number;
  username?: string;
  oauth_state?: string;
  aff?: string;
  turnstile?: boolean;
}

export function readSession(request: FastifyRequest): SessionData {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return {};
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return {};
  try {
    const parsed = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as SessionData) : {};
  } catch {
    return {};
  }
}

export function writeSession(reply: FastifyReply, data: SessionData): void {
  const value = Buffer.from(JSON.stringify(data), 'utf8').toString('base64url');
  reply.setCookie(SESSION_COOKIE, value, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

// What this request already wrote: a second update (the bot check, then login) must build on
// it, not on the incoming cookie, or the later Set-Cookie would drop the earlier values.
const written = new WeakMap<FastifyRequest, SessionData>();

/** Merges values into the session of this request and writes it back. */
export function updateSession(request: FastifyRequest, reply: FastifyReply, patch: SessionData): SessionData {
  const next = { ...(written.get(request) ?? readSession(request)), ...patch };
  written.set(request, next);
  writeSession(reply, next);
  return next;
}

export function clearSession(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Removes keys from the session of this request (the cookie is cleared when nothing is left). */
export function dropSessionKeys(request: FastifyRequest, reply: FastifyReply, keys: Array<keyof SessionData>): void {
  const next: SessionData = { ...(written.get(request) ?? readSession(request)) };
  for (const key of keys) delete next[key];
  written.set(request, next);
  if (Object.keys(next).length === 0) clearSession(reply);
  else writeSession(reply, next);
}
