/** User administration: list, search, read, create, edit, manage, hard delete, groups. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_ADMIN, ROLE_ROOT } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, insertPlainUsers, type TestUser } from '../helpers/users';

describeEachDialect('admin user API', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let admin: TestUser;
  let admin2: TestUser;
  let root2: TestUser;
  let common: TestUser;

  const userRow = (id: number) => s.app.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  const manageLogs = (userId: number) => s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 3).execute();

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    admin = await createUser(s, 'admin1', ROLE_ADMIN);
    admin2 = await createUser(s, 'admin2', ROLE_ADMIN);
    root2 = await createUser(s, 'root2', ROLE_ROOT);
    common = await createUser(s, 'common1');
  });
  afterAll(async () => {
    await s?.close();
  });

  describe('list and search', () => {
    let plain: number[];
    beforeAll(async () => {
      plain = await insertPlainUsers(s, [
        { username: 'alpha', display_name: 'Alpha One', email: 'alpha@example.com' },
        { username: 'bravo', display_name: 'Second', email: 'b@corp.test', group: 'vip' },
        { username: 'charlie', display_name: 'Third 100%', group: 'vip' },
        { username: 'delta_x', display_name: 'Fourth' },
      ]);
      await s.app.ctx.db.updateTable('users').set({ access_token: 'tok-of-alpha-000000000000000000' }).where('id', '=', plain[0]!).execute();
    });

    it('pages from p=0, newest first, with the total of every account', async () => {
      const all = await s.app.ctx.db.selectFrom('users').select('id').orderBy('id', 'desc').execute();
      const first = await root.get('/api/user/?p=0&page_size=3');
      expect(first.body.success).toBe(true);
      expect(first.body.data).toMatchObject({ total: all.length, page: 0, page_size: 3 });
      expect(first.body.data.items.map((u: { id: number }) => u.id)).toEqual(all.slice(0, 3).map((r) => r.id));
      const second = await root.get('/api/user/?p=1&page_size=3');
      expect(second.body.data.page).toBe(1);
      expect(second.body.data.items.map((u: { id: number }) => u.id)).toEqual(all.slice(3, 6).map((r) => r.id));
    });

    it('defaults the page size to 10 and caps it at 100', async () => {
      const plainList = await root.get('/api/user/');
      expect(plainList.body.data).toMatchObject({ page: 0, page_size: 10 });
      const huge = await root.get('/api/user/?p=0&page_size=5000');
      expect(huge.body.data.page_size).toBe(100);
      const bad = await root.get('/api/user/?p=-3&page_size=abc');
      expect(bad.body.data).toMatchObject({ page: 0, page_size: 10 });
    });

    it('never returns password hashes or access tokens to admins', async () => {
      const list = await root.get('/api/user/?p=0&page_size=100');
      const alpha = list.body.data.items.find((u: { username: string }) => u.username === 'alpha');
      expect(alpha.access_token).toBeNull();
      for (const u of list.body.data.items) expect(u.password).toBe('');
      const one = await root.get(`/api/user/${plain[0]}`);
      expect(one.body.data.access_token).toBeNull();
      const found = await root.get('/api/user/search?keyword=alpha');
      expect(found.body.data.items[0].access_token).toBeNull();
    });

    it('searches username, email and display name, case-insensitively', async () => {
      const byName = await root.get('/api/user/search?keyword=ALPH');
      expect(byName.body.data.items.map((u: { username: string }) => u.username)).toEqual(['alpha']);
      const byEmail = await root.get('/api/user/search?keyword=corp.test');
      expect(byEmail.body.data.items.map((u: { username: string }) => u.username)).toEqual(['bravo']);
      const byDisplay = await root.get('/api/user/search?keyword=fourth');
      expect(byDisplay.body.data.items.map((u: { username: string }) => u.username)).toEqual(['delta_x']);
      expect(byDisplay.body.data).toMatchObject({ total: 1, page: 0, page_size: 10 });
    });

    it('takes LIKE wildcards in the keyword literally', async () => {
      const percent = await root.get('/api/user/search?keyword=' + encodeURIComponent('100%'));
      expect(percent.body.data.items.map((u: { username: string }) => u.username)).toEqual(['charlie']);
      const underscore = await root.get('/api/user/search?keyword=a_x');
      expect(underscore.body.data.items.map((u: { username: string }) => u.username)).toEqual(['delta_x']);
      const quote = await root.get('/api/user/search?keyword=' + encodeURIComponent("' or 1=1 --"));
      expect(quote.body.data).toMatchObject({ items: [], total: 0 });
    });

    it('matches a numeric keyword as the id, and filters by group', async () => {
      const byId = await root.get(`/api/user/search?keyword=${plain[2]}`);
      expect(byId.body.data.items.map((u: { id: number }) => u.id)).toContain(plain[2]);
      const vip = await root.get('/api/user/search?group=vip');
      expect(vip.body.data.items.map((u: { username: string }) => u.username)).toEqual(['charlie', 'bravo']);
      const vipKeyword = await root.get('/api/user/search?keyword=bra&group=vip&p=0&page_size=1');
      expect(vipKeyword.body.data).toMatchObject({ total: 1, page_size: 1 });
      const everyone = await root.get('/api/user/search?keyword=');
      const all = await root.get('/api/user/');
      expect(everyone.body.data.total).toBe(all.body.data.total);
    });

    it('is for admins only', async () => {
      const res = await common.client.get('/api/user/');
      expect(res.body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
      const anonymous = await s.client().get('/api/user/search?keyword=a');
      expect(anonymous.status).toBe(401);
    });
  });

  describe('read one', () => {
    it('shows lower-level users to admins, and roots to root', async () => {
      const mine = await admin.client.get(`/api/user/${common.id}`);
      expect(mine.body.data).toMatchObject({ id: common.id, username: 'common1', role: 1, password: '' });
      const other = await root.get(`/api/user/${root2.id}`);
      expect(other.body.data.username).toBe('root2');
    });

    it('refuses same or higher levels, unknown ids and bad ids', async () => {
      const refused = { success: false, message: '无权获取同级或更高等级用户的信息' };
      expect((await admin.client.get(`/api/user/${admin2.id}`)).body).toEqual(refused);
      expect((await admin.client.get(`/api/user/${admin.id}`)).body).toEqual(refused);
      expect((await admin.client.get(`/api/user/${root2.id}`)).body).toEqual(refused);
      expect((await root.get('/api/user/999999')).body).toEqual({ success: false, message: 'record not found' });
      expect((await root.get('/api/user/abc')).body).toEqual({ success: false, message: '无效的参数' });
    });
  });

  describe('create', () => {
    it('creates a common user with the display name defaulting to the username', async () => {
      const res = await admin.client.post('/api/user/', { username: 'made1', display_name: '', password: 'made-pass-1' });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ username: 'made1', display_name: 'made1', role: 1, status: 1, access_token: null });
      const c = await s.login('made1', 'made-pass-1');
      expect((await c.get('/api/user/self')).body.data.username).toBe('made1');
    });

    it('refuses empty names and passwords with their message', async () => {
      const msg = { success: false, message: '用户名和密码不能为空！' };
      expect((await admin.client.post('/api/user/', { username: '  ', password: 'password1' })).body).toEqual(msg);
      expect((await admin.client.post('/api/user/', { username: 'nopass', password: '' })).body).toEqual(msg);
    });

    it('refuses a role at or above the caller', async () => {
      const msg = { success: false, message: '无法创建权限大于等于自己的用户' };
      expect((await admin.client.post('/api/user/', { username: 'x1', password: 'password1', role: 10 })).body).toEqual(msg);
      expect((await root.post('/api/user/', { username: 'x2', password: 'password1', role: 100 })).body).toEqual(msg);
      const lower = await root.post('/api/user/', { username: 'x3', password: 'password1', role: 10 });
      expect(lower.body.data.role).toBe(1);
    });

    it('validates lengths in characters and drops unknown fields, creating nothing invalid', async () => {
      const tooLong = await root.post('/api/user/', { username: 'abcdefghijklm', password: 'password1' });
      expect(tooLong.body.success).toBe(false);
      expect(tooLong.body.message).toMatch(/^输入不合法 /);
      const cjkOk = await root.post('/api/user/', { username: '用户名十二个字符用户名十', password: 'password1', display_name: '二十个字符二十个字符二十个字符二十个字符' });
      expect(cjkOk.body.success).toBe(true);
      expect((await root.post('/api/user/', { username: 'shortpw', password: 'short' })).body.message).toMatch(/^输入不合法 /);
      expect((await root.post('/api/user/', { username: 'longpw', password: 'x'.repeat(21) })).body.message).toMatch(/^输入不合法 /);
      // A field the create call does not take (quota) is dropped, never stored.
      const unknown = await root.post('/api/user/', { username: 'extra', password: 'password1', quota: 5 });
      expect(unknown.body.success).toBe(true);
      const extra = await s.app.ctx.db.selectFrom('users').select('quota').where('username', '=', 'extra').executeTakeFirstOrThrow();
      expect(Number(extra.quota)).not.toBe(5);
      const names = await s.app.ctx.db.selectFrom('users').select('username').where('username', 'in', ['abcdefghijklm', 'shortpw', 'longpw']).execute();
      expect(names).toEqual([]);
    });

    it('refuses a username already taken', async () => {
      const res = await root.post('/api/user/', { username: 'common1', password: 'password1' });
      expect(res.body).toEqual({ success: false, message: '用户名已存在，或已注销' });
    });
  });

  describe('update', () => {
    let target: number;
    beforeAll(async () => {
      [target] = await insertPlainUsers(s, [{ username: 'editme', display_name: 'Edit Me' }]);
      await s.app.ctx.db.updateTable('users').set({ quota: 1000 }).where('id', '=', target!).execute();
    });

    async function asConsoleSends(id: number) {
      return (await root.get(`/api/user/${id}`)).body.data;
    }

    it('moves the quota as a delta and writes exactly one manage log', async () => {
      const record = await asConsoleSends(target);
      const res = await admin.client.put('/api/user/', { ...record, quota: 1500000, display_name: 'Edited' });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ quota: 1500000, display_name: 'Edited', username: 'editme' });
      const logs = await manageLogs(target);
      expect(logs).toHaveLength(1);
      expect(logs[0]!.content).toBe('管理员将用户额度从 ＄0.002000 额度修改为 ＄3.000000 额度');
      expect(logs[0]!.username).toBe('editme');
      // A charge landing before the edit is read inside the transaction: the log shows it.
      await s.app.ctx.db.updateTable('users').set({ quota: 1400000 }).where('id', '=', target).execute();
      await admin.client.put('/api/user/', { id: target, quota: 2000000 });
      expect(Number((await userRow(target))!.quota)).toBe(2000000);
      const after = await manageLogs(target);
      expect(after).toHaveLength(2);
      expect(after.map((l) => l.content)).toContain('管理员将用户额度从 ＄2.800000 额度修改为 ＄4.000000 额度');
    });

    it('writes no log when the quota is unchanged and never blanks fields', async () => {
      const before = (await manageLogs(target)).length;
      const record = await asConsoleSends(target);
      const res = await root.put('/api/user/', { ...record, username: '', display_name: '', group: '', password: '' });
      expect(res.body.success).toBe(true);
      const row = (await userRow(target))!;
      expect(row).toMatchObject({ username: 'editme', display_name: 'Edited', group: 'default', password: '' });
      expect((await manageLogs(target)).length).toBe(before);
    });

    it('changes group and password, ignoring read-only fields', async () => {
      const record = await asConsoleSends(target);
      const res = await root.put('/api/user/', { ...record, group: 'vip', password: 'new-pass-99', role: 1, status: 2, aff_quota: 99, email: 'z@z.z' });
      expect(res.body.success).toBe(true);
      const row = (await userRow(target))!;
      expect(row).toMatchObject({ group: 'vip', status: 1, aff_quota: 0, email: '' });
      await s.login('editme', 'new-pass-99');
    });

    it('applies the role rules', async () => {
      const same = await admin.client.put('/api/user/', { id: admin2.id, display_name: 'x' });
      expect(same.body).toEqual({ success: false, message: '无权更新同权限等级或更高权限等级的用户信息' });
      const higher = await admin.client.put('/api/user/', { id: root2.id, display_name: 'x' });
      expect(higher.body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
      const raise = await admin.client.put('/api/user/', { id: target, role: 10 });
      expect(raise.body).toEqual({ success: false, message: '无权将其他用户权限等级提升到大于等于自己的权限等级' });
      const rootOnRoot = await root.put('/api/user/', { id: root2.id, display_name: 'Second Root' });
      expect(rootOnRoot.body.success).toBe(true);
      expect((await userRow(root2.id))!.role).toBe(ROLE_ROOT);
      const byCommon = await common.client.put('/api/user/', { id: target, display_name: 'x' });
      expect(byCommon.body.message).toBe('无权进行此操作，权限不足');
    });

    it('refuses bad input and changes nothing', async () => {
      const before = (await userRow(target))!;
      const logsBefore = (await manageLogs(target)).length;
      const cases = [
        { id: target, quota: 1, password: 'short' },
        { id: target, quota: 1, username: 'thirteen-char' },
        { id: target, quota: 1, display_name: 'x'.repeat(21) },
        { id: target, quota: 1, username: 'common1' },
      ];
      for (const body of cases) {
        const res = await root.put('/api/user/', body);
        expect(res.body.success).toBe(false);
      }
      for (const body of [{ id: target, quota: 1.5 }, { id: target, quota: '7' }, { id: target, quota: 1.5, hacker: 1 }, { quota: 5 }]) {
        const res = await root.put('/api/user/', body);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
      }
      // An unknown field is dropped: nothing to write, nothing written.
      expect((await root.put('/api/user/', { id: target, hacker: 1 })).body.success).toBe(true);
      expect((await root.put('/api/user/', { id: 0, quota: 1 })).body).toEqual({ success: false, message: '无效的参数' });
      expect((await root.put('/api/user/', { id: 999999, quota: 1 })).body).toEqual({ success: false, message: 'record not found' });
      expect(await userRow(target)).toEqual(before);
      expect((await manageLogs(target)).length).toBe(logsBefore);
    });
  });

  describe('manage', () => {
    let victim: TestUser;
    beforeAll(async () => {
      victim = await createUser(s, 'victim');
    });
    const manage = (c: ApiClient, id: number, action: string) => c.post('/api/user/manage', { id, action });

    it('disables at once and enables again', async () => {
      expect((await victim.client.get('/api/user/self')).body.success).toBe(true);
      const off = await manage(admin.client, victim.id, 'disable');
      expect(off.body).toEqual({ success: true, message: '', data: { role: 1, status: 2 } });
      expect((await victim.client.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });
      const on = await manage(admin.client, victim.id, 'enable');
      expect(on.body.data).toEqual({ role: 1, status: 1 });
      // The ban ended the session (issue #12): enabled again, the user signs in afresh.
      expect((await victim.client.get('/api/user/self')).status).toBe(401);
      victim.client = await s.login(victim.username, victim.password);
      expect((await victim.client.get('/api/user/self')).body.success).toBe(true);
    });

    it('lets only root promote, and demotes', async () => {
      expect((await manage(admin.client, victim.id, 'promote')).body).toEqual({ success: false, message: '普通管理员用户无法提升其他用户为管理员' });
      expect((await manage(root, victim.id, 'promote')).body.data).toEqual({ role: 10, status: 1 });
      expect((await manage(root, victim.id, 'promote')).body).toEqual({ success: false, message: '该用户已经是管理员' });
      // Promoted: the victim reaches admin routes on the very next request.
      expect((await victim.client.get('/api/user/')).body.success).toBe(true);
      expect((await manage(admin.client, victim.id, 'demote')).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
      expect((await manage(root, victim.id, 'demote')).body.data).toEqual({ role: 1, status: 1 });
      expect((await manage(root, victim.id, 'demote')).body).toEqual({ success: false, message: '该用户已经是普通用户' });
      expect((await victim.client.get('/api/user/')).body.message).toBe('无权进行此操作，权限不足');
    });

    it('never disables, deletes or demotes a root, even for root', async () => {
      for (const [action, message] of [
        ['disable', '无法禁用超级管理员用户'],
        ['delete', '无法删除超级管理员用户'],
        ['demote', '无法降级超级管理员用户'],
      ] as const) {
        expect((await manage(root, root2.id, action)).body).toEqual({ success: false, message });
        expect((await manage(root, 1, action)).body).toEqual({ success: false, message });
        expect((await manage(admin.client, root2.id, action)).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
      }
      const row = (await userRow(root2.id))!;
      expect(row).toMatchObject({ role: 100, status: 1, deleted_at: null });
    });

    it('refuses same-level targets, unknown users and unknown actions', async () => {
      expect((await manage(admin.client, admin2.id, 'disable')).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
      expect((await manage(root, 999999, 'disable')).body).toEqual({ success: false, message: '用户不存在' });
      const bad = await manage(root, victim.id, 'explode');
      expect(bad.status).toBe(400);
      expect((await common.client.post('/api/user/manage', { id: victim.id, action: 'disable' })).body.message).toBe('无权进行此操作，权限不足');
      expect((await userRow(admin2.id))!.status).toBe(1);
    });

    it('soft-deletes: listed with DeletedAt, no login, name still taken', async () => {
      const doomed = await createUser(s, 'doomed');
      const res = await manage(admin.client, doomed.id, 'delete');
      expect(res.body.success).toBe(true);
      const found = await root.get('/api/user/search?keyword=doomed');
      expect(found.body.data.items).toHaveLength(1);
      expect(new Date(found.body.data.items[0].DeletedAt).getTime()).toBeGreaterThan(Date.now() - 3600_000);
      expect((await doomed.client.get('/api/user/self')).status).toBe(401);
      const login = await s.client().post('/api/user/login', { username: 'doomed', password: doomed.password });
      expect(login.body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
      expect((await root.post('/api/user/', { username: 'doomed', password: 'password1' })).body.message).toBe('用户名已存在，或已注销');
      expect((await root.get(`/api/user/${doomed.id}`)).body.message).toBe('record not found');
      // Acting on a deleted account changes nothing.
      expect((await manage(root, doomed.id, 'disable')).body.data).toEqual({ role: 1, status: 1 });
    });
  });

  describe('hard delete', () => {
    it('removes lower-level accounts only, roots included', async () => {
      const [gone] = await insertPlainUsers(s, [{ username: 'gone' }]);
      expect((await admin.client.delete(`/api/user/${gone}`)).body).toEqual({ success: true, message: '' });
      expect(await userRow(gone!)).toBeUndefined();
      const msg = { success: false, message: '无权删除同权限等级或更高权限等级的用户' };
      expect((await admin.client.delete(`/api/user/${admin2.id}`)).body).toEqual(msg);
      expect((await root.delete(`/api/user/${root2.id}`)).body).toEqual(msg);
      expect((await root.delete('/api/user/999999')).body).toEqual({ success: false, message: 'record not found' });
      expect(await userRow(root2.id)).toBeDefined();
    });
  });

  describe('groups', () => {
    it('lists the group names of GroupRatio for admins', async () => {
      const res = await admin.client.get('/api/group/');
      expect(res.body.success).toBe(true);
      expect([...res.body.data].sort()).toEqual(['default', 'svip', 'vip']);
      expect((await common.client.get('/api/group/')).body.message).toBe('无权进行此操作，权限不足');
    });
  });
});
