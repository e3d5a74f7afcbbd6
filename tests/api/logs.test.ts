/** Usage logs: admin and self lists with every filter, stats, clean-up, and self isolation. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { NewLog } from '../../src/server/db/tables';
import { LOG_TYPE } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { insertChannel } from '../helpers/channels';
import { createUser, type TestUser } from '../helpers/users';

const FORBIDDEN = { success: false, message: '无权进行此操作，权限不足' };

describeEachDialect('usage logs API', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let bob: TestUser;
  let alpha: number;
  let beta: number;
  // Set when the suite starts: rpm/tpm look at the 60 seconds before the request.
  let now = 0;
  let seeds: Seed[] = [];

  type Seed = Omit<NewLog, 'user_id' | 'username'> & { who: 'alice' | 'bob' };
  /** Oldest first; ids grow in this order. */
  const makeSeeds = (): Seed[] => [
    { who: 'bob', type: LOG_TYPE.consume, created_at: now - 2 * 86400, token_name: 'tok-c', model_name: 'claude-3-opus', quota: 500, prompt_tokens: 1, completion_tokens: 1, group: 'vip' },
    { who: 'alice', type: LOG_TYPE.topup, created_at: now - 7200, content: '通过兑换码充值 ＄1.000000 额度，兑换码ID 1' },
    { who: 'alice', type: LOG_TYPE.consume, created_at: now - 3600, token_name: 'tok-b', model_name: 'gpt-4o', quota: 300, prompt_tokens: 100, completion_tokens: 100, group: 'default' },
    { who: 'bob', type: LOG_TYPE.manage, created_at: now - 100, content: '管理员将用户额度从 0 点额度修改为 10 点额度' },
    { who: 'alice', type: LOG_TYPE.consume, created_at: now - 30, token_name: 'tok-a', model_name: 'gpt-4o-mini', quota: 200, prompt_tokens: 5, completion_tokens: 5, group: 'vip' },
    { who: 'bob', type: LOG_TYPE.consume, created_at: now - 20, token_name: 'tok-c', model_name: 'gpt-4o', quota: 400, prompt_tokens: 50, completion_tokens: 50, group: 'default' },
    { who: 'alice', type: LOG_TYPE.consume, created_at: now - 10, token_name: 'tok-a', model_name: 'gpt-4o', quota: 100, prompt_tokens: 10, completion_tokens: 20, group: 'default', is_stream: true },
  ];
  let ids: number[] = [];

  const list = async (client: ApiClient, path: string) => {
    const res = await client.get(path);
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    return res.body.data as { items: any[]; total: number; page: number; page_size: number };
  };
  const idsOf = (items: { id: number }[]) => items.map((i) => i.id);
  /** Seed ids (newest first) of the rows matching `pick`. */
  const expected = (pick: (row: Seed, index: number) => boolean) =>
    seeds
      .map((row, i) => ({ row, i, id: ids[i]! }))
      .filter(({ row, i }) => pick(row, i))
      .map(({ id }) => id)
      .reverse();
  /** The channel each seed row was written with (consume rows alternate alpha/beta). */
  const channelOf = (i: number) => (seeds[i]!.type === LOG_TYPE.consume ? (i % 2 === 0 ? alpha : beta) : 0);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    now = Math.floor(Date.now() / 1000);
    seeds = makeSeeds();
    root = await s.root();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    const { db } = s.app.ctx;
    for (const name of ['alpha', 'beta']) await insertChannel(db, { name, key: `sk-secret-of-${name}` });
    const channels = await db.selectFrom('channels').select(['id', 'name']).orderBy('id').execute();
    alpha = channels[0]!.id;
    beta = channels[1]!.id;
    await db.deleteFrom('logs').execute();
    for (const [i, { who, ...row }] of seeds.entries()) {
      const user = who === 'alice' ? alice : bob;
      const channel = channelOf(i);
      const other = row.type === LOG_TYPE.consume ? JSON.stringify({ model_ratio: 1.25, group_ratio: 1, frt: 320, admin_info: { use_channel: [String(channel)] } }) : '';
      await db
        .insertInto('logs')
        .values({ ...row, user_id: user.id, username: user.username, channel_id: channel, other })
        .execute();
    }
    ids = (await db.selectFrom('logs').select('id').orderBy('id').execute()).map((r) => r.id);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists every log for an administrator, newest first, paged from p=0', async () => {
    const all = await list(root, '/api/log/');
    expect(all).toMatchObject({ total: 7, page: 0, page_size: 10 });
    expect(idsOf(all.items)).toEqual([...ids].reverse());
    const second = await list(root, '/api/log/?p=1&page_size=3');
    expect(second).toMatchObject({ total: 7, page: 1, page_size: 3 });
    expect(idsOf(second.items)).toEqual([...ids].reverse().slice(3, 6));
    const last = await list(root, '/api/log/?p=2&page_size=3');
    expect(idsOf(last.items)).toEqual([ids[0]]);
  });

  it('returns each row with channel id and name, a boolean stream flag and other as stored text', async () => {
    const res = await root.get('/api/log/?page_size=100');
    const newest = res.body.data.items[0];
    expect(newest).toMatchObject({
      id: ids[6],
      user_id: alice.id,
      username: 'alice',
      type: LOG_TYPE.consume,
      token_name: 'tok-a',
      model_name: 'gpt-4o',
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 20,
      is_stream: true,
      channel: alpha,
      channel_name: 'alpha',
      group: 'default',
      created_at: now - 10,
    });
    expect(newest).not.toHaveProperty('channel_id');
    expect(typeof newest.other).toBe('string');
    expect(JSON.parse(newest.other).admin_info).toEqual({ use_channel: [String(alpha)] });
    const topup = res.body.data.items.find((i: { type: number }) => i.type === LOG_TYPE.topup);
    expect(topup).toMatchObject({ channel: 0, channel_name: '', other: '', is_stream: false });
    expect(JSON.stringify(res.body)).not.toContain('sk-secret');
  });

  it('applies each admin filter alone', async () => {
    const cases: [string, (r: Seed, i: number) => boolean][] = [
      ['type=2', (r) => r.type === LOG_TYPE.consume],
      ['type=0', () => true],
      ['username=bob', (r) => r.who === 'bob'],
      ['token_name=tok-a', (r) => r.token_name === 'tok-a'],
      ['model_name=gpt-4o', (r) => r.model_name === 'gpt-4o'],
      ['model_name=gpt-4o%25', (r) => String(r.model_name ?? '').startsWith('gpt-4o')],
      [`start_timestamp=${now - 3600}`, (r) => r.created_at >= now - 3600],
      [`end_timestamp=${now - 3600}`, (r) => r.created_at <= now - 3600],
      [`channel=${beta}`, (_r, i) => channelOf(i) === beta],
      ['group=vip', (r) => r.group === 'vip'],
      ['channel=0&start_timestamp=0&end_timestamp=', () => true],
    ];
    for (const [query, pick] of cases) {
      const page = await list(root, `/api/log/?page_size=100&${query}`);
      const want = expected(pick);
      expect(idsOf(page.items), query).toEqual(want);
      expect(page.total, query).toBe(want.length);
    }
  });

  it('filters by channel id', async () => {
    const page = await list(root, `/api/log/?channel=${alpha}`);
    expect(page.total).toBeGreaterThan(0);
    for (const item of page.items) expect(item).toMatchObject({ channel: alpha, channel_name: 'alpha' });
  });

  it('combines admin filters', async () => {
    const page = await list(root, `/api/log/?username=alice&model_name=gpt-4o&group=default&type=2`);
    expect(idsOf(page.items)).toEqual([ids[6], ids[2]]);
    const recent = await list(root, `/api/log/?username=alice&model_name=gpt-4o&start_timestamp=${now - 60}&end_timestamp=${now}`);
    expect(idsOf(recent.items)).toEqual([ids[6]]);
    const none = await list(root, `/api/log/?username=alice&token_name=tok-c`);
    expect(none).toMatchObject({ total: 0, items: [] });
  });

  it('binds text filters as parameters', async () => {
    const page = await list(root, `/api/log/?username=${encodeURIComponent("alice' OR '1'='1")}`);
    expect(page.total).toBe(0);
    const pattern = await list(root, `/api/log/?token_name=${encodeURIComponent('%')}`);
    expect(pattern.total).toBe(0);
  });

  it('shows a user only their own logs, whatever filters they pass', async () => {
    const own = await list(alice.client, '/api/log/self/?page_size=100');
    expect(idsOf(own.items)).toEqual(expected((r) => r.who === 'alice'));
    const sneaky = await list(alice.client, `/api/log/self/?username=bob&user_id=${bob.id}&channel=${alpha}&page_size=100`);
    expect(idsOf(sneaky.items)).toEqual(expected((r) => r.who === 'alice'));
    const tokC = await list(alice.client, '/api/log/self/?token_name=tok-c');
    expect(tokC.total).toBe(0);
    const bobs = await list(bob.client, '/api/log/self/?page_size=100');
    expect(idsOf(bobs.items)).toEqual(expected((r) => r.who === 'bob'));
    for (const item of [...own.items, ...sneaky.items]) expect(item.user_id).toBe(alice.id);
  });

  it('applies the self filters and paging', async () => {
    const consume = await list(alice.client, '/api/log/self/?type=2&model_name=gpt-4o');
    expect(idsOf(consume.items)).toEqual([ids[6], ids[2]]);
    const timed = await list(alice.client, `/api/log/self/?start_timestamp=${now - 4000}&end_timestamp=${now - 20}&group=vip`);
    expect(idsOf(timed.items)).toEqual([ids[4]]);
    const paged = await list(alice.client, '/api/log/self/?p=1&page_size=3');
    expect(paged).toMatchObject({ total: 4, page: 1, page_size: 3 });
    expect(idsOf(paged.items)).toEqual([ids[1]]);
  });

  it('hides channel details from users', async () => {
    const own = await list(alice.client, '/api/log/self/?type=2');
    for (const item of own.items) {
      expect(item).toMatchObject({ channel: 0, channel_name: '' });
      const other = JSON.parse(item.other);
      expect(other).not.toHaveProperty('admin_info');
      expect(other).toMatchObject({ model_ratio: 1.25, frt: 320 });
    }
  });

  it('refuses the admin endpoints to a common user', async () => {
    for (const path of ['/api/log/', '/api/log/?username=alice', '/api/log/stat']) {
      expect((await alice.client.get(path)).body).toEqual(FORBIDDEN);
    }
    expect((await alice.client.delete(`/api/log/?target_timestamp=${now}`)).body).toEqual(FORBIDDEN);
    expect(await s.app.ctx.db.selectFrom('logs').select('id').execute()).toHaveLength(7);
  });

  it('requires a login for the self endpoints', async () => {
    const res = await s.client().get('/api/log/self/');
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it('rejects malformed filters with a clear message', async () => {
    for (const query of ['type=1.5', 'start_timestamp=1.5', 'channel=1e3', 'end_timestamp=-2.0']) {
      const res = await root.get(`/api/log/?${query}`);
      expect(res.body.success, query).toBe(false);
      expect(res.body.message, query).toMatch(/^无效的参数/);
    }
    // Text that is no number at all is a filter not given (the reference's console sends NaN for an empty date).
    const unfiltered = (await root.get('/api/log/?page_size=100')).body.data.total;
    for (const query of ['type=abc', 'channel=x', 'start_timestamp=NaN&end_timestamp=NaN', 'type=&channel=']) {
      const res = await root.get(`/api/log/?page_size=100&${query}`);
      expect(res.body.success, query).toBe(true);
      expect(res.body.data.total, query).toBe(unfiltered);
    }
    // Paging is never refused: like every list, a page that is not a plain count is the first (parsePageRequest).
    expect((await root.get('/api/log/?p=one')).body.data).toMatchObject({ page: 0, page_size: 10 });
    const repeated = await root.get('/api/log/?type=1&type=2');
    expect(repeated.body.success).toBe(false);
  });

  it('sums quota over the filter and counts rpm/tpm over the last minute', async () => {
    const all = await root.get('/api/log/stat');
    expect(all.body).toEqual({ success: true, message: '', data: { quota: 1500, rpm: 3, tpm: 30 + 10 + 100 } });
    const alices = await root.get('/api/log/stat?username=alice');
    expect(alices.body.data).toEqual({ quota: 600, rpm: 2, tpm: 40 });
    // The time range narrows the quota only; rpm/tpm always cover the last 60 seconds.
    const ranged = await root.get(`/api/log/stat?start_timestamp=${now - 4000}&end_timestamp=${now - 25}`);
    expect(ranged.body.data).toEqual({ quota: 300 + 200, rpm: 3, tpm: 140 });
    const byModel = await root.get('/api/log/stat?model_name=gpt-4o&type=1');
    expect(byModel.body.data).toEqual({ quota: 800, rpm: 2, tpm: 130 });
    const byChannel = await root.get(`/api/log/stat?channel=${alpha}`);
    expect(byChannel.body.data.quota).toBe(500 + 300 + 200 + 100);
  });

  it('gives a user the stats of their own logs only', async () => {
    const own = await alice.client.get('/api/log/self/stat');
    expect(own.body.data).toEqual({ quota: 600, rpm: 2, tpm: 40 });
    const sneaky = await alice.client.get('/api/log/self/stat?username=bob');
    expect(sneaky.body.data).toEqual({ quota: 600, rpm: 2, tpm: 40 });
    const bobs = await bob.client.get('/api/log/self/stat?group=default');
    expect(bobs.body.data).toEqual({ quota: 400, rpm: 1, tpm: 100 });
  });

  it('refuses a clean-up without a usable target timestamp and deletes nothing', async () => {
    for (const query of ['', '?target_timestamp=', '?target_timestamp=0', '?target_timestamp=abc', '?target_timestamp=-5']) {
      const res = await root.delete(`/api/log/${query}`);
      expect(res.body, query).toEqual({ success: false, message: 'target timestamp is required' });
    }
    expect(await s.app.ctx.db.selectFrom('logs').select('id').execute()).toHaveLength(7);
  });

  it('deletes every log older than the target and answers the count', async () => {
    const res = await root.delete(`/api/log/?target_timestamp=${now - 3600}`);
    expect(res.body).toEqual({ success: true, message: '', data: 2 });
    const remaining = await list(root, '/api/log/?page_size=100');
    expect(idsOf(remaining.items)).toEqual([...ids].reverse().slice(0, 5));
    const again = await root.delete(`/api/log/?target_timestamp=${now - 3600}`);
    expect(again.body.data).toBe(0);
  });

  it('deletes in chunks across a large table', async () => {
    const { db } = s.app.ctx;
    const old = Array.from({ length: 12_000 }, (_, i) => ({ user_id: bob.id, username: 'bob', type: LOG_TYPE.system, created_at: now - 90 * 86400 + i, content: 'old' }));
    for (let i = 0; i < old.length; i += 500)
      await db
        .insertInto('logs')
        .values(old.slice(i, i + 500))
        .execute();
    const res = await root.delete(`/api/log/?target_timestamp=${now - 30 * 86400}`);
    expect(res.body.data).toBe(12_000);
    expect(await db.selectFrom('logs').select('id').execute()).toHaveLength(5);
  });
});
