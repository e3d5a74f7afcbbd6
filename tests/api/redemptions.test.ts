import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLE_ADMIN } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

describeEachDialect('redemptions', (dialect) => {
  let s: TestServer;
  let admin: TestUser;
  let user: TestUser;
  let root: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await createUser(s, 'codeadmin', ROLE_ADMIN);
    user = await createUser(s, 'codeuser');
    root = await s.root();
  });
  afterAll(async () => {
    await s?.close();
  });

  const createCodes = async (body: Record<string, unknown>, client: ApiClient = admin.client) => (await client.post('/api/redemption/', body)).body;
  const liveCount = async () => (await s.app.ctx.db.selectFrom('redemptions').select('id').where('deleted_at', 'is', null).execute()).length;
  const rowByKey = (key: string) => s.app.ctx.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const newCode = async (name: string, quota = 1000) => {
    const reply = await createCodes({ name, quota, count: 1 });
    expect(reply.success, reply.message).toBe(true);
    return rowByKey(reply.data[0]);
  };

  it('is for administrators only', async () => {
    const res = await user.client.get('/api/redemption/');
    expect(res.body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    expect((await createCodes({ name: 'x', quota: 1, count: 1 }, user.client)).success).toBe(false);
    expect((await s.client().get('/api/redemption/')).status).toBe(401);
  });

  it('generates a batch in one go and answers the list of 32-hex keys', async () => {
    const reply = await createCodes({ name: 'promo', quota: 5000, count: 3 });
    expect(reply.success).toBe(true);
    expect(reply.data).toHaveLength(3);
    for (const key of reply.data) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(reply.data).size).toBe(3);
    const row = await rowByKey(reply.data[0]);
    expect(row).toMatchObject({ name: 'promo', status: 1, user_id: admin.id, used_user_id: 0 });
    expect(Number(row.quota)).toBe(5000);
    expect(Math.abs(Number(row.created_time) - Date.now() / 1000)).toBeLessThan(10);
  });

  it('names an unnamed batch after its quota as the console shows it', async () => {
    const reply = await createCodes({ name: '', quota: 100000, count: 1 });
    expect((await rowByKey(reply.data[0])).name).toBe('$0.20');
    await s.app.ctx.options.setInternal('DisplayInCurrencyEnabled', 'false');
    try {
      const raw = await createCodes({ quota: 100000 });
      expect(raw.data).toHaveLength(1);
      expect((await rowByKey(raw.data[0])).name).toBe('100,000');
    } finally {
      await s.app.ctx.options.setInternal('DisplayInCurrencyEnabled', 'true');
    }
  });

  it('refuses bad names, counts and quotas with the reference messages and creates nothing', async () => {
    const before = await liveCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'n'.repeat(21), quota: 1, count: 1 }, '兑换码名称长度必须在1-20之间'],
      [{ name: 'ok', quota: 1, count: 0 }, '兑换码个数必须大于0'],
      [{ name: 'ok', quota: 1, count: -3 }, '兑换码个数必须大于0'],
      [{ name: 'ok', quota: 1, count: 101 }, '一次兑换码批量生成的个数不能大于 100'],
      [{ name: 'ok', quota: 0, count: 1 }, '兑换码额度必须大于0'],
      [{ name: 'ok', count: 1 }, '兑换码额度必须大于0'],
      [{ name: 'ok', quota: 1.5, count: 1 }, '兑换码额度必须是整数'],
    ];
    for (const [body, message] of cases) expect(await createCodes(body)).toMatchObject({ success: false, message });
    expect(await liveCount()).toBe(before);
    // Characters, not bytes: twenty CJK characters fit.
    expect((await createCodes({ name: '码'.repeat(20), quota: 1, count: 1 })).success).toBe(true);
  });

  it('lists live codes newest first in the paged shape', async () => {
    const total = await liveCount();
    const first = await root.get('/api/redemption/?p=0&page_size=2');
    expect(first.body.data).toMatchObject({ total, page: 0, page_size: 2 });
    expect(first.body.data.items).toHaveLength(2);
    expect(first.body.data.items[0].id).toBeGreaterThan(first.body.data.items[1].id);
    expect(first.body.data.items[0].key).toMatch(/^[0-9a-f]{32}$/);
    const second = await root.get('/api/redemption/?p=1&page_size=2');
    expect(second.body.data.page).toBe(1);
    expect(second.body.data.items[0].id).toBeLessThan(first.body.data.items[1].id);
  });

  it('searches by name prefix or by id, wildcards taken literally', async () => {
    const a = await newCode('spring-a');
    await newCode('spring-b');
    await newCode('pre-spring');
    await newCode('50%_off');
    const prefix = await admin.client.get('/api/redemption/search?keyword=spring&p=0&page_size=10');
    expect(prefix.body.data.items.map((r: { name: string }) => r.name).sort()).toEqual(['spring-a', 'spring-b']);
    expect(prefix.body.data.total).toBe(2);
    const paged = await admin.client.get('/api/redemption/search?keyword=spring&p=1&page_size=1');
    expect(paged.body.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
    const byId = await admin.client.get(`/api/redemption/search?keyword=${a.id}`);
    expect(byId.body.data.items.map((r: { id: number }) => r.id)).toContain(a.id);
    const literal = await admin.client.get(`/api/redemption/search?keyword=${encodeURIComponent('50%_')}`);
    expect(literal.body.data.items.map((r: { name: string }) => r.name)).toEqual(['50%_off']);
    const none = await admin.client.get(`/api/redemption/search?keyword=${encodeURIComponent("' or 1=1 --")}`);
    expect(none.body.data).toMatchObject({ total: 0, items: [] });
  });

  it('gets one code; unknown ids are refused', async () => {
    const code = await newCode('get-me', 321);
    const res = await admin.client.get(`/api/redemption/${code.id}`);
    expect(res.body).toMatchObject({ success: true, data: { id: code.id, key: code.key, name: 'get-me', quota: 321, status: 1, used_user_id: 0 } });
    expect((await admin.client.get('/api/redemption/99999999')).body).toEqual({ success: false, message: 'record not found' });
  });

  it('edits name and quota only while the code is unused', async () => {
    const code = await newCode('editable', 100);
    const res = await admin.client.put('/api/redemption/', { id: code.id, name: 'edited', quota: 200, status: 2, key: 'ffff' });
    expect(res.body).toMatchObject({ success: true, data: { name: 'edited', quota: 200, status: 1, key: code.key } });
    expect((await admin.client.put('/api/redemption/', { id: code.id, name: 'x'.repeat(21) })).body.message).toBe('兑换码名称长度必须在1-20之间');

    await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 2 });
    const disabled = await admin.client.put('/api/redemption/', { id: code.id, name: 'again' });
    expect(disabled.body).toEqual({ success: false, message: '只有未使用的兑换码可以编辑' });
    await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 1 });

    expect((await user.client.post('/api/user/topup', { key: code.key })).body.success).toBe(true);
    const used = await admin.client.put('/api/redemption/', { id: code.id, name: 'after-use', quota: 999999 });
    expect(used.body).toEqual({ success: false, message: '只有未使用的兑换码可以编辑' });
    const row = await rowByKey(code.key);
    expect(row.name).toBe('edited');
    expect(Number(row.quota)).toBe(200);
    expect((await admin.client.put('/api/redemption/', { id: 99999999, name: 'ghost' })).body.message).toBe('record not found');
  });

  it('disables and re-enables unused codes, never a used one', async () => {
    const code = await newCode('switch');
    expect((await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 2 })).body).toMatchObject({ success: true, data: { status: 2 } });
    expect((await user.client.post('/api/user/topup', { key: code.key })).body.message).toBe('兑换失败，该兑换码已被使用');
    expect((await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 1 })).body).toMatchObject({ success: true, data: { status: 1 } });
    expect((await user.client.post('/api/user/topup', { key: code.key })).body.success).toBe(true);
    for (const status of [1, 2]) {
      const res = await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status });
      expect(res.body).toEqual({ success: false, message: '兑换码已被使用，无法修改状态' });
    }
    const manual = await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 3 });
    expect(manual.body).toMatchObject({ success: false, message: '兑换码状态只能设置为未使用或已禁用' });
    expect((await rowByKey(code.key)).status).toBe(3);
  });

  it('soft-deletes a code: gone from lists and from redemption, the row kept', async () => {
    const code = await newCode('delete-me');
    expect((await admin.client.delete(`/api/redemption/${code.id}/`)).body).toEqual({ success: true, message: '' });
    expect((await admin.client.get(`/api/redemption/${code.id}`)).body.message).toBe('record not found');
    expect((await admin.client.delete(`/api/redemption/${code.id}`)).body.message).toBe('record not found');
    expect((await admin.client.delete('/api/redemption/0')).body.message).toBe('id 为空！');
    expect((await user.client.post('/api/user/topup', { key: code.key })).body.message).toBe('兑换失败，无效的兑换码');
    expect((await rowByKey(code.key)).deleted_at).not.toBeNull();
  });
});
