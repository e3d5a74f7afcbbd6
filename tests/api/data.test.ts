/** Dashboard data: consumption → hourly aggregation → flush → /api/data, the switches, the one-month rule, shutdown flush. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOG_TYPE } from '../../src/shared/roles';
import { recordConsumption, type Consumption } from '../../src/server/services/logs/consumption';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const HOUR = 3600;
const MONTH = 30 * 24 * HOUR;

describeEachDialect('dashboard data API', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let bob: TestUser;
  let now = 0;
  let thisHour = 0;
  let lastHour = 0;

  const consumption = (user: TestUser, over: Partial<Consumption>): Consumption => ({
    userId: user.id,
    username: user.username,
    tokenId: 1,
    tokenName: 'default-token',
    modelName: 'gpt-4o',
    quota: 100,
    promptTokens: 10,
    completionTokens: 5,
    useTime: 2,
    isStream: false,
    channelId: 1,
    group: 'default',
    content: '模型倍率 1.25，补全倍率 4，分组倍率 1',
    other: { model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, model_price: -1 },
    createdAt: thisHour + 10,
    ...over,
  });
  const quotaRows = () => s.app.ctx.db.selectFrom('quota_data').selectAll().orderBy('id').execute();
  const data = async (client: ApiClient, path: string) => {
    const res = await client.get(path);
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    return res.body.data as { model_name: string; created_at: number; count: number; quota: number; token_used: number }[];
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    now = Math.floor(Date.now() / 1000);
    thisHour = now - (now % HOUR);
    lastHour = thisHour - HOUR;
    root = await s.root();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('writes a consume log and aggregates per user, model and hour until flushed', async () => {
    const { ctx } = s.app;
    await recordConsumption(ctx, consumption(alice, {}));
    await recordConsumption(ctx, consumption(alice, { quota: 50, promptTokens: 1, completionTokens: 1, createdAt: thisHour + 3000 }));
    await recordConsumption(ctx, consumption(alice, { modelName: 'claude-3-opus', quota: 7, createdAt: lastHour + 5 }));
    await recordConsumption(ctx, consumption(bob, { quota: 30, createdAt: thisHour + 20 }));
    const log = await ctx.db.selectFrom('logs').selectAll().where('user_id', '=', alice.id).where('type', '=', LOG_TYPE.consume).orderBy('id').executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      username: 'alice',
      token_name: 'default-token',
      model_name: 'gpt-4o',
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      use_time: 2,
      channel_id: 1,
      group: 'default',
      created_at: thisHour + 10,
    });
    expect(JSON.parse(log.other)).toEqual({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, model_price: -1 });
    expect(ctx.quotaData.pending).toBe(3);
    expect(await quotaRows()).toHaveLength(0);
    await ctx.quotaData.flush();
    expect(ctx.quotaData.pending).toBe(0);
    const rows = await quotaRows();
    expect(rows.map(({ id: _id, ...r }) => r)).toEqual(
      expect.arrayContaining([
        { user_id: alice.id, username: 'alice', model_name: 'gpt-4o', created_at: thisHour, count: 2, quota: 150, token_used: 17 },
        { user_id: alice.id, username: 'alice', model_name: 'claude-3-opus', created_at: lastHour, count: 1, quota: 7, token_used: 15 },
        { user_id: bob.id, username: 'bob', model_name: 'gpt-4o', created_at: thisHour, count: 1, quota: 30, token_used: 15 },
      ]),
    );
    expect(rows).toHaveLength(3);
  });

  it('adds later flushes to the existing hour row instead of inserting another', async () => {
    const { ctx } = s.app;
    await recordConsumption(ctx, consumption(alice, { quota: 25, createdAt: thisHour + 100 }));
    await ctx.quotaData.flush();
    const rows = (await quotaRows()).filter((r) => r.user_id === alice.id && r.model_name === 'gpt-4o');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 3, quota: 175, token_used: 32 });
    await ctx.quotaData.flush();
    expect((await quotaRows()).find((r) => r.id === rows[0]!.id)).toMatchObject({ count: 3 });
  });

  it('serves administrators sums per model and hour, or one username', async () => {
    const all = await data(root, `/api/data/?start_timestamp=${lastHour}&end_timestamp=${thisHour + HOUR}`);
    expect(all).toEqual([
      { model_name: 'claude-3-opus', created_at: lastHour, count: 1, quota: 7, token_used: 15 },
      { model_name: 'gpt-4o', created_at: thisHour, count: 4, quota: 205, token_used: 47 },
    ]);
    const bobs = await data(root, '/api/data/?username=bob');
    expect(bobs).toEqual([{ model_name: 'gpt-4o', created_at: thisHour, count: 1, quota: 30, token_used: 15 }]);
    const recent = await data(root, `/api/data/?start_timestamp=${thisHour}`);
    expect(recent.map((p) => p.model_name)).toEqual(['gpt-4o']);
    const older = await data(root, `/api/data/?end_timestamp=${thisHour - 1}`);
    expect(older.map((p) => p.model_name)).toEqual(['claude-3-opus']);
    expect(await data(root, '/api/data/?username=nobody')).toEqual([]);
  });

  it('serves a user their own data only', async () => {
    const own = await data(alice.client, `/api/data/self?start_timestamp=${lastHour}&end_timestamp=${now}`);
    expect(own).toEqual([
      { model_name: 'claude-3-opus', created_at: lastHour, count: 1, quota: 7, token_used: 15 },
      { model_name: 'gpt-4o', created_at: thisHour, count: 3, quota: 175, token_used: 32 },
    ]);
    const sneaky = await data(bob.client, '/api/data/self?username=alice');
    expect(sneaky).toEqual([{ model_name: 'gpt-4o', created_at: thisHour, count: 1, quota: 30, token_used: 15 }]);
  });

  it('limits a user to one month at a time', async () => {
    const tooLong = await alice.client.get(`/api/data/self?start_timestamp=${now - MONTH - 1}&end_timestamp=${now}`);
    expect(tooLong.body).toEqual({ success: false, message: '时间跨度不能超过 1 个月' });
    const openStart = await alice.client.get(`/api/data/self?end_timestamp=${now}`);
    expect(openStart.body.success).toBe(true);
    const exactlyMonth = await data(alice.client, `/api/data/self?start_timestamp=${now - MONTH}&end_timestamp=${now}`);
    expect(exactlyMonth).toHaveLength(2);
    const admin = await data(root, `/api/data/?start_timestamp=${now - 3 * MONTH}&end_timestamp=${now}`);
    expect(admin).toHaveLength(2);
  });

  it('refuses the admin view to a common user and malformed times to anyone', async () => {
    expect((await alice.client.get('/api/data/')).body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    expect((await alice.client.get('/api/data/?username=bob')).body.success).toBe(false);
    const bad = await alice.client.get('/api/data/self?start_timestamp=1.5');
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toMatch(/^无效的参数/);
    // No number at all is a time not given.
    expect((await alice.client.get('/api/data/self?start_timestamp=last-week&end_timestamp=NaN')).body.success).toBe(true);
  });

  it('follows the consume-log and data-export switches independently', async () => {
    const { ctx } = s.app;
    const logCount = async () => (await ctx.db.selectFrom('logs').select('id').where('type', '=', LOG_TYPE.consume).execute()).length;
    const before = await logCount();
    await ctx.options.setInternal('LogConsumeEnabled', 'false');
    await recordConsumption(ctx, consumption(bob, { createdAt: thisHour + 30 }));
    expect(await logCount()).toBe(before);
    expect(ctx.quotaData.pending).toBe(1);
    await ctx.quotaData.flush();
    await ctx.options.setInternal('LogConsumeEnabled', 'true');
    await ctx.options.setInternal('DataExportEnabled', 'false');
    await recordConsumption(ctx, consumption(bob, { createdAt: thisHour + 40 }));
    expect(await logCount()).toBe(before + 1);
    expect(ctx.quotaData.pending).toBe(0);
    await ctx.options.setInternal('DataExportEnabled', 'true');
    expect((await data(bob.client, '/api/data/self'))[0]).toMatchObject({ count: 2, quota: 130 });
  });

  it('writes what a node collected when it shuts down, into the same hour rows', async () => {
    const second = await startTestServer(dialect, { database: s.database });
    try {
      await recordConsumption(second.app.ctx, consumption(bob, { quota: 1, createdAt: thisHour + 50 }));
      await recordConsumption(second.app.ctx, consumption(bob, { modelName: 'o1', quota: 2, createdAt: thisHour + 60 }));
      expect(second.app.ctx.quotaData.pending).toBe(2);
    } finally {
      await second.close();
    }
    const bobs = await data(root, '/api/data/?username=bob');
    expect(bobs).toEqual([
      { model_name: 'gpt-4o', created_at: thisHour, count: 3, quota: 131, token_used: 45 },
      { model_name: 'o1', created_at: thisHour, count: 1, quota: 2, token_used: 15 },
    ]);
    expect((await quotaRows()).filter((r) => r.user_id === bob.id && r.model_name === 'gpt-4o')).toHaveLength(1);
  });
});
