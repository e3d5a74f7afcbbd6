/**
 * Bad inputs on the console API (issue #12, items 11 and 12) on every database: each gets a
 * 4xx (or, for paging, the documented first page / clamped size) in the envelope shape,
 * never a 500, and nothing is stored.
 *
 * - Paging: every list and search route with absurd, negative, exponent and hexadecimal
 *   `p` and `page_size` (parsePageRequest: anything but a plain page count up to MAX_PAGE is
 *   the first page; sizes are clamped to 1..100, anything not a plain count is 10).
 * - Numbers: option numbers, channel priority and weight, a user's quota, token expiry and
 *   record ids outside what their columns hold.
 * - Text: NUL characters in every text filter and in names and other text of bodies are
 *   refused with 400, as are lone UTF-16 surrogates (which the databases would otherwise
 *   turn into U+FFFD); a well-formed astral character is stored and read back unchanged.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOG_TYPE } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type ApiResponse, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

type Who = 'root' | 'alice';

/** Every list and search route that serves pages, with the role that may call it. */
const PAGED_ROUTES: Array<[Who, string]> = [
  ['root', '/api/user/'],
  ['root', '/api/user/search?keyword=a'],
  ['root', '/api/channel/'],
  ['root', '/api/channel/?tag_mode=true'],
  ['root', '/api/channel/search?keyword=a'],
  ['root', '/api/channel/search?keyword=a&tag_mode=true'],
  ['root', '/api/redemption/'],
  ['root', '/api/redemption/search?keyword=a'],
  ['root', '/api/log/'],
  ['root', '/api/mj/'],
  ['root', '/api/task/'],
  ['alice', '/api/token/'],
  ['alice', '/api/token/search?keyword=a'],
  ['alice', '/api/log/self/'],
  ['alice', '/api/mj/self'],
  ['alice', '/api/task/self'],
];

/** Every text filter of a list, search, stat or dashboard route. */
const TEXT_FILTERS: Array<[Who, string, string]> = [
  ['root', '/api/user/search', 'keyword'],
  ['root', '/api/user/search', 'group'],
  ['root', '/api/channel/search', 'keyword'],
  ['root', '/api/channel/search', 'group'],
  ['root', '/api/channel/search', 'model'],
  ['root', '/api/channel/search?tag_mode=true', 'keyword'],
  ['root', '/api/redemption/search', 'keyword'],
  ['alice', '/api/token/search', 'keyword'],
  ['alice', '/api/token/search', 'token'],
  ...['token_name', 'model_name', 'group', 'username'].flatMap((f): Array<[Who, string, string]> => [
    ['root', '/api/log/', f],
    ['root', '/api/log/stat', f],
  ]),
  ...['token_name', 'model_name', 'group'].flatMap((f): Array<[Who, string, string]> => [
    ['alice', '/api/log/self/', f],
    ['alice', '/api/log/self/stat', f],
  ]),
  ['root', '/api/mj/', 'mj_id'],
  ['alice', '/api/mj/self', 'mj_id'],
  ...['task_id', 'platform', 'status', 'action'].flatMap((f): Array<[Who, string, string]> => [
    ['root', '/api/task/', f],
    ['alice', '/api/task/self', f],
  ]),
  ['root', '/api/data/', 'username'],
  ['root', '/api/channel/test/1', 'model'],
];

const withParam = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describeEachDialect('bad inputs on /api', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let channelId: number;
  const as = (who: Who) => (who === 'root' ? root : alice.client);

  /** A 4xx refusal in the envelope shape. */
  function expectRefused(res: ApiResponse, what: string, message: RegExp | string = /^无效的参数/): void {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    expect(res.body?.success, what).toBe(false);
    if (typeof message === 'string') expect(res.body.message, what).toBe(message);
    else expect(res.body.message, what).toMatch(message);
  }

  const count = async (table: 'users' | 'tokens' | 'channels' | 'redemptions' | 'logs' | 'abilities') =>
    Number(
      (
        await s.app.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    alice = await createUser(s, 'alice');
    const made = await root.post('/api/channel/', { name: 'alpha', key: 'sk-alpha', models: 'gpt-4o', group: 'default', tag: 'tagged', base_url: 'http://127.0.0.1:9' });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    channelId = made.body.data.ids[0];
    expect((await alice.client.post('/api/token/', { name: 'alice-token' })).body.success).toBe(true);
    expect((await root.post('/api/redemption/', { name: 'alpha code', quota: 100 })).body.success).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    await s.app.ctx.db
      .insertInto('logs')
      .values({ user_id: alice.id, username: 'alice', type: LOG_TYPE.consume, created_at: now, token_name: 'alice-token', model_name: 'gpt-4o', quota: 5, channel_id: channelId })
      .execute();
    await s.app.ctx.db
      .insertInto('midjourneys')
      .values({ user_id: alice.id, mj_id: 'mj-1', action: 'IMAGINE', submit_time: now * 1000, channel_id: channelId })
      .execute();
    await s.app.ctx.db.insertInto('tasks').values({ user_id: alice.id, task_id: 'task-1', platform: 'suno', action: 'MUSIC', submit_time: now, channel_id: channelId }).execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('serves the first page for a page number that is not a plain count up to the limit, on every list and search route', async () => {
    for (const [who, path] of PAGED_ROUTES) {
      for (const p of ['1e300', '99999999999999999999', '-1', '0x10', '1e3', '1.5', 'abc', '']) {
        const res = await as(who).get(withParam(path, `p=${encodeURIComponent(p)}`));
        expect(res.status, `${path} p=${p}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.success, `${path} p=${p}`).toBe(true);
        expect(res.body.data, `${path} p=${p}`).toMatchObject({ page: 0, page_size: 10 });
        expect(res.body.data.items.length, `${path} p=${p}`).toBeGreaterThan(0);
      }
      // A plain page past the end is served (empty) as the page asked for.
      const past = await as(who).get(withParam(path, 'p=1000000&page_size=100'));
      expect(past.status, `${path} p=1000000: ${JSON.stringify(past.body)}`).toBe(200);
      expect(past.body.data, path).toMatchObject({ page: 1000000, page_size: 100, items: [] });
    }
  });

  it('clamps page sizes to 1..100 on every list and search route', async () => {
    const sizes: Array<[string, number]> = [
      ['1e9', 10],
      ['99999999999999999999', 100],
      ['5000', 100],
      ['-1', 10],
      ['0', 10],
      ['0x10', 10],
      ['abc', 10],
      ['3', 3],
    ];
    for (const [who, path] of PAGED_ROUTES) {
      for (const [size, served] of sizes) {
        const res = await as(who).get(withParam(path, `p=0&page_size=${size}`));
        expect(res.status, `${path} page_size=${size}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.data, `${path} page_size=${size}`).toMatchObject({ page: 0, page_size: served });
      }
      const both = await as(who).get(withParam(path, 'p=1e300&page_size=1e9'));
      expect(both.status, `${path}: ${JSON.stringify(both.body)}`).toBe(200);
      expect(both.body.data, path).toMatchObject({ page: 0, page_size: 10 });
    }
  });

  it('refuses a NUL character in every text filter with 400', async () => {
    for (const [who, path, param] of TEXT_FILTERS) {
      for (const value of ['a%00b', '%00']) {
        expectRefused(await as(who).get(withParam(path, `${param}=${value}`)), `${path} ${param}=${value}`);
      }
    }
    // Other query text that reaches a query.
    expectRefused(await s.client().get('/api/verification?email=a%00@example.com'), 'verification email');
    expectRefused(await s.client().get('/api/reset_password?email=a%00@example.com'), 'reset email');
    expectRefused(await root.get('/api/user/%00'), 'user id in the path');
  });

  it('refuses NUL characters and lone surrogates in names and other body text with 400, storing nothing', async () => {
    const tables = ['users', 'tokens', 'channels', 'redemptions', 'abilities'] as const;
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    const channelBefore = await root.get(`/api/channel/${channelId}`);
    const optionBefore = s.app.ctx.options.get('Footer');
    const bodies: Array<[Who | 'anonymous', 'post' | 'put', string, (text: string) => unknown]> = [
      ['alice', 'post', '/api/token/', (t) => ({ name: t })],
      ['alice', 'put', '/api/token/', (t) => ({ id: 1, name: t })],
      ['alice', 'put', '/api/token/', (t) => ({ id: 1, group: t })],
      ['alice', 'put', '/api/token/', (t) => ({ id: 1, model_limits: t })],
      ['root', 'post', '/api/channel/', (t) => ({ name: t, key: 'sk-x', models: 'gpt-4o' })],
      ['root', 'post', '/api/channel/', (t) => ({ name: 'ok', key: 'sk-x', models: `gpt-${t}` })],
      ['root', 'post', '/api/channel/', (t) => ({ name: 'ok', key: 'sk-x', models: 'gpt-4o', group: t })],
      ['root', 'post', '/api/channel/', (t) => ({ name: 'ok', key: 'sk-x', models: 'gpt-4o', tag: t })],
      ['root', 'post', '/api/channel/', (t) => ({ name: 'ok', key: t, models: 'gpt-4o' })],
      ['root', 'put', '/api/channel/', (t) => ({ id: channelId, name: t })],
      ['root', 'post', '/api/channel/batch/tag', (t) => ({ ids: [channelId], tag: t })],
      ['root', 'put', '/api/channel/tag', (t) => ({ tag: 'tagged', new_tag: t })],
      ['root', 'post', '/api/channel/tag/disabled', (t) => ({ tag: t })],
      ['root', 'post', '/api/user/', (t) => ({ username: t, password: 'password123' })],
      ['root', 'post', '/api/user/', (t) => ({ username: 'bobby', display_name: t, password: 'password123' })],
      ['root', 'put', '/api/user/', (t) => ({ id: alice.id, display_name: t })],
      ['root', 'put', '/api/user/', (t) => ({ id: alice.id, group: t })],
      ['root', 'put', '/api/user/', (t) => ({ id: alice.id, email: `a${t}@example.com` })],
      ['alice', 'put', '/api/user/self', (t) => ({ display_name: t })],
      ['alice', 'put', '/api/user/setting', (t) => ({ notify_type: 'webhook', webhook_url: `https://example.com/${t}`, webhook_secret: t })],
      ['anonymous', 'post', '/api/user/register', (t) => ({ username: `n${t}`, password: 'password123' })],
      ['anonymous', 'post', '/api/user/login', (t) => ({ username: t, password: 'password123' })],
      ['root', 'post', '/api/redemption/', (t) => ({ name: t, quota: 100 })],
      ['root', 'put', '/api/option/', (t) => ({ key: 'Footer', value: `footer ${t}` })],
      ['root', 'put', '/api/option/', (t) => ({ key: `Footer${t}`, value: 'x' })],
      ['alice', 'post', '/api/user/topup', (t) => ({ key: t })],
    ];
    for (const text of ['a\u0000b', 'a\ud800b', '\udc00']) {
      for (const [who, method, path, body] of bodies) {
        const client = who === 'anonymous' ? s.client() : as(who);
        const res = await client[method](path, body(text));
        expectRefused(res, `${method} ${path} ${JSON.stringify(body(text))}`);
      }
    }
    // Lone surrogates as the JSON escape itself (what a client library sends).
    expectRefused(await alice.client.post('/api/token/', '{"name":"x\\ud800"}'), 'escaped lone surrogate');
    const after = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    expect(after).toEqual(before);
    expect((await root.get(`/api/channel/${channelId}`)).body).toEqual(channelBefore.body);
    expect(s.app.ctx.options.get('Footer')).toBe(optionBefore);
    const self = await alice.client.get('/api/user/self');
    expect(self.body.data).toMatchObject({ display_name: 'alice', group: 'default' });
  });

  it('stores a well-formed astral character and reads it back unchanged', async () => {
    const name = 'emoji 😀 名';
    const made = await alice.client.post('/api/token/', { name });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    const found = await alice.client.get(`/api/token/search?keyword=${encodeURIComponent('😀')}`);
    expect(found.body.data.items.map((t: { name: string }) => t.name)).toContain(name);
  });

  it('refuses option numbers that are not plain decimal integers in a safe range, and registration keeps working', async () => {
    const refused = ['9223372036854775807', '9007199254740992', '0x10', '1e3', '1.0', '+5', ' 5', '5 ', 'Infinity', '-0x1', '１２'];
    for (const value of refused) {
      const res = await root.put('/api/option/', { key: 'QuotaForNewUser', value });
      expectRefused(res, `QuotaForNewUser=${value}`, /^输入不合法 QuotaForNewUser: /);
    }
    for (const [key, value] of [
      ['PreConsumedQuota', '1e3'],
      ['RetryTimes', '0x2'],
      ['SMTPPort', '5.870e2'],
      ['QuotaPerUnit', '0x10'],
      ['QuotaPerUnit', '1e400'],
      ['Price', 'Infinity'],
    ] as const) {
      expectRefused(await root.put('/api/option/', { key, value }), `${key}=${value}`, new RegExp(`^输入不合法 ${key.replace('.', '\\.')}: `));
    }
    expect(s.app.ctx.options.get('QuotaForNewUser')).toBe('0');
    expect(s.app.ctx.options.get('PreConsumedQuota')).toBe('500');
    // The largest safe value is accepted and a registration still succeeds with it.
    expect((await root.put('/api/option/', { key: 'QuotaForNewUser', value: '9007199254740991' })).body.success).toBe(true);
    expect((await root.put('/api/option/', { key: 'Price', value: '7.5' })).body.success).toBe(true);
    const reg = await s.client().post('/api/user/register', { username: 'newbie', password: 'password123' });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body.success, JSON.stringify(reg.body)).toBe(true);
    const row = await s.app.ctx.db.selectFrom('users').select('quota').where('username', '=', 'newbie').executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(9007199254740991);
    expect((await root.put('/api/option/', { key: 'QuotaForNewUser', value: '0' })).body.success).toBe(true);
  });

  it('refuses channel priority and weight outside their columns with 400, storing nothing', async () => {
    const before = await count('channels');
    const abilities = await count('abilities');
    const stored = (await root.get(`/api/channel/${channelId}`)).body.data;
    for (const [field, value] of [
      ['priority', 2 ** 53],
      ['priority', 2 ** 63],
      ['priority', -(2 ** 63)],
      ['weight', 2 ** 31],
      ['weight', 2 ** 53],
      ['weight', 2 ** 63],
    ] as const) {
      const what = `${field}=${value}`;
      expectRefused(await root.post('/api/channel/', { name: 'big', key: 'sk-big', models: 'gpt-4o', [field]: value }), `create ${what}`);
      expectRefused(await root.put('/api/channel/', { id: channelId, [field]: value }), `update ${what}`);
      expectRefused(await root.put('/api/channel/tag', { tag: 'tagged', [field]: value }), `tag edit ${what}`);
      // The JSON text itself (2^63 has no exact double; the parser reads the nearest).
      const raw = `{"name":"big","key":"sk-big","models":"gpt-4o","${field}":${BigInt(value).toString()}}`;
      expectRefused(await root.post('/api/channel/', raw), `create raw ${what}`);
    }
    expect(await count('channels')).toBe(before);
    expect(await count('abilities')).toBe(abilities);
    expect((await root.get(`/api/channel/${channelId}`)).body.data).toEqual(stored);
    // The largest values the columns hold are accepted and read back exactly.
    const ok = await root.put('/api/channel/', { id: channelId, priority: Number.MAX_SAFE_INTEGER, weight: 2 ** 31 - 1 });
    expect(ok.body.success, JSON.stringify(ok.body)).toBe(true);
    expect((await root.get(`/api/channel/${channelId}`)).body.data).toMatchObject({ priority: Number.MAX_SAFE_INTEGER, weight: 2 ** 31 - 1 });
    expect((await root.put('/api/channel/', { id: channelId, priority: 0, weight: 0 })).body.success).toBe(true);
  });

  it('refuses a negative user quota set by an administrator', async () => {
    const quota = async () => Number((await s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', alice.id).executeTakeFirstOrThrow()).quota);
    const logs = await count('logs');
    const before = await quota();
    for (const value of [-1, -(2 ** 53), 2 ** 53, 2 ** 63, 1.5]) {
      expectRefused(await root.put('/api/user/', { id: alice.id, quota: value }), `quota=${value}`);
    }
    expect(await quota()).toBe(before);
    expect(await count('logs')).toBe(logs);
    expect((await root.put('/api/user/', { id: alice.id, quota: 0 })).body.success).toBe(true);
  });

  it('refuses numbers beyond their columns in other bodies and paths with 4xx', async () => {
    const tokens = await count('tokens');
    expectRefused(await alice.client.post('/api/token/', { name: 'far', expired_time: 2 ** 63 }), 'token expiry 2^63');
    expectRefused(await alice.client.post('/api/token/', { name: 'far', expired_time: 2 ** 53 }), 'token expiry 2^53');
    expect(await count('tokens')).toBe(tokens);
    for (const path of ['/api/token/99999999999', '/api/channel/99999999999', '/api/redemption/99999999999', '/api/user/99999999999']) {
      const res = await (path.startsWith('/api/token') ? alice.client : root).get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect(res.body.success, path).toBe(false);
    }
    for (const body of [
      { id: 2 ** 31, quota: 5 },
      { id: 2 ** 53, display_name: 'x' },
    ]) {
      const res = await root.put('/api/user/', body);
      expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect(res.body.success).toBe(false);
    }
    const manage = await root.post('/api/user/manage', { id: 2 ** 31, action: 'disable' });
    expect(manage.status, JSON.stringify(manage.body)).toBeLessThan(500);
    expect(manage.body.success).toBe(false);
    const del = await root.post('/api/channel/batch', { ids: [2 ** 31] });
    expect(del.status, JSON.stringify(del.body)).toBeLessThan(500);
  });

  it('answers numeric filters and keywords beyond an integer column without a 500', async () => {
    const big = '99999999999';
    // Whole-number filters of integer columns: refused.
    for (const [who, path, param] of [
      ['root', '/api/log/', 'channel'],
      ['root', '/api/log/', 'type'],
      ['root', '/api/log/stat', 'channel'],
      ['alice', '/api/log/self/', 'type'],
      ['root', '/api/mj/', 'channel_id'],
      ['root', '/api/task/', 'channel_id'],
    ] as const) {
      expectRefused(await as(who).get(withParam(path, `${param}=${big}`)), `${path} ${param}=${big}`);
    }
    // Search keywords are text: a long number matches no id, and is served.
    for (const [who, path] of [
      ['root', '/api/redemption/search'],
      ['root', '/api/channel/search'],
      ['root', '/api/user/search'],
      ['alice', '/api/token/search'],
    ] as const) {
      const res = await as(who).get(`${path}?keyword=${big}`);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.items, path).toEqual([]);
    }
  });
});
