/** Drawing (Midjourney) and music (Suno) task lists: filters, seconds → milliseconds, paging, self isolation. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const FORBIDDEN = { success: false, message: '无权进行此操作，权限不足' };

describeEachDialect('task lists API', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let alice: TestUser;
  let bob: TestUser;
  let now = 0;
  let mjIds: number[] = [];
  let taskIds: number[] = [];

  const list = async (client: ApiClient, path: string) => {
    const res = await client.get(path);
    expect(res.body.success, `${path}: ${JSON.stringify(res.body)}`).toBe(true);
    return res.body.data as { items: any[]; total: number; page: number; page_size: number };
  };
  /** Row ids of a page, as indexes into the seeded rows. */
  const seedsOf = (all: number[], items: { id: number }[]) => items.map((i) => all.indexOf(i.id));

  beforeAll(async () => {
    s = await startTestServer(dialect);
    now = Math.floor(Date.now() / 1000);
    root = await s.root();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    const { db } = s.app.ctx;
    const mj = [
      { user_id: alice.id, channel_id: 1, mj_id: 'mj-a1', action: 'IMAGINE', status: 'SUCCESS', progress: '100%', submit_time: (now - 7200) * 1000, prompt: 'a cat' },
      { user_id: bob.id, channel_id: 2, mj_id: 'mj-b1', action: 'UPSCALE', status: 'FAILURE', progress: '100%', submit_time: (now - 3600) * 1000 + 500, prompt: 'a dog' },
      { user_id: alice.id, channel_id: 2, mj_id: 'mj-a2', action: 'IMAGINE', status: 'IN_PROGRESS', progress: '40%', submit_time: (now - 60) * 1000 + 999, prompt: 'a bird' },
      { user_id: alice.id, channel_id: 1, mj_id: 'mj-a3', action: 'DESCRIBE', status: 'SUBMITTED', progress: '0%', submit_time: now * 1000, prompt: null },
    ];
    for (const row of mj)
      await db
        .insertInto('midjourneys')
        .values(row as never)
        .execute();
    mjIds = (await db.selectFrom('midjourneys').select('id').orderBy('id').execute()).map((r) => r.id);
    const tasks = [
      { user_id: alice.id, channel_id: 1, task_id: 't-a1', platform: 'suno', action: 'MUSIC', status: 'SUCCESS', progress: '100%', submit_time: now - 7200 },
      { user_id: bob.id, channel_id: 2, task_id: 't-b1', platform: 'suno', action: 'LYRICS', status: 'FAILURE', progress: '100%', submit_time: now - 3600, fail_reason: 'upstream said no' },
      { user_id: alice.id, channel_id: 2, task_id: 't-a2', platform: 'suno', action: 'LYRICS', status: 'IN_PROGRESS', progress: '50%', submit_time: now - 60 },
      { user_id: alice.id, channel_id: 1, task_id: 't-a3', platform: 'suno', action: 'MUSIC', status: '', progress: '', submit_time: now },
    ];
    for (const row of tasks)
      await db
        .insertInto('tasks')
        .values({ ...row, created_at: row.submit_time, updated_at: row.submit_time })
        .execute();
    taskIds = (await db.selectFrom('tasks').select('id').orderBy('id').execute()).map((r) => r.id);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists every drawing task for an administrator, newest first, paged', async () => {
    const all = await list(root, '/api/mj/');
    expect(all).toMatchObject({ total: 4, page: 0, page_size: 10 });
    expect(seedsOf(mjIds, all.items)).toEqual([3, 2, 1, 0]);
    expect(all.items[0]).toMatchObject({ mj_id: 'mj-a3', channel_id: 1, user_id: alice.id, prompt: '', submit_time: now * 1000 });
    const page = await list(root, '/api/mj/?p=1&page_size=3');
    expect(page).toMatchObject({ total: 4, page: 1, page_size: 3 });
    expect(seedsOf(mjIds, page.items)).toEqual([0]);
  });

  it('filters drawing tasks by channel, task id and time in seconds against millisecond columns', async () => {
    const cases: [string, number[]][] = [
      ['channel_id=2', [2, 1]],
      ['mj_id=mj-a2', [2]],
      [`start_timestamp=${now - 3600}`, [3, 2, 1]],
      // The end second is covered whole: 500 ms past it still counts.
      [`end_timestamp=${now - 3600}`, [1, 0]],
      [`end_timestamp=${now - 61}`, [1, 0]],
      [`start_timestamp=${now - 60}&end_timestamp=${now - 60}`, [2]],
      [`channel_id=1&start_timestamp=${now - 100}`, [3]],
      ['channel_id=0&mj_id=', [3, 2, 1, 0]],
      ['mj_id=nope', []],
    ];
    for (const [query, want] of cases) {
      const page = await list(root, `/api/mj/?${query}`);
      expect(seedsOf(mjIds, page.items), query).toEqual(want);
      expect(page.total, query).toBe(want.length);
    }
  });

  it('shows a user only their own drawing tasks, without the channel', async () => {
    const own = await list(alice.client, '/api/mj/self');
    expect(seedsOf(mjIds, own.items)).toEqual([3, 2, 0]);
    for (const item of own.items) {
      expect(item.user_id).toBe(alice.id);
      expect(item).not.toHaveProperty('channel_id');
    }
    const sneaky = await list(alice.client, `/api/mj/self/?channel_id=2&user_id=${bob.id}`);
    expect(seedsOf(mjIds, sneaky.items)).toEqual([3, 2, 0]);
    expect((await list(alice.client, '/api/mj/self?mj_id=mj-b1')).total).toBe(0);
    const timed = await list(alice.client, `/api/mj/self?start_timestamp=${now - 7200}&end_timestamp=${now - 60}`);
    expect(seedsOf(mjIds, timed.items)).toEqual([2, 0]);
    const paged = await list(alice.client, '/api/mj/self?p=1&page_size=2');
    expect(paged).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(seedsOf(mjIds, paged.items)).toEqual([0]);
    expect(seedsOf(mjIds, (await list(bob.client, '/api/mj/self')).items)).toEqual([1]);
  });

  it('lists every music task for an administrator with each filter', async () => {
    const all = await list(root, '/api/task/');
    expect(all).toMatchObject({ total: 4, page: 0, page_size: 10 });
    expect(seedsOf(taskIds, all.items)).toEqual([3, 2, 1, 0]);
    expect(all.items[2]).toMatchObject({ task_id: 't-b1', channel_id: 2, platform: 'suno', action: 'LYRICS', status: 'FAILURE', fail_reason: 'upstream said no' });
    const cases: [string, number[]][] = [
      ['channel_id=1', [3, 0]],
      ['task_id=t-b1', [1]],
      [`start_timestamp=${now - 3600}`, [3, 2, 1]],
      [`end_timestamp=${now - 3600}`, [1, 0]],
      ['status=FAILURE', [1]],
      ['action=MUSIC', [3, 0]],
      ['platform=suno', [3, 2, 1, 0]],
      [`channel_id=2&start_timestamp=${now - 100}`, [2]],
      [`channel_id=1&action=MUSIC&end_timestamp=${now - 1}`, [0]],
    ];
    for (const [query, want] of cases) {
      const page = await list(root, `/api/task/?${query}`);
      expect(seedsOf(taskIds, page.items), query).toEqual(want);
      expect(page.total, query).toBe(want.length);
    }
    const paged = await list(root, '/api/task/?p=1&page_size=3');
    expect(seedsOf(taskIds, paged.items)).toEqual([0]);
  });

  it('shows a user only their own music tasks, without the channel', async () => {
    const own = await list(alice.client, '/api/task/self');
    expect(seedsOf(taskIds, own.items)).toEqual([3, 2, 0]);
    for (const item of own.items) expect(item).not.toHaveProperty('channel_id');
    expect(seedsOf(taskIds, (await list(alice.client, '/api/task/self?channel_id=2')).items)).toEqual([3, 2, 0]);
    expect((await list(alice.client, '/api/task/self?task_id=t-b1')).total).toBe(0);
    expect(seedsOf(taskIds, (await list(alice.client, `/api/task/self?task_id=t-a2&start_timestamp=${now - 60}`)).items)).toEqual([2]);
    expect(seedsOf(taskIds, (await list(bob.client, '/api/task/self/')).items)).toEqual([1]);
  });

  it('refuses the admin lists to a common user and the self lists to visitors', async () => {
    expect((await alice.client.get('/api/mj/')).body).toEqual(FORBIDDEN);
    expect((await alice.client.get('/api/task/?channel_id=1')).body).toEqual(FORBIDDEN);
    for (const path of ['/api/mj/self', '/api/task/self']) {
      const res = await s.client().get(path);
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
    }
  });

  it('rejects malformed filters', async () => {
    for (const path of ['/api/mj/?start_timestamp=1.5', '/api/task/?channel_id=1e3', '/api/task/self?end_timestamp=1.5']) {
      const res = await root.get(path);
      expect(res.body.success, path).toBe(false);
      expect(res.body.message, path).toMatch(/^无效的参数/);
    }
    // No number at all is no filter (the reference's console sends end_timestamp=NaN first).
    for (const path of ['/api/mj/?start_timestamp=yesterday', '/api/task/?channel_id=&end_timestamp=NaN', '/api/task/self?start_timestamp=NaN&end_timestamp=NaN']) {
      expect((await root.get(path)).body.success, path).toBe(true);
    }
  });
});
