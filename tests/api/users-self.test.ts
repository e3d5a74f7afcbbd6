/** The signed-in user's own account: profile, deletion, access token, invitations, groups, models, settings. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

describeEachDialect('self-service user API', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let bob: TestUser;

  const userRow = (id: number) => s.app.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
  });
  afterAll(async () => {
    await s?.close();
  });

  describe('profile', () => {
    it('changes display name and password, and the new password signs in', async () => {
      const res = await alice.client.put('/api/user/self', { display_name: 'Alice A.', password: 'brand-new-pw' });
      expect(res.body).toEqual({ success: true, message: '' });
      expect((await userRow(alice.id)).display_name).toBe('Alice A.');
      await s.login('alice', 'brand-new-pw');
      alice.password = 'brand-new-pw';
    });

    it('accepts the whole record the console holds, writing only the three own fields', async () => {
      const record = (await alice.client.get('/api/user/self')).body.data;
      const res = await alice.client.put('/api/user/self', { ...record, quota: 10 ** 9, role: 100, group: 'svip', display_name: 'Alice B.' });
      expect(res.body.success).toBe(true);
      expect(await userRow(alice.id)).toMatchObject({ quota: 0, role: 1, group: 'default', display_name: 'Alice B.' });
    });

    it('renames only to a free username', async () => {
      const taken = await alice.client.put('/api/user/self', { username: 'bob' });
      expect(taken.body).toEqual({ success: false, message: '用户名已存在，或已注销' });
      const renamed = await alice.client.put('/api/user/self', { username: 'alice2' });
      expect(renamed.body.success).toBe(true);
      expect((await alice.client.get('/api/user/self')).body.data.username).toBe('alice2');
      await alice.client.put('/api/user/self', { username: 'alice' });
    });

    it('refuses bad input and changes nothing', async () => {
      const before = await userRow(alice.id);
      for (const body of [{ password: 'short' }, { password: 'p'.repeat(21) }, { display_name: 'd'.repeat(21) }, { username: 'u'.repeat(13) }]) {
        const res = await alice.client.put('/api/user/self', { display_name: 'Never Written', ...body });
        expect(res.body.success).toBe(false);
        expect(res.body.message).toMatch(/^输入不合法 /);
      }
      const unknown = await alice.client.put('/api/user/self', { display_name: 12, is_admin: true });
      expect(unknown.status).toBe(400);
      const wrongType = await alice.client.put('/api/user/self', { password: 12345678 });
      expect(wrongType.status).toBe(400);
      expect(await userRow(alice.id)).toEqual(before);
    });

    it('needs a session or token, and a matching New-Api-User header', async () => {
      expect((await s.client().put('/api/user/self', { display_name: 'x' })).status).toBe(401);
      const mismatch = await alice.client.get('/api/user/self', { 'new-api-user': String(bob.id) });
      expect(mismatch.status).toBe(401);
      expect(mismatch.body).toEqual({ success: false, message: '无权进行此操作，New-Api-User 与登录用户不匹配' });
      const missing = await alice.client.get('/api/user/self', { 'new-api-user': '' });
      expect(missing.status).toBe(401);
    });
  });

  describe('system access token', () => {
    it('issues a URL-safe token of at most 32 characters that works with New-Api-User', async () => {
      const res = await bob.client.get('/api/user/token');
      expect(res.body.success).toBe(true);
      const token: string = res.body.data;
      expect(token).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect((await bob.client.get('/api/user/self')).body.data.access_token).toBe(token);

      const viaToken = s.client();
      const plain = await viaToken.get('/api/user/self', { authorization: token, 'new-api-user': String(bob.id) });
      expect(plain.body.data.username).toBe('bob');
      const bearer = await viaToken.get('/api/user/self', { authorization: `Bearer ${token}`, 'new-api-user': String(bob.id) });
      expect(bearer.body.data.id).toBe(bob.id);
      const mismatch = await viaToken.get('/api/user/self', { authorization: token, 'new-api-user': String(alice.id) });
      expect(mismatch.status).toBe(401);
      const noHeader = await viaToken.get('/api/user/self', { authorization: token });
      expect(noHeader.status).toBe(401);
      // Admin routes still check the role of the token's owner.
      expect((await viaToken.get('/api/user/', { authorization: token, 'new-api-user': String(bob.id) })).body.message).toBe('无权进行此操作，权限不足');
    });

    it('replaces the previous token', async () => {
      const first = (await bob.client.get('/api/user/token')).body.data as string;
      const second = (await bob.client.get('/api/user/token')).body.data as string;
      expect(second).not.toBe(first);
      const old = await s.client().get('/api/user/self', { authorization: first, 'new-api-user': String(bob.id) });
      expect(old.body).toEqual({ success: false, message: '无权进行此操作，access token 无效' });
      const fresh = await s.client().get('/api/user/self', { authorization: second, 'new-api-user': String(bob.id) });
      expect(fresh.body.success).toBe(true);
    });
  });

  describe('invitations', () => {
    it('answers the own invite code, creating it once when missing', async () => {
      const code = (await alice.client.get('/api/user/aff')).body.data;
      expect(code).toBe((await userRow(alice.id)).aff_code);
      // The first-start root has none until asked.
      expect((await userRow(1)).aff_code ?? '').toBe('');
      const made = (await root.get('/api/user/aff')).body.data as string;
      expect(made).toMatch(/^[0-9a-zA-Z]{4,6}$/);
      expect((await root.get('/api/user/aff')).body.data).toBe(made);
    });

    it('transfers at least one unit and never more than the reward', async () => {
      await s.app.ctx.db.updateTable('users').set({ aff_quota: 600000, quota: 0 }).where('id', '=', alice.id).execute();
      const small = await alice.client.post('/api/user/aff_transfer', { quota: 499999 });
      expect(small.body).toEqual({ success: false, message: '划转金额最低为 ＄1.000000 额度' });
      const tooMuch = await alice.client.post('/api/user/aff_transfer', { quota: 700000 });
      expect(tooMuch.body).toEqual({ success: false, message: '划转失败 邀请额度不足！' });
      const done = await alice.client.post('/api/user/aff_transfer', { quota: 500000 });
      expect(done.body).toEqual({ success: true, message: '划转成功' });
      expect(await userRow(alice.id)).toMatchObject({ aff_quota: 100000, quota: 500000 });
      for (const body of [{}, { quota: '500000' }, { quota: 0 }, { quota: 0, to: 2 }]) {
        expect((await alice.client.post('/api/user/aff_transfer', body)).status).toBe(400);
      }
      expect(await userRow(alice.id)).toMatchObject({ aff_quota: 100000, quota: 500000 });
    });

    it('lets concurrent transfers take the reward only once', async () => {
      await s.app.ctx.db.updateTable('users').set({ aff_quota: 1000000, quota: 0 }).where('id', '=', bob.id).execute();
      const results = await Promise.all(Array.from({ length: 6 }, () => bob.client.post('/api/user/aff_transfer', { quota: 500000 })));
      expect(results.filter((r) => r.body.success)).toHaveLength(2);
      expect(results.filter((r) => r.body.message === '划转失败 邀请额度不足！')).toHaveLength(4);
      expect(await userRow(bob.id)).toMatchObject({ aff_quota: 0, quota: 1000000 });
    });
  });

  describe('groups and models', () => {
    it('lists usable groups with ratio and description, for users and visitors', async () => {
      const expected = { default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 1, desc: 'vip分组' } };
      expect((await alice.client.get('/api/user/self/groups')).body).toEqual({ success: true, message: '', data: expected });
      expect((await s.client().get('/api/user/groups')).body.data).toEqual(expected);
      // A user placed in a group that is not offered still sees it (when it has a ratio).
      await s.app.ctx.db.updateTable('users').set({ group: 'svip' }).where('id', '=', bob.id).execute();
      const own = (await bob.client.get('/api/user/self/groups')).body.data;
      expect(own).toEqual({ ...expected, svip: { ratio: 1, desc: '用户分组' } });
      expect((await s.client().get('/api/user/self/groups')).status).toBe(401);
    });

    it('lists the distinct enabled models of the usable groups', async () => {
      expect((await alice.client.get('/api/user/models')).body).toEqual({ success: true, message: '', data: [] });
      const ability = (group: string, model: string, channel_id: number, enabled: boolean) => ({ group, model, channel_id, enabled, tag: null });
      await s.app.ctx.db
        .insertInto('abilities')
        .values([
          ability('default', 'gpt-4o', 1, true),
          ability('vip', 'gpt-4o', 2, true),
          ability('vip', 'claude-3', 2, true),
          ability('default', 'off-model', 3, false),
          ability('svip', 'svip-only', 4, true),
          ability('hidden', 'secret-model', 5, true),
        ])
        .execute();
      expect((await alice.client.get('/api/user/models')).body.data).toEqual(['claude-3', 'gpt-4o']);
      expect((await bob.client.get('/api/user/models')).body.data).toEqual(['claude-3', 'gpt-4o', 'svip-only']);
    });
  });

  describe('notification settings', () => {
    const put = (body: unknown) => alice.client.put('/api/user/setting', body);

    it('stores a webhook setting with an https address', async () => {
      const res = await put({ notify_type: 'webhook', quota_warning_threshold: 500000, webhook_url: 'https://hooks.example.com/q', webhook_secret: 's3cret', notification_email: '' });
      expect(res.body).toEqual({ success: true, message: '设置已更新' });
      expect(JSON.parse((await userRow(alice.id)).setting)).toEqual({
        notify_type: 'webhook',
        quota_warning_threshold: 500000,
        webhook_url: 'https://hooks.example.com/q',
        webhook_secret: 's3cret',
        accept_unset_model_ratio_model: false,
      });
    });

    it('refuses bad settings with the reference messages and keeps the old ones', async () => {
      const before = (await userRow(alice.id)).setting;
      const cases: Array<[unknown, string]> = [
        [{ notify_type: 'sms', quota_warning_threshold: 1 }, '无效的预警类型'],
        [{ notify_type: 'email', quota_warning_threshold: 0 }, '预警阈值必须大于0'],
        [{ notify_type: 'email', quota_warning_threshold: -5 }, '预警阈值必须大于0'],
        [{ notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: '' }, 'Webhook地址不能为空'],
        [{ notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: 'http://plain.example.com' }, '无效的Webhook地址'],
        [{ notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: 'not a url' }, '无效的Webhook地址'],
        [{ notify_type: 'email', quota_warning_threshold: 1, notification_email: 'nobody' }, '无效的邮箱地址'],
      ];
      for (const [body, message] of cases) expect((await put(body)).body).toEqual({ success: false, message });
      expect((await put({ notify_type: 'email', quota_warning_threshold: '1', extra: 1 })).status).toBe(400);
      expect((await put({ notify_type: 'email', quota_warning_threshold: '1' })).status).toBe(400);
      expect((await userRow(alice.id)).setting).toBe(before);
    });

    it('replaces the whole setting when switching to email', async () => {
      const res = await put({ notify_type: 'email', quota_warning_threshold: 100000, notification_email: 'a@example.com', webhook_url: 'https://x.example.com' });
      expect(res.body.message).toBe('设置已更新');
      expect(JSON.parse((await userRow(alice.id)).setting)).toEqual({
        notify_type: 'email',
        quota_warning_threshold: 100000,
        notification_email: 'a@example.com',
        accept_unset_model_ratio_model: false,
      });
    });
  });

  describe('account deletion', () => {
    it('refuses for root', async () => {
      expect((await root.delete('/api/user/self')).body).toEqual({ success: false, message: '不能删除超级管理员账户' });
      expect((await userRow(1)).deleted_at).toBeNull();
    });

    it('soft-deletes the account: session and token stop working, login is refused', async () => {
      const carol = await createUser(s, 'carol');
      const token = (await carol.client.get('/api/user/token')).body.data as string;
      const cookie = carol.client.cookie;
      const res = await carol.client.delete('/api/user/self');
      expect(res.body).toEqual({ success: true, message: '' });
      expect((await userRow(carol.id)).deleted_at).not.toBeNull();
      // Even a copy of the old session cookie is refused.
      carol.client.cookie = cookie;
      expect((await carol.client.get('/api/user/self')).status).toBe(401);
      const viaToken = await s.client().get('/api/user/self', { authorization: token, 'new-api-user': String(carol.id) });
      expect(viaToken.body).toEqual({ success: false, message: '无权进行此操作，access token 无效' });
      const login = await s.client().post('/api/user/login', { username: 'carol', password: carol.password });
      expect(login.body.success).toBe(false);
    });
  });
});
