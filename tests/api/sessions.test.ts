/**
 * Console sessions (issue #12 item 8): they expire 30 days after their last use (sliding),
 * and logout, a password change (the other sessions), a ban and a deletion end them on every
 * node sharing the database; a cookie replayed afterwards is refused. A new password is
 * checked against `original_password` when that is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../src/server/errors';
import { describeEachDialect } from '../helpers/dialects';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const DAY_MS = 24 * 3600 * 1000;
const MAX_AGE_SECONDS = 30 * 24 * 3600;
/** The project's wording for a wrong password (login's, reused for original_password). */
const WRONG_PASSWORD = '用户名或密码错误，或用户已被封禁';

describeEachDialect('console sessions', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let counter = 0;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A fresh account signed in once (more sessions through `signIn`). */
  const newUser = () => createUser(s, `sess${++counter}`);
  const signIn = (u: TestUser, server: TestServer = s) => server.login(u.username, u.password);
  /** A client that sends exactly this cookie (a replay), as `userId`. */
  function replay(cookie: string, userId: number, server: TestServer = s): ApiClient {
    const c = server.client();
    c.cookie = cookie;
    c.userId = userId;
    return c;
  }
  const self = (c: ApiClient) => c.get('/api/user/self');
  const notLoggedIn = { success: false, message: MSG.notLoggedIn };

  describe('expiry', () => {
    it('ends a session 30 days after its last use', async () => {
      const u = await newUser();
      const login = await s.client().post('/api/user/login', { username: u.username, password: u.password });
      expect(login.headers.getSetCookie().join()).toContain(`Max-Age=${MAX_AGE_SECONDS}`);
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const start = Date.now();
      vi.setSystemTime(start + 30 * DAY_MS + 60_000);
      const late = await self(replay(cookie, u.id));
      expect(late.status).toBe(401);
      expect(late.body).toEqual(notLoggedIn);
      // The reply drops the identity from the cookie.
      expect(late.headers.getSetCookie().join()).toMatch(/^session=;/);
      vi.useRealTimers();
      // Back in the present, the same cookie stays refused: the session is gone, not just late.
      expect((await self(replay(cookie, u.id))).status).toBe(401);
      expect((await self(await signIn(u))).body.success).toBe(true);
    });

    it('slides: each use renews the 30 days (and the cookie), at most once an hour', async () => {
      const u = await newUser();
      const start = Date.now();
      vi.setSystemTime(start + 20 * DAY_MS);
      const renewed = await self(u.client);
      expect(renewed.body.success).toBe(true);
      expect(renewed.headers.getSetCookie().join()).toContain(`Max-Age=${MAX_AGE_SECONDS}`);
      vi.setSystemTime(start + 20 * DAY_MS + 10 * 60_000);
      const soon = await self(u.client);
      expect(soon.body.success).toBe(true);
      expect(soon.headers.getSetCookie()).toEqual([]);
      // Past the first 30 days, alive because it was used on day 20 ...
      vi.setSystemTime(start + 45 * DAY_MS);
      expect((await self(u.client)).body.success).toBe(true);
      // ... and over once it rests 30 days.
      vi.setSystemTime(start + 76 * DAY_MS);
      expect((await self(u.client)).status).toBe(401);
    });
  });

  describe('revocation', () => {
    it('logout ends that session: the replayed cookie is refused, other sessions stay', async () => {
      const u = await newUser();
      const other = await signIn(u);
      const cookie = u.client.cookie;
      expect((await self(replay(cookie, u.id))).body.success).toBe(true);
      const out = await u.client.get('/api/user/logout');
      expect(out.body).toEqual({ success: true, message: '' });
      expect(out.headers.getSetCookie().join()).toMatch(/^session=;/);
      const replayed = await self(replay(cookie, u.id));
      expect(replayed.status).toBe(401);
      expect(replayed.body).toEqual(notLoggedIn);
      expect((await self(other)).body.success).toBe(true);
    });

    it('a password change ends the other sessions of the user, not the one that changed it', async () => {
      const u = await newUser();
      const laptop = await signIn(u);
      const laptopCookie = laptop.cookie;
      // The console's call: only the new password.
      const res = await u.client.put('/api/user/self', { password: 'changed-pw-1' });
      expect(res.body).toEqual({ success: true, message: '' });
      expect((await self(u.client)).body.success).toBe(true);
      expect((await self(laptop)).status).toBe(401);
      expect((await self(replay(laptopCookie, u.id))).status).toBe(401);
      expect((await s.client().post('/api/user/login', { username: u.username, password: u.password })).body.success).toBe(false);
      u.password = 'changed-pw-1';
      expect((await self(await signIn(u))).body.success).toBe(true);
    });

    it('checks original_password when it is sent, and a wrong one changes nothing', async () => {
      const u = await newUser();
      const other = await signIn(u);
      const wrong = await u.client.put('/api/user/self', { password: 'never-set-1', original_password: 'not-my-password' });
      expect(wrong.body).toEqual({ success: false, message: WRONG_PASSWORD });
      const empty = await u.client.put('/api/user/self', { password: 'never-set-1', original_password: '' });
      expect(empty.body).toEqual({ success: false, message: WRONG_PASSWORD });
      expect((await s.client().post('/api/user/login', { username: u.username, password: 'never-set-1' })).body.success).toBe(false);
      expect((await self(other)).body.success).toBe(true);
      const right = await u.client.put('/api/user/self', { password: 'changed-pw-2', original_password: u.password });
      expect(right.body).toEqual({ success: true, message: '' });
      u.password = 'changed-pw-2';
      expect((await self(await signIn(u))).body.success).toBe(true);
      expect((await self(other)).status).toBe(401);
      // Without a new password there is nothing to check.
      expect((await u.client.put('/api/user/self', { display_name: 'Renamed', original_password: 'whatever' })).body.success).toBe(true);
    });

    it('a password reset by mail ends every session of the account', async () => {
      const u = await newUser();
      const email = `${u.username}@example.com`;
      await s.app.ctx.db.updateTable('users').set({ email }).where('id', '=', u.id).execute();
      // The link's token as the mail would carry it.
      await s.app.ctx.codes.put('reset', email, 'reset-token-1', 600);
      const reset = await s.client().post('/api/user/reset', { email, token: 'reset-token-1' });
      expect(reset.body.success).toBe(true);
      expect((await self(u.client)).status).toBe(401);
    });

    it('a ban ends every session: enabling the account again does not revive them', async () => {
      const u = await newUser();
      const second = await signIn(u);
      const manage = (action: string) => root.post('/api/user/manage', { id: u.id, action });
      expect((await manage('disable')).body.success).toBe(true);
      expect((await self(u.client)).body).toEqual({ success: false, message: MSG.banned });
      expect((await manage('enable')).body.success).toBe(true);
      expect((await self(u.client)).status).toBe(401);
      expect((await self(second)).status).toBe(401);
      expect((await self(await signIn(u))).body.success).toBe(true);
    });

    it('a deletion ends every session, even if the account is restored afterwards', async () => {
      const restore = (id: number) => s.app.ctx.db.updateTable('users').set({ deleted_at: null }).where('id', '=', id).execute();
      // Deleted by an admin.
      const u = await newUser();
      const second = await signIn(u);
      expect((await root.post('/api/user/manage', { id: u.id, action: 'delete' })).body.success).toBe(true);
      expect((await self(u.client)).body).toEqual({ success: false, message: '用户已注销' });
      await restore(u.id);
      expect((await self(second)).status).toBe(401);
      expect((await self(await signIn(u))).body.success).toBe(true);
      // Deleted by the user: the other browser's session ends too.
      const v = await newUser();
      const phone = await signIn(v);
      expect((await v.client.delete('/api/user/self')).body.success).toBe(true);
      await restore(v.id);
      expect((await self(phone)).status).toBe(401);
    });
  });

  describe('several nodes', () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startTestServer(dialect, { database: s.database });
    });
    afterAll(async () => {
      await second?.close();
    });

    it('a second node over the same database honours logout and password changes made on the first', async () => {
      const u = await newUser();
      const onSecond = (c: ApiClient) => replay(c.cookie, u.id, second);
      // One session per node; each node accepts the other's cookie.
      const a = u.client;
      const b = await signIn(u, second);
      expect((await self(onSecond(a))).body.success).toBe(true);
      expect((await self(replay(b.cookie, u.id))).body.success).toBe(true);
      // Logout on the first node: the cookie is refused by the second.
      const aCookie = a.cookie;
      await a.get('/api/user/logout');
      expect((await self(replay(aCookie, u.id, second))).status).toBe(401);
      // A password change on the second node ends the first node's sessions.
      const c = await signIn(u);
      expect((await b.put('/api/user/self', { password: 'changed-pw-3', original_password: u.password })).body.success).toBe(true);
      expect((await self(c)).status).toBe(401);
      expect((await self(onSecond(c))).status).toBe(401);
      expect((await self(b)).body.success).toBe(true);
      expect((await self(replay(b.cookie, u.id))).body.success).toBe(true);
    });
  });
});
