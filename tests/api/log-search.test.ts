/**
 * The log routes the reference offers beside the lists (issue #13, item 4;
 * docs/logs.md#search): GET /api/log/search (administrators: type or content prefix),
 * GET /api/log/self/search (a user's own logs of a type) and the public usage lookup
 * GET /api/log/token (the logs of the token whose key is presented, without a session; the
 * key in `Authorization` or in `?key=`), all paged by one rule (docs/console-api.md#paging): `p` from 0 and
 * `{items, total, page, page_size}`. The lookup sits in the critical rate limit, answers any
 * origin, and never repeats the key.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { NewLog } from '../../src/server/db/tables';
import { LOG_TYPE } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { insertChannel } from '../helpers/channels';
import { createUser, type TestUser } from '../helpers/users';

const FORBIDDEN = { success: false, message: '无权进行此操作，权限不足' };
const NOT_LOGGED_IN = { success: false, message: '无权进行此操作，未登录且未提供 access token' };

/** 48 characters, as stored (shown to users with an sk- prefix). */
const keyOf = (c: string) => c.repeat(48);
const KEY_A = keyOf('a');
const KEY_B = keyOf('b');
const KEY_C = keyOf('c');
const KEY_DELETED = keyOf('d');
const KEY_UNKNOWN = keyOf('z');

interface Page {
  items: Array<Record<string, any>>;
  total: number;
  page: number;
  page_size: number;
}

describeEachDialect('log search and the token usage lookup', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let bob: TestUser;
  let channel = 0;
  const now = Math.floor(Date.now() / 1000);
  /** Token ids by key. */
  const tokens = new Map<string, number>();
  /** Log ids by name (see the seeding below). */
  const log: Record<string, number> = {};

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    const { db } = s.app.ctx;
    channel = (await insertChannel(db, { name: 'alpha', key: 'sk-secret-of-alpha' })).id;
    const tokenRows = [
      { key: KEY_A, user_id: alice.id, name: 'tok-a', status: 1 },
      // Disabled: its owner may still read its usage with the key.
      { key: KEY_B, user_id: alice.id, name: 'tok-b', status: 2 },
      { key: KEY_C, user_id: bob.id, name: 'tok-c', status: 1 },
      { key: KEY_DELETED, user_id: alice.id, name: 'tok-d', status: 1, deleted_at: new Date().toISOString().slice(0, 19).replace('T', ' ') },
    ];
    for (const row of tokenRows)
      await db
        .insertInto('tokens')
        .values({ deleted_at: null, ...row })
        .execute();
    for (const t of await db.selectFrom('tokens').select(['id', 'key']).execute()) tokens.set(t.key, t.id);

    await db.deleteFrom('logs').execute();
    const other = JSON.stringify({ model_ratio: 1, group_ratio: 1, admin_info: { use_channel: [String(channel)] } });
    const rows: Array<[string, 'alice' | 'bob', Omit<NewLog, 'user_id' | 'username'>]> = [
      [
        'bobConsume',
        'bob',
        {
          type: LOG_TYPE.consume,
          created_at: now - 2 * 86400,
          token_id: tokens.get(KEY_C)!,
          token_name: 'tok-c',
          model_name: 'claude-3-opus',
          content: '模型倍率 2，补全倍率 1，分组倍率 1',
          quota: 500,
          channel_id: channel,
          other,
        },
      ],
      ['aliceTopup', 'alice', { type: LOG_TYPE.topup, created_at: now - 7200, content: '通过兑换码充值 ＄1.000000 额度，兑换码ID 1' }],
      [
        'aliceOld',
        'alice',
        {
          type: LOG_TYPE.consume,
          created_at: now - 3600,
          token_id: tokens.get(KEY_A)!,
          token_name: 'tok-a',
          model_name: 'gpt-4o',
          content: '模型倍率 1，补全倍率 1，分组倍率 1',
          quota: 300,
          channel_id: channel,
          other,
        },
      ],
      ['bobManage', 'bob', { type: LOG_TYPE.manage, created_at: now - 100, content: '管理员将用户额度从 0 点额度修改为 10 点额度' }],
      [
        'aliceDisabledToken',
        'alice',
        {
          type: LOG_TYPE.consume,
          created_at: now - 30,
          token_id: tokens.get(KEY_B)!,
          token_name: 'tok-b',
          model_name: 'gpt-4o-mini',
          content: '模型倍率 1，补全倍率 1，分组倍率 1',
          quota: 200,
          channel_id: channel,
          other,
        },
      ],
      [
        'aliceNew',
        'alice',
        {
          type: LOG_TYPE.consume,
          created_at: now - 10,
          token_id: tokens.get(KEY_A)!,
          token_name: 'tok-a',
          model_name: 'gpt-4o-mini',
          content: '模型倍率 1，补全倍率 1，分组倍率 1',
          quota: 100,
          channel_id: channel,
          other,
          group: 'vip',
        },
      ],
      ['bobSystem', 'bob', { type: LOG_TYPE.system, created_at: now - 8, content: '2 倍奖励' }],
      ['literal', 'alice', { type: LOG_TYPE.system, created_at: now - 6, content: 'a_b%c 字面' }],
      ['wildcardBait', 'alice', { type: LOG_TYPE.system, created_at: now - 4, content: 'axbyc 通配' }],
    ];
    for (const [name, who, row] of rows) {
      const user = who === 'alice' ? alice : bob;
      await db
        .insertInto('logs')
        .values({ ...row, user_id: user.id, username: user.username })
        .execute();
      log[name] = (await db.selectFrom('logs').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const page = async (client: ApiClient, path: string, headers?: Record<string, string>): Promise<Page> => {
    const res = await client.get(path, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    return res.body.data as Page;
  };
  /** Log ids, newest first. */
  const names = (...list: string[]) => list.map((n) => log[n]);
  const idsOf = (p: Page) => p.items.map((i) => i.id);
  const everyLog = () => Object.keys(log).sort((a, b) => log[b]! - log[a]!);

  it('admin search: without a keyword every log, paged from p=0', async () => {
    const all = await page(root, '/api/log/search');
    expect(all).toMatchObject({ total: 9, page: 0, page_size: 10 });
    expect(idsOf(all)).toEqual(names(...everyLog()));
    const second = await page(root, '/api/log/search?p=1&page_size=4');
    expect(second).toMatchObject({ total: 9, page: 1, page_size: 4 });
    expect(idsOf(second)).toEqual(names(...everyLog().slice(4, 8)));
  });

  it('admin search: content starting with the keyword, taken literally', async () => {
    expect(idsOf(await page(root, '/api/log/search?keyword=' + encodeURIComponent('通过兑换码')))).toEqual(names('aliceTopup'));
    // A prefix, not a substring.
    expect(await page(root, '/api/log/search?keyword=' + encodeURIComponent('兑换码'))).toMatchObject({ items: [], total: 0 });
    // LIKE wildcards in the keyword are plain characters.
    expect(idsOf(await page(root, '/api/log/search?keyword=' + encodeURIComponent('a_b%')))).toEqual(names('literal'));
  });

  it('admin search: a number matches the type or the start of the content; pages keep their rule', async () => {
    const consume = ['aliceNew', 'aliceDisabledToken', 'aliceOld', 'bobConsume'];
    const found = await page(root, '/api/log/search?keyword=2');
    expect(idsOf(found)).toEqual(names('bobSystem', ...consume));
    expect(found.total).toBe(5);
    const p1 = await page(root, '/api/log/search?keyword=2&p=1&page_size=2');
    expect(p1).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(idsOf(p1)).toEqual(names(...consume.slice(1, 3)));
    // Administrators see channel names and what each request tried.
    const newest = found.items.find((i) => i.id === log.aliceNew)!;
    expect(newest).toMatchObject({ channel, channel_name: 'alpha', username: 'alice', token_name: 'tok-a' });
    expect(JSON.parse(newest.other).admin_info).toEqual({ use_channel: [String(channel)] });
  });

  it('admin search is for administrators', async () => {
    expect((await alice.client.get('/api/log/search?keyword=2')).body).toEqual(FORBIDDEN);
    const anonymous = await s.client().get('/api/log/search?keyword=2');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(NOT_LOGGED_IN);
  });

  it('self search: the caller’s own logs of the type the keyword names, sanitised', async () => {
    const found = await page(alice.client, '/api/log/self/search?keyword=2');
    expect(found).toMatchObject({ total: 3, page: 0, page_size: 10 });
    expect(idsOf(found)).toEqual(names('aliceNew', 'aliceDisabledToken', 'aliceOld'));
    for (const item of found.items) {
      expect(item).toMatchObject({ user_id: alice.id, channel: 0, channel_name: '' });
      expect(JSON.parse(item.other)).not.toHaveProperty('admin_info');
    }
    const p1 = await page(alice.client, '/api/log/self/search?keyword=2&p=1&page_size=2');
    expect(p1).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(idsOf(p1)).toEqual(names('aliceOld'));
    // Another user's logs of that type stay out; so do administrators' own searches.
    expect(idsOf(await page(bob.client, '/api/log/self/search?keyword=2'))).toEqual(names('bobConsume'));
    expect(await page(root, '/api/log/self/search?keyword=2')).toMatchObject({ items: [], total: 0 });
  });

  it('self search: no keyword lists every own log; a keyword that names no type finds nothing', async () => {
    const all = await page(alice.client, '/api/log/self/search');
    expect(idsOf(all)).toEqual(names('wildcardBait', 'literal', 'aliceNew', 'aliceDisabledToken', 'aliceOld', 'aliceTopup'));
    expect(await page(alice.client, '/api/log/self/search?keyword=' + encodeURIComponent('通过兑换码'))).toEqual({ items: [], total: 0, page: 0, page_size: 10 });
    expect(idsOf(await page(alice.client, '/api/log/self/search?keyword=1'))).toEqual(names('aliceTopup'));
    const anonymous = await s.client().get('/api/log/self/search?keyword=2');
    expect(anonymous.status).toBe(401);
  });

  it('token lookup: the logs of the token with the key, without a session, as its owner sees them', async () => {
    const anonymous = s.client();
    const byHeader = await page(anonymous, '/api/log/token', { Authorization: `Bearer sk-${KEY_A}` });
    expect(byHeader).toMatchObject({ total: 2, page: 0, page_size: 10 });
    expect(idsOf(byHeader)).toEqual(names('aliceNew', 'aliceOld'));
    for (const item of byHeader.items) {
      expect(item).toMatchObject({ user_id: alice.id, token_name: 'tok-a', channel: 0, channel_name: '' });
      expect(JSON.parse(item.other)).not.toHaveProperty('admin_info');
    }
    // The reference's clients send the key in the address; with or without sk-, with an
    // administrator's channel suffix.
    for (const key of [`sk-${KEY_A}`, KEY_A, `sk-${KEY_A}-${channel}`]) {
      expect(idsOf(await page(anonymous, `/api/log/token?key=${encodeURIComponent(key)}`)), key).toEqual(names('aliceNew', 'aliceOld'));
    }
    // A disabled token still reads its usage.
    expect(idsOf(await page(anonymous, `/api/log/token?key=sk-${KEY_B}`))).toEqual(names('aliceDisabledToken'));
    expect(idsOf(await page(anonymous, `/api/log/token?key=sk-${KEY_C}`))).toEqual(names('bobConsume'));
    for (const p of [byHeader]) expect(JSON.stringify(p)).not.toContain(KEY_A);
  });

  it('token lookup: filters and paging', async () => {
    const anonymous = s.client();
    const q = (query: string) => page(anonymous, `/api/log/token?key=sk-${KEY_A}&${query}`);
    expect(idsOf(await q('model_name=gpt-4o-mini'))).toEqual(names('aliceNew'));
    expect(idsOf(await q(`start_timestamp=${now - 60}`))).toEqual(names('aliceNew'));
    expect(idsOf(await q(`end_timestamp=${now - 60}`))).toEqual(names('aliceOld'));
    expect(idsOf(await q('group=vip'))).toEqual(names('aliceNew'));
    expect(await q('type=1')).toMatchObject({ items: [], total: 0 });
    const second = await q('p=1&page_size=1');
    expect(second).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(idsOf(second)).toEqual(names('aliceOld'));
  });

  it('token lookup: a wrong, missing or deleted key is refused without repeating it', async () => {
    const anonymous = s.client();
    for (const path of [`/api/log/token?key=sk-${KEY_UNKNOWN}`, `/api/log/token?key=sk-${KEY_DELETED}`, `/api/log/token?key=${'q'.repeat(300)}`]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ success: false, message: '无效的令牌' });
    }
    const wrongHeader = await anonymous.get('/api/log/token', { Authorization: `Bearer sk-${KEY_UNKNOWN}` });
    expect(wrongHeader.status).toBe(401);
    expect(JSON.stringify(wrongHeader.body)).not.toContain(KEY_UNKNOWN);
    for (const path of ['/api/log/token', '/api/log/token?key=', '/api/log/token?key=sk-']) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ success: false, message: '未提供令牌' });
    }
  });

  it('token lookup: the key decides, not a session; a banned owner reads nothing', async () => {
    // Bob's session does not widen or narrow what Alice's key reads.
    expect(idsOf(await page(bob.client, `/api/log/token?key=sk-${KEY_A}`))).toEqual(names('aliceNew', 'aliceOld'));
    await s.app.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', bob.id).execute();
    try {
      const res = await s.client().get(`/api/log/token?key=sk-${KEY_C}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: '用户已被封禁' });
    } finally {
      await s.app.ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', bob.id).execute();
    }
  });

  it('token lookup: any origin may read it (no credentials), and the preflight allows Authorization', async () => {
    const res = await s.client().get(`/api/log/token?key=sk-${KEY_A}`, { Origin: 'https://usage.example.com' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await fetch(`${s.url}/api/log/token`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://usage.example.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    // The console's own routes stay same-origin.
    expect((await root.get('/api/log/search', { Origin: 'https://usage.example.com' })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('token lookup: in the critical rate limit shared with sign-in', async () => {
    const limited = await startTestServer(dialect, { env: { CRITICAL_RATE_LIMIT_ENABLE: 'true', CRITICAL_RATE_LIMIT: '3', CRITICAL_RATE_LIMIT_DURATION: '1200' } });
    try {
      const anonymous = limited.client();
      for (let i = 0; i < 3; i++) expect((await anonymous.get(`/api/log/token?key=sk-${KEY_UNKNOWN}`)).status).toBe(401);
      const refused = await anonymous.get(`/api/log/token?key=sk-${KEY_UNKNOWN}`);
      expect(refused.status).toBe(429);
      expect(JSON.stringify(refused.body)).not.toContain(KEY_UNKNOWN);
      // One bucket: sign-in from that address waits too.
      expect((await anonymous.post('/api/user/login', { username: 'root', password: '123456' })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
