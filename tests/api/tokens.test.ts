import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBool } from '../../src/server/db/tables';
import { compileAllowList } from '../../src/server/services/tokens/ip-allow-list';
import { dueTokenStatus, refreshTokenStatus } from '../../src/server/services/tokens/token.status';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const now = () => Math.floor(Date.now() / 1000);

describe('token IP allow list matching', () => {
  it('matches exact addresses and CIDR ranges of both families, IPv4-mapped clients included', () => {
    const list = compileAllowList('10.0.0.0/8\n192.168.1.7\n2001:db8::/32\n::1')!;
    expect(list.allows('10.200.3.4')).toBe(true);
    expect(list.allows('::ffff:10.1.1.1')).toBe(true);
    expect(list.allows('192.168.1.7')).toBe(true);
    expect(list.allows('192.168.1.8')).toBe(false);
    expect(list.allows('2001:db8:1::5')).toBe(true);
    expect(list.allows('2001:db9::1')).toBe(false);
    expect(list.allows('::1')).toBe(true);
    expect(list.allows('not-an-ip')).toBe(false);
    expect(compileAllowList('')).toBeUndefined();
    expect(compileAllowList('  \n ')).toBeUndefined();
  });

  it('computes the due status: expiry first, then exhaustion, only for enabled tokens', () => {
    const base = { id: 1, status: 1, expired_time: -1, remain_quota: 10, unlimited_quota: false };
    expect(dueTokenStatus(base, 1000)).toBe(1);
    expect(dueTokenStatus({ ...base, expired_time: 999 }, 1000)).toBe(3);
    expect(dueTokenStatus({ ...base, expired_time: 999, remain_quota: 0 }, 1000)).toBe(3);
    expect(dueTokenStatus({ ...base, remain_quota: 0 }, 1000)).toBe(4);
    expect(dueTokenStatus({ ...base, remain_quota: 0, unlimited_quota: true }, 1000)).toBe(1);
    expect(dueTokenStatus({ ...base, remain_quota: 0, status: 2 }, 1000)).toBe(2);
  });
});

describeEachDialect('tokens', (dialect) => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let root: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    root = await s.root();
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = async (client: ApiClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/token/', { remain_quota: 500000, expired_time: -1, ...body });
    return res.body;
  };
  const createOne = async (client: ApiClient, body: Record<string, unknown>) => {
    const reply = await create(client, body);
    expect(reply.success, reply.message).toBe(true);
    return reply.data[0];
  };
  const tokenRow = (id: number) => s.app.ctx.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const countTokens = async (userId: number) => (await s.app.ctx.db.selectFrom('tokens').select('id').where('user_id', '=', userId).where('deleted_at', 'is', null).execute()).length;

  it('refuses callers without a session', async () => {
    const res = await s.client().get('/api/token/');
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it('creates one token with a 48-character key and the given fields', async () => {
    const t = await createOne(alice.client, {
      name: 'first',
      remain_quota: 1234,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: ' gpt-4o , gpt-4o-mini,,gpt-4o ',
      group: 'vip',
    });
    expect(t.key).toMatch(/^[0-9a-zA-Z]{48}$/);
    expect(t).toMatchObject({
      user_id: alice.id,
      name: 'first',
      status: 1,
      remain_quota: 1234,
      used_quota: 0,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,gpt-4o-mini',
      group: 'vip',
      expired_time: -1,
      allow_ips: '',
    });
    expect(Math.abs(t.created_time - now())).toBeLessThan(10);
    const row = await tokenRow(t.id);
    expect(row.key).toBe(t.key);
  });

  it('creates a batch in one go: the first name as given, the others with a random 6-character suffix', async () => {
    const reply = await create(alice.client, { name: 'batch', count: 3 });
    expect(reply.success).toBe(true);
    expect(reply.data).toHaveLength(3);
    const names: string[] = reply.data.map((t: { name: string }) => t.name);
    expect(names[0]).toBe('batch');
    for (const name of names.slice(1)) expect(name).toMatch(/^batch-[0-9a-zA-Z]{6}$/);
    expect(new Set(reply.data.map((t: { key: string }) => t.key)).size).toBe(3);
  });

  it('refuses batch counts outside 1 to 100 and creates nothing', async () => {
    const before = await countTokens(alice.id);
    expect(await create(alice.client, { name: 'x', count: 0 })).toMatchObject({ success: false, message: '令牌个数必须大于0' });
    expect(await create(alice.client, { name: 'x', count: 101 })).toMatchObject({ success: false, message: '一次批量创建的令牌个数不能大于 100' });
    expect(await create(alice.client, { name: 'x', count: 1.5 })).toMatchObject({ success: false, message: '令牌个数必须是整数' });
    expect(await countTokens(alice.id)).toBe(before);
  });

  it('limits names to 30 characters (not bytes), suffixed batch names included', async () => {
    const before = await countTokens(alice.id);
    expect(await create(alice.client, { name: 'n'.repeat(31) })).toMatchObject({ success: false, message: '令牌名称过长' });
    const cjk = await createOne(alice.client, { name: '令'.repeat(30) });
    expect(cjk.name).toBe('令'.repeat(30));
    // 25 characters fit alone, but not with "-XXXXXX" on the second token of the batch.
    expect(await create(alice.client, { name: 'b'.repeat(25), count: 2 })).toMatchObject({ success: false, message: '令牌名称过长' });
    expect(await countTokens(alice.id)).toBe(before + 1);
  });

  it('validates allow_ips line by line: addresses and CIDR ranges kept, a bad line named', async () => {
    const t = await createOne(alice.client, { name: 'ips', allow_ips: ' 1.2.3.4 \n\n10.0.0.0/8\r\n2001:db8::/32\n::1\n' });
    expect(t.allow_ips).toBe('1.2.3.4\n10.0.0.0/8\n2001:db8::/32\n::1');
    for (const bad of ['300.1.1.1', '10.0.0.0/33', 'example.com', '1.2.3.4/8/1', '::1/129']) {
      const reply = await create(alice.client, { name: 'bad', allow_ips: `1.2.3.4\n${bad}` });
      expect(reply.success).toBe(false);
      expect(reply.message).toContain(bad);
      expect(reply.message).toContain('IP 白名单格式错误');
    }
    const upd = await alice.client.put('/api/token/', { id: t.id, allow_ips: '1.1.1.1\nnope' });
    expect(upd.body.success).toBe(false);
    expect(upd.body.message).toContain('nope');
    expect((await tokenRow(t.id)).allow_ips).toBe('1.2.3.4\n10.0.0.0/8\n2001:db8::/32\n::1');
  });

  it("restricts the group to the user's usable groups (the option plus the user's own group)", async () => {
    expect((await createOne(alice.client, { name: 'g0', group: '' })).group).toBe('');
    expect((await createOne(alice.client, { name: 'g1', group: 'default' })).group).toBe('default');
    const refused = await create(alice.client, { name: 'g2', group: 'svip' });
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('svip');
    await s.app.ctx.db.updateTable('users').set({ group: 'svip' }).where('id', '=', bob.id).execute();
    try {
      expect((await createOne(bob.client, { name: 'own-group', group: 'svip' })).group).toBe('svip');
    } finally {
      await s.app.ctx.db.updateTable('users').set({ group: 'default' }).where('id', '=', bob.id).execute();
    }
    await s.app.ctx.options.setInternal('UserUsableGroups', JSON.stringify({ default: '默认分组', svip: 'svip分组' }));
    try {
      expect((await createOne(alice.client, { name: 'g3', group: 'svip' })).group).toBe('svip');
      expect((await create(alice.client, { name: 'g4', group: 'vip' })).success).toBe(false);
    } finally {
      await s.app.ctx.options.setInternal('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    }
  });

  it('accepts -1 or a future expiry; refuses past, zero and malformed values', async () => {
    const future = now() + 3600;
    expect((await createOne(alice.client, { name: 'exp', expired_time: future })).expired_time).toBe(future);
    expect(await create(alice.client, { name: 'exp', expired_time: now() - 10 })).toMatchObject({ success: false, message: '过期时间不能早于当前时间' });
    expect(await create(alice.client, { name: 'exp', expired_time: 0 })).toMatchObject({ success: false, message: '过期时间格式错误！' });
    expect(await create(alice.client, { name: 'exp', expired_time: -5 })).toMatchObject({ success: false, message: '过期时间格式错误！' });
    expect(await create(alice.client, { name: 'exp', expired_time: '2030-01-01' })).toMatchObject({ success: false, message: '过期时间格式错误！' });
  });

  it('refuses wrong types with their messages, drops unknown fields and ignores read-only fields of a whole record', async () => {
    const wrongType = await alice.client.post('/api/token/', { name: 'x', remain_quota: '5', colour: 'red' });
    expect(wrongType.body).toMatchObject({ success: false, message: '额度必须是整数' });
    const unknown = await alice.client.post('/api/token/', { name: 'colourful', colour: 'red' });
    expect(unknown.body.success).toBe(true);
    const t = await createOne(alice.client, { name: 'ro' });
    const upd = await alice.client.put('/api/token/', { ...t, key: 'A'.repeat(48), used_quota: 999, status: 2, name: 'ro2' });
    expect(upd.body.success).toBe(true);
    expect(upd.body.data).toMatchObject({ key: t.key, used_quota: 0, status: 1, name: 'ro2' });
  });

  it('lists own tokens newest first in the paged shape (p and size or page_size)', async () => {
    const total = await countTokens(alice.id);
    const first = await alice.client.get('/api/token/?p=0&size=2');
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatchObject({ total, page: 0, page_size: 2 });
    expect(first.body.data.items).toHaveLength(2);
    expect(first.body.data.items[0].id).toBeGreaterThan(first.body.data.items[1].id);
    const second = await alice.client.get('/api/token/?p=1&page_size=2');
    expect(second.body.data).toMatchObject({ total, page: 1, page_size: 2 });
    expect(second.body.data.items[0].id).toBeLessThan(first.body.data.items[1].id);
    const all = await alice.client.get('/api/token/?p=0&size=100');
    expect(all.body.data.items).toHaveLength(total);
    expect(all.body.data.items.every((t: { user_id: number }) => t.user_id === alice.id)).toBe(true);
    const defaults = await alice.client.get('/api/token/');
    expect(defaults.body.data).toMatchObject({ page: 0, page_size: 10 });
  });

  it('searches by name (any case) and by key with or without sk-, wildcards taken literally, paged', async () => {
    const a = await createOne(alice.client, { name: 'Searchable-One' });
    await createOne(alice.client, { name: 'searchable-two' });
    await createOne(alice.client, { name: '100%_real' });
    await createOne(bob.client, { name: 'searchable-bob' });
    const byName = await alice.client.get('/api/token/search?keyword=SEARCHABLE&p=0&size=10');
    expect(byName.body.data.total).toBe(2);
    expect(byName.body.data.items.map((t: { name: string }) => t.name).sort()).toEqual(['Searchable-One', 'searchable-two']);
    const paged = await alice.client.get('/api/token/search?keyword=searchable&p=1&size=1');
    expect(paged.body.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(paged.body.data.items).toHaveLength(1);
    const literal = await alice.client.get(`/api/token/search?keyword=${encodeURIComponent('%_')}`);
    expect(literal.body.data.items.map((t: { name: string }) => t.name)).toEqual(['100%_real']);
    const part = a.key.slice(5, 20);
    for (const token of [`sk-${a.key}`, a.key, part]) {
      const res = await alice.client.get(`/api/token/search?token=${encodeURIComponent(token)}`);
      expect(res.body.data.items.map((t: { id: number }) => t.id)).toEqual([a.id]);
    }
    const bobs = await bob.client.get(`/api/token/search?token=${encodeURIComponent(a.key)}`);
    expect(bobs.body.data).toMatchObject({ total: 0, items: [] });
  });

  it("never lets another user, root included, read or change a user's token", async () => {
    const t = await createOne(alice.client, { name: 'private', remain_quota: 777 });
    const before = await tokenRow(t.id);
    for (const other of [bob.client, root]) {
      expect((await other.get(`/api/token/${t.id}`)).body).toEqual({ success: false, message: 'record not found' });
      const list = await other.get('/api/token/?p=0&size=100');
      expect(list.body.data.items.some((x: { id: number }) => x.id === t.id)).toBe(false);
      expect((await other.put('/api/token/', { id: t.id, name: 'stolen', remain_quota: 1 })).body).toEqual({ success: false, message: 'record not found' });
      expect((await other.put('/api/token/?status_only=true', { id: t.id, status: 2 })).body).toEqual({ success: false, message: 'record not found' });
      expect((await other.delete(`/api/token/${t.id}/`)).body).toEqual({ success: false, message: 'record not found' });
    }
    expect(await tokenRow(t.id)).toEqual(before);
    expect((await alice.client.get(`/api/token/${t.id}`)).body.data.name).toBe('private');
  });

  it('gets one own token; unknown and malformed ids are refused', async () => {
    const t = await createOne(alice.client, { name: 'get-me' });
    const res = await alice.client.get(`/api/token/${t.id}`);
    expect(res.body).toMatchObject({ success: true, data: { id: t.id, name: 'get-me', key: t.key } });
    expect((await alice.client.get('/api/token/99999999')).body).toEqual({ success: false, message: 'record not found' });
    expect((await alice.client.get('/api/token/0')).body).toEqual({ success: false, message: 'id 为空！' });
    expect((await alice.client.get('/api/token/abc')).status).toBe(400);
  });

  it('updates the editable fields without touching the status', async () => {
    const t = await createOne(alice.client, { name: 'edit-me' });
    await alice.client.put('/api/token/?status_only=true', { id: t.id, status: 2 });
    const future = now() + 7200;
    const res = await alice.client.put('/api/token/', {
      id: t.id,
      name: 'edited',
      remain_quota: 42,
      unlimited_quota: true,
      expired_time: future,
      model_limits_enabled: true,
      model_limits: 'a,b',
      allow_ips: '127.0.0.1',
      group: 'vip',
      status: 1,
    });
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      name: 'edited',
      remain_quota: 42,
      unlimited_quota: true,
      expired_time: future,
      model_limits_enabled: true,
      model_limits: 'a,b',
      allow_ips: '127.0.0.1',
      group: 'vip',
      status: 2,
    });
    expect((await alice.client.put('/api/token/', { name: 'no id' })).body).toMatchObject({ success: false, message: 'id 为空！' });
  });

  it('refuses a model limit without a model (400, on the models field), on create and on edit', async () => {
    const refusal = { success: false, message: '请至少选择一个模型！', errors: { model_limits: '请至少选择一个模型！' } };
    const before = await countTokens(alice.id);
    for (const model_limits of [undefined, '', ' , ,']) {
      const res = await alice.client.post('/api/token/', { name: 'no-models', model_limits_enabled: true, model_limits });
      expect({ model_limits, status: res.status, body: res.body }).toEqual({ model_limits, status: 400, body: refusal });
    }
    expect(await countTokens(alice.id)).toBe(before);

    const t = await createOne(alice.client, { name: 'limited', model_limits_enabled: true, model_limits: 'gpt-4o' });
    // Emptying the list while the limit stays on, or turning the limit on over an empty list.
    const emptied = await alice.client.put('/api/token/', { id: t.id, model_limits: '' });
    expect({ status: emptied.status, body: emptied.body }).toEqual({ status: 400, body: refusal });
    const open = await createOne(alice.client, { name: 'open' });
    const switched = await alice.client.put('/api/token/', { id: open.id, model_limits_enabled: true });
    expect({ status: switched.status, body: switched.body }).toEqual({ status: 400, body: refusal });
    expect(await tokenRow(t.id)).toMatchObject({ model_limits: 'gpt-4o' });
    expect(asBool((await tokenRow(open.id)).model_limits_enabled)).toBe(false);

    // Turning the limit off with the list emptied, and renaming, are fine.
    const off = await alice.client.put('/api/token/', { id: t.id, model_limits_enabled: false, model_limits: '' });
    expect(off.body).toMatchObject({ success: true, data: { model_limits_enabled: false, model_limits: '' } });
    expect((await alice.client.put('/api/token/', { id: open.id, name: 'open-renamed' })).body.success).toBe(true);
  });

  it('switches between enabled and disabled only; refuses 3 and 4', async () => {
    const t = await createOne(alice.client, { name: 'toggle' });
    const off = await alice.client.put('/api/token/?status_only=true', { id: t.id, status: 2 });
    expect(off.body).toMatchObject({ success: true, data: { status: 2 } });
    const on = await alice.client.put('/api/token/?status_only=true', { id: t.id, status: 1 });
    expect(on.body).toMatchObject({ success: true, data: { status: 1 } });
    const same = await alice.client.put('/api/token/?status_only=true', { id: t.id, status: 1 });
    expect(same.body).toMatchObject({ success: true, data: { status: 1 } });
    for (const status of [3, 4]) {
      const res = await alice.client.put('/api/token/?status_only=true', { id: t.id, status });
      expect(res.body).toMatchObject({ success: false, message: '令牌状态只能在启用和禁用之间切换' });
    }
    expect((await alice.client.put('/api/token/?status_only=true', { id: t.id, status: 9 })).body).toMatchObject({ success: false, message: '无效的令牌状态' });
    expect((await tokenRow(t.id)).status).toBe(1);
  });

  it('refuses to enable an expired or an exhausted limited token, with the reference messages', async () => {
    const expired = await createOne(alice.client, { name: 'expired', expired_time: now() + 3600 });
    await s.app.ctx.db
      .updateTable('tokens')
      .set({ expired_time: now() - 60, status: 3 })
      .where('id', '=', expired.id)
      .execute();
    expect((await alice.client.put('/api/token/?status_only=true', { id: expired.id, status: 1 })).body).toEqual({
      success: false,
      message: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    });
    const exhausted = await createOne(alice.client, { name: 'exhausted', remain_quota: 5 });
    await s.app.ctx.db.updateTable('tokens').set({ remain_quota: 0, status: 4 }).where('id', '=', exhausted.id).execute();
    expect((await alice.client.put('/api/token/?status_only=true', { id: exhausted.id, status: 1 })).body).toEqual({
      success: false,
      message: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    });
    expect((await tokenRow(expired.id)).status).toBe(3);
    expect((await tokenRow(exhausted.id)).status).toBe(4);
    // Fixing the cause (an edit keeps the status and may keep the past expiry) makes enabling possible.
    const rename = await alice.client.put('/api/token/', { id: expired.id, name: 'renamed', expired_time: Number((await tokenRow(expired.id)).expired_time) });
    expect(rename.body).toMatchObject({ success: true, data: { status: 3, name: 'renamed' } });
    await alice.client.put('/api/token/', { id: expired.id, expired_time: -1 });
    expect((await alice.client.put('/api/token/?status_only=true', { id: expired.id, status: 1 })).body.data.status).toBe(1);
    await alice.client.put('/api/token/', { id: exhausted.id, unlimited_quota: true });
    expect((await alice.client.put('/api/token/?status_only=true', { id: exhausted.id, status: 1 })).body.data.status).toBe(1);
  });

  it('marks enabled tokens expired (3) or exhausted (4) when they are read, and stores it', async () => {
    const e = await createOne(alice.client, { name: 'lazy-expired', expired_time: now() + 3600 });
    const x = await createOne(alice.client, { name: 'lazy-exhausted', remain_quota: 1 });
    const u = await createOne(alice.client, { name: 'lazy-unlimited', remain_quota: 0, unlimited_quota: true });
    await s.app.ctx.db
      .updateTable('tokens')
      .set({ expired_time: now() - 1 })
      .where('id', '=', e.id)
      .execute();
    await s.app.ctx.db.updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', x.id).execute();
    const list = await alice.client.get('/api/token/search?keyword=lazy-');
    const status = Object.fromEntries(list.body.data.items.map((t: { name: string; status: number }) => [t.name, t.status]));
    expect(status).toEqual({ 'lazy-expired': 3, 'lazy-exhausted': 4, 'lazy-unlimited': 1 });
    expect((await tokenRow(e.id)).status).toBe(3);
    expect((await tokenRow(x.id)).status).toBe(4);
    expect((await tokenRow(u.id)).status).toBe(1);
    // The relay's entry point applies the same rule to a row it holds.
    const y = await createOne(alice.client, { name: 'relay-view', remain_quota: 1 });
    const row = { ...(await tokenRow(y.id)), remain_quota: 0 };
    expect(await refreshTokenStatus(s.app.ctx.db, row)).toBe(4);
    expect((await tokenRow(y.id)).status).toBe(4);
  });

  it('soft-deletes an own token: gone from lists and lookups, the row kept', async () => {
    const t = await createOne(alice.client, { name: 'delete-me' });
    expect((await alice.client.delete(`/api/token/${t.id}/`)).body).toEqual({ success: true, message: '' });
    expect((await alice.client.get(`/api/token/${t.id}`)).body.message).toBe('record not found');
    expect((await alice.client.delete(`/api/token/${t.id}`)).body.message).toBe('record not found');
    const list = await alice.client.get('/api/token/search?keyword=delete-me');
    expect(list.body.data.total).toBe(0);
    expect((await tokenRow(t.id)).deleted_at).not.toBeNull();
  });
});
