/**
 * Lenient bodies, strict values (issue #13): every write route of /api takes a body with
 * fields it does not know, drops them (never stored, never echoed, never an error), and
 * still refuses a bad value of a known field with the same reply as without the extra
 * fields. One rule for all of them: plumbing/request-bodies.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type ApiResponse, type TestServer } from '../helpers/server';
import { createUser, insertPlainUsers, type TestUser } from '../helpers/users';

/** The value of every unknown field: it must appear in no reply and no table. */
const MARK = 'UNKNOWN-FIELD-MARK';
/** Fields no body of /api knows, of several JSON types. */
const EXTRA = { zz_unknown: MARK, zz_nested: { note: MARK }, zz_list: [MARK], zz_flag: true, zz_number: 7 } as const;

/** Every table a write route can reach. */
const TABLES = ['users', 'tokens', 'channels', 'abilities', 'redemptions', 'options', 'logs'] as const;

function channelBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `lenient-${Math.random().toString(36).slice(2, 8)}`, type: 1, key: 'sk-lenient', models: 'gpt-4o', group: 'default', ...overrides };
}

describeEachDialect('lenient bodies, strict values', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    alice = await createUser(s, 'lenient_al');
    fake = await startFakeOpenAI({ keys: ['sk-fake-good'], models: ['gpt-4o', 'fake-model-1'] });
  });
  afterAll(async () => {
    await fake?.close();
    await s?.close();
  });

  /**
   * Sends `body` plus the unknown fields; answers the reply after checking that it succeeded,
   * echoes none of them and that no table holds one.
   */
  async function accepts(client: ApiClient, method: string, path: string, body: Record<string, unknown>): Promise<ApiResponse> {
    const res = await client.request(method, path, { ...body, ...EXTRA });
    expect({ method, path, status: res.status, success: res.body?.success, message: res.body?.message }).toEqual({
      method,
      path,
      status: 200,
      success: true,
      message: expect.any(String),
    });
    expect(JSON.stringify(res.body), `${method} ${path} echoes an unknown field`).not.toMatch(/UNKNOWN-FIELD-MARK|zz_/);
    for (const table of TABLES) {
      const rows = await s.app.ctx.db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows), `${method} ${path} stored an unknown field in ${table}`).not.toContain(MARK);
    }
    return res;
  }

  /**
   * A bad value of a known field: refused with `status` and `message` (a pattern where the
   * words are those of docs/messages.md, kept by its own test), and the unknown fields
   * beside it change nothing in the reply.
   */
  async function refuses(client: ApiClient, method: string, path: string, bad: Record<string, unknown>, status: number, message: string | RegExp): Promise<void> {
    const plain = await client.request(method, path, bad);
    const withExtra = await client.request(method, path, { ...bad, ...EXTRA });
    expect({ method, path, status: plain.status, success: plain.body.success, message: plain.body.message }).toEqual({
      method,
      path,
      status,
      success: false,
      message: typeof message === 'string' ? message : expect.stringMatching(message),
    });
    expect({ method, path, status: withExtra.status, body: withExtra.body }).toEqual({ method, path, status: plain.status, body: plain.body });
  }

  /** A route whose answer does not depend on the unknown fields (business failures included). */
  async function sameReply(client: ApiClient, method: string, path: string, body: Record<string, unknown>): Promise<ApiResponse> {
    const plain = await client.request(method, path, body);
    const withExtra = await client.request(method, path, { ...body, ...EXTRA });
    expect({ method, path, status: withExtra.status, body: withExtra.body }).toEqual({ method, path, status: plain.status, body: plain.body });
    expect(withExtra.status, `${method} ${path}`).toBeLessThan(500);
    return withExtra;
  }

  async function userRow(id: number) {
    return s.app.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function createChannels(overrides: Record<string, unknown> = {}): Promise<number[]> {
    const res = await root.post('/api/channel/', channelBody(overrides));
    expect(res.body.success).toBe(true);
    return res.body.data.ids as number[];
  }

  describe('own account', () => {
    it('PUT /api/user/self: unknown fields and read-only user keys dropped; original_password still checked', async () => {
      const before = await userRow(alice.id);
      await accepts(alice.client, 'PUT', '/api/user/self', { display_name: 'Lenient Al', role: 100, quota: 999999999, group: 'vip' });
      const after = await userRow(alice.id);
      expect(after).toMatchObject({ display_name: 'Lenient Al', role: before.role, group: before.group });
      expect(Number(after.quota)).toBe(Number(before.quota));
      // The later console's password change: the current password is checked when sent.
      await accepts(alice.client, 'PUT', '/api/user/self', { original_password: alice.password, password: 'password456', password2: 'password456' });
      alice.password = 'password456';
      await refuses(alice.client, 'PUT', '/api/user/self', { original_password: 'not-the-password', password: 'password789' }, 200, '用户名或密码错误，或用户已被封禁');
      await refuses(alice.client, 'PUT', '/api/user/self', { display_name: 'd'.repeat(21) }, 200, /^输入不合法 display_name /);
      await refuses(alice.client, 'PUT', '/api/user/self', { password: 12345678 }, 400, '无效的参数: password must be string');
      await s.login(alice.username, 'password456');
    });

    it('PUT /api/user/setting: unknown fields never reach the stored setting', async () => {
      await accepts(alice.client, 'PUT', '/api/user/setting', { notify_type: 'email', quota_warning_threshold: 500000 });
      expect(JSON.parse((await userRow(alice.id)).setting ?? '{}')).toMatchObject({ notify_type: 'email', quota_warning_threshold: 500000 });
      await refuses(alice.client, 'PUT', '/api/user/setting', { notify_type: 'sms', quota_warning_threshold: 1 }, 200, '无效的预警类型');
      await refuses(alice.client, 'PUT', '/api/user/setting', { notify_type: 'email', quota_warning_threshold: '1' }, 400, '无效的参数: quota_warning_threshold must be number');
    });

    it('POST /api/user/aff_transfer', async () => {
      await s.app.ctx.db.updateTable('users').set({ aff_quota: 600000, quota: 0 }).where('id', '=', alice.id).execute();
      await accepts(alice.client, 'POST', '/api/user/aff_transfer', { quota: 500000, user_id: 1 });
      expect(await userRow(alice.id)).toMatchObject({ aff_quota: 100000 });
      expect(Number((await userRow(alice.id)).quota)).toBe(500000);
      await refuses(alice.client, 'POST', '/api/user/aff_transfer', { quota: 0 }, 400, '无效的参数: quota must be >= 1');
      await refuses(alice.client, 'POST', '/api/user/aff_transfer', { quota: 700000 }, 200, '划转失败 邀请额度不足！');
    });
  });

  describe('accounts without a session, and the wallet', () => {
    it('POST /api/user/register, /api/user/login, /api/user/reset; /api/user/topup, /amount, /pay answer as without the unknown fields', async () => {
      await accepts(s.client(), 'POST', '/api/user/register', { username: 'lenient_reg', password: 'password123', password2: 'password123', aff_code: null, inviter_id: 1, quota: 5 });
      const registered = await s.app.ctx.db.selectFrom('users').selectAll().where('username', '=', 'lenient_reg').executeTakeFirstOrThrow();
      expect(registered.inviter_id ?? 0).toBe(0);
      expect(Number(registered.quota)).not.toBe(5);
      await refuses(s.client(), 'POST', '/api/user/register', { username: 'lenient_reg2', password: 1234 }, 400, '无效的参数: password must be string');
      await accepts(s.client(), 'POST', '/api/user/login', { username: 'lenient_reg', password: 'password123' });
      await sameReply(s.client(), 'POST', '/api/user/reset', { email: 'nobody@example.com', token: 'nope' });
      await sameReply(alice.client, 'POST', '/api/user/topup', { key: 'no-such-code' });
      await sameReply(alice.client, 'POST', '/api/user/amount', { amount: 10, top_up_code: '' });
      await sameReply(alice.client, 'POST', '/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'zfb' });
    });
  });

  describe('user administration', () => {
    it('POST /api/user/: a field the create call does not take is dropped', async () => {
      const res = await accepts(root, 'POST', '/api/user/', { username: 'lenient_new', display_name: 'New', password: 'password123', quota: 777, role: 1, aff_code: 'ZZZZ' });
      const row = await s.app.ctx.db.selectFrom('users').selectAll().where('username', '=', 'lenient_new').executeTakeFirstOrThrow();
      expect(Number(row.quota)).not.toBe(777);
      expect(row.aff_code).not.toBe('ZZZZ');
      expect(res.body.data?.id ?? row.id).toBe(row.id);
      await refuses(root, 'POST', '/api/user/', { username: 'u'.repeat(13), password: 'password123' }, 200, /^输入不合法 username /);
      await refuses(root, 'POST', '/api/user/', { username: 'lenient_x', password: 'password123', role: 'admin' }, 400, '无效的参数: role must be integer');
    });

    it('PUT /api/user/ with the whole record read from GET /api/user/{id}', async () => {
      const [target] = await insertPlainUsers(s, [{ username: 'lenient_ed', display_name: 'Ed' }]);
      const record = (await root.get(`/api/user/${target}`)).body.data;
      await accepts(root, 'PUT', '/api/user/', { ...record, password: '', display_name: 'Renamed', quota: 1234 });
      const row = await userRow(target!);
      expect(row.display_name).toBe('Renamed');
      expect(Number(row.quota)).toBe(1234);
      await refuses(root, 'PUT', '/api/user/', { id: target, quota: 1.5 }, 400, '无效的参数: quota must be integer');
      await refuses(root, 'PUT', '/api/user/', { id: target, quota: -1 }, 400, '无效的参数: quota must be >= 0');
    });

    it('POST /api/user/manage', async () => {
      const [target] = await insertPlainUsers(s, [{ username: 'lenient_mg' }]);
      const res = await accepts(root, 'POST', '/api/user/manage', { id: target, action: 'disable', status: 1, role: 100 });
      expect(res.body.data).toMatchObject({ status: 2, role: 1 });
      await refuses(root, 'POST', '/api/user/manage', { id: target, action: 'explode' }, 400, '无效的参数: action must be equal to one of the allowed values');
      await refuses(root, 'POST', '/api/user/manage', { id: 1, action: 'disable' }, 200, '无法禁用超级管理员用户');
    });
  });

  describe('options', () => {
    it('PUT /api/option/', async () => {
      await accepts(root, 'PUT', '/api/option/', { key: 'Notice', value: 'lenient notice' });
      expect((await s.client().get('/api/notice')).body.data).toBe('lenient notice');
      await refuses(root, 'PUT', '/api/option/', { key: 7, value: 'x' }, 400, '无效的参数: key must be string');
      await refuses(root, 'PUT', '/api/option/', { key: 'RegisterEnabled', value: true }, 400, '无效的参数');
    });
  });

  describe('channels', () => {
    it('POST /api/channel/ and PUT /api/channel/ (whole record, status, priority, weight)', async () => {
      const res = await accepts(root, 'POST', '/api/channel/', channelBody({ name: 'lenient-create', used_quota: 999, balance: 5, created_time: null, response_time: 3 }));
      const [id] = res.body.data.ids as number[];
      const row = await s.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
      expect(Number(row.used_quota)).toBe(0);
      await refuses(root, 'POST', '/api/channel/', channelBody({ priority: -1000 }), 400, '无效的参数: priority must be >= -999');
      await refuses(root, 'POST', '/api/channel/', channelBody({ model_mapping: '{' }), 200, '模型映射必须是合法的 JSON 格式！');

      const record = (await root.get(`/api/channel/${id}`)).body.data;
      await accepts(root, 'PUT', '/api/channel/', { ...record, name: 'lenient-edited', groups: ['default'], key: '' });
      await accepts(root, 'PUT', '/api/channel/', { id, status: 2 });
      await accepts(root, 'PUT', '/api/channel/', { id, priority: 5 });
      await accepts(root, 'PUT', '/api/channel/', { id, weight: 3 });
      expect(await s.app.ctx.db.selectFrom('channels').select(['name', 'status', 'priority', 'weight']).where('id', '=', id!).executeTakeFirstOrThrow()).toMatchObject({
        name: 'lenient-edited',
        status: 2,
      });
      await refuses(root, 'PUT', '/api/channel/', { id, status: 7 }, 400, '无效的参数: status must be equal to one of the allowed values');
      await refuses(root, 'PUT', '/api/channel/', { id, weight: -1 }, 400, '无效的参数: weight must be >= 0');
    });

    it('tags: PUT /api/channel/tag, POST /api/channel/tag/enabled|disabled, POST /api/channel/batch/tag', async () => {
      const ids = await createChannels({ key: 'k1\nk2', tag: 'lenient-tag' });
      await accepts(root, 'PUT', '/api/channel/tag', { tag: 'lenient-tag', priority: 4, new_tag: null });
      await refuses(root, 'PUT', '/api/channel/tag', { tag: 'lenient-tag', model_mapping: '{' }, 200, '模型映射必须是合法的 JSON 格式！');
      await refuses(root, 'PUT', '/api/channel/tag', { tag: 'lenient-tag', priority: 'high' }, 400, '无效的参数: priority must be integer,null');
      await accepts(root, 'POST', '/api/channel/tag/disabled', { tag: 'lenient-tag' });
      await accepts(root, 'POST', '/api/channel/tag/enabled', { tag: 'lenient-tag' });
      await refuses(root, 'POST', '/api/channel/tag/enabled', { tag: '' }, 200, '参数错误');
      await refuses(root, 'POST', '/api/channel/tag/disabled', { tag: 5 }, 400, '无效的参数: tag must be string,null');
      await accepts(root, 'POST', '/api/channel/batch/tag', { ids, tag: 'lenient-tag-2' });
      await refuses(root, 'POST', '/api/channel/batch/tag', { ids, tag: '  ' }, 200, '标签不能为空！');
      await refuses(root, 'POST', '/api/channel/batch/tag', { ids: [0], tag: 'x' }, 400, '无效的参数: ids must be >= 1');
    });

    it('POST /api/channel/batch and POST /api/channel/fetch_models', async () => {
      const ids = await createChannels({ key: 'k1\nk2' });
      await refuses(root, 'POST', '/api/channel/batch', { ids: [] }, 200, '请先选择要删除的通道！');
      await refuses(root, 'POST', '/api/channel/batch', { ids: 'all' }, 400, '无效的参数: ids must be array,null');
      const res = await accepts(root, 'POST', '/api/channel/batch', { ids });
      expect(res.body.data).toBe(2);
      const models = await accepts(root, 'POST', '/api/channel/fetch_models', { base_url: fake.url, type: 1, key: 'sk-fake-good' });
      expect(models.body.data).toEqual(['gpt-4o', 'fake-model-1']);
      await refuses(root, 'POST', '/api/channel/fetch_models', { base_url: fake.url, type: 1, key: '  ' }, 200, '请填写密钥');
      await refuses(root, 'POST', '/api/channel/fetch_models', { base_url: fake.url, type: 'openai', key: 'sk-fake-good' }, 400, '无效的参数: type must be integer');
    });
  });

  describe('tokens', () => {
    it('POST /api/token/, PUT /api/token/ (whole record and ?status_only=true)', async () => {
      await accepts(alice.client, 'POST', '/api/token/', { name: 'lenient-token', remain_quota: 1000, expired_time: -1, user_id: 1, key: 'x'.repeat(48), used_quota: 99 });
      const row = await s.app.ctx.db.selectFrom('tokens').selectAll().where('name', '=', 'lenient-token').executeTakeFirstOrThrow();
      expect(row.user_id).toBe(alice.id);
      expect(row.key).not.toBe('x'.repeat(48));
      expect(Number(row.used_quota)).toBe(0);
      await refuses(alice.client, 'POST', '/api/token/', { name: 't'.repeat(31) }, 200, '令牌名称过长');
      await refuses(alice.client, 'POST', '/api/token/', { name: 'x', expired_time: 0 }, 200, '过期时间格式错误！');

      const record = (await alice.client.get(`/api/token/${row.id}`)).body.data;
      await accepts(alice.client, 'PUT', '/api/token/', { ...record, name: 'lenient-renamed', user_id: 1 });
      expect(await s.app.ctx.db.selectFrom('tokens').select(['name', 'user_id']).where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ name: 'lenient-renamed', user_id: alice.id });
      await refuses(alice.client, 'PUT', '/api/token/', { id: row.id, remain_quota: -1 }, 200, '额度不能小于 0');

      await accepts(alice.client, 'PUT', '/api/token/?status_only=true', { id: row.id, status: 2, name: 'not-written' });
      expect(await s.app.ctx.db.selectFrom('tokens').select(['name', 'status']).where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ name: 'lenient-renamed', status: 2 });
      await refuses(alice.client, 'PUT', '/api/token/?status_only=true', { id: row.id, status: 9 }, 200, '无效的令牌状态');
    });
  });

  describe('redemption codes', () => {
    it('POST /api/redemption/, PUT /api/redemption/ (whole record and ?status_only=true)', async () => {
      const created = await accepts(root, 'POST', '/api/redemption/', { name: 'lenient-code', quota: 1000, count: 1, used_user_id: 5, status: 3 });
      expect(created.body.data).toHaveLength(1);
      const row = await s.app.ctx.db.selectFrom('redemptions').selectAll().where('name', '=', 'lenient-code').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 1, used_user_id: 0 });
      await refuses(root, 'POST', '/api/redemption/', { name: 'r', quota: 0 }, 200, '兑换码额度必须大于0');
      await refuses(root, 'POST', '/api/redemption/', { name: 'r', quota: 10, count: 101 }, 200, '一次兑换码批量生成的个数不能大于 100');

      const record = (await root.get(`/api/redemption/${row.id}`)).body.data;
      // The reference's console sends count: NaN (null in JSON) when it edits.
      await accepts(root, 'PUT', '/api/redemption/', { ...record, count: null, quota: 2000 });
      expect(Number((await s.app.ctx.db.selectFrom('redemptions').select('quota').where('id', '=', row.id).executeTakeFirstOrThrow()).quota)).toBe(2000);
      await refuses(root, 'PUT', '/api/redemption/', { id: row.id, quota: 1.5 }, 200, '兑换码额度必须是整数');

      await accepts(root, 'PUT', '/api/redemption/?status_only=true', { id: row.id, status: 2, quota: 5 });
      expect(await s.app.ctx.db.selectFrom('redemptions').select(['status']).where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ status: 2 });
      await refuses(root, 'PUT', '/api/redemption/?status_only=true', { id: row.id, status: 9 }, 200, '无效的兑换码状态');
    });
  });
});
