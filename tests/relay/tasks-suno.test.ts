/**
 * The music task relay against a fake Suno API, on every database: submissions by a plain
 * HTTP client are charged once on acceptance and not at all on refusal; the poller follows
 * tasks to success or failure; a failure, a time-out or a lost channel is refunded to user
 * and token exactly once, across repeated rounds, a second node and a restart; the ledger
 * adds up after each.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer } from '../helpers/server';
import { startFakeSuno, DEFAULT_SUNO_LYRICS, type FakeSuno } from '../fakes/suno';
import { sendJson } from '../fakes/http-fake';
import { relayOf } from '../../src/server/relay/runtime';
import { HELD_STALE_SECONDS } from '../../src/server/relay/tasks/task-ledger';
import { deleteChannel, setChannelStatus } from '../../src/server/services/channels/channel.service';
import { setOption, startBench, type Bench } from './harness';
import { seedChannel, seedToken, seedUser } from './seed';

const QUOTA = 10_000_000;
/** Default prices (ModelPrice suno_music 0.1, suno_lyrics 0.01 USD) × QuotaPerUnit 500000. */
const MUSIC = 50_000;
const LYRICS = 5_000;
const MUSIC_LOG = '模型固定价格 0.10，分组倍率 1.00，操作 MUSIC';
const LYRICS_LOG = '模型固定价格 0.01，分组倍率 1.00，操作 LYRICS';
/** How the refund log shows MUSIC (DisplayInCurrencyEnabled by default). */
const MUSIC_SHOWN = '＄0.100000 额度';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function readReply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeEachDialect('music task relay (Suno)', (dialect) => {
  let fake: FakeSuno;
  let b: Bench;
  let channelId: number;
  let userId: number;
  let tokenId: number;
  let apiKey: string;

  beforeAll(async () => {
    fake = await startFakeSuno();
    // The test drives each round itself.
    b = await startBench(dialect, { env: { UPDATE_TASK: 'false' } });
    channelId = await seedChannel(b.s, { type: 36, base_url: fake.url, key: fake.key, models: 'suno_music,suno_lyrics' });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    const user = await seedUser(b.s, QUOTA);
    userId = user.id;
    const token = await seedToken(b.s, userId, { unlimited_quota: false, remain_quota: QUOTA });
    tokenId = token.id;
    apiKey = token.apiKey;
  });

  async function post(path: string, body: unknown, key = apiKey): Promise<Reply> {
    const res = await fetch(`${b.s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return readReply(res);
  }
  async function get(path: string, key = apiKey): Promise<Reply> {
    return readReply(await fetch(`${b.s.url}${path}`, { headers: { authorization: `Bearer ${key}` } }));
  }
  /** Submits a task that the upstream accepts; answers its task id. */
  async function submit(action: 'music' | 'lyrics', body: Record<string, unknown>, key = apiKey): Promise<string> {
    const res = await post(`/suno/submit/${action}`, body, key);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('success');
    return res.body.data as string;
  }
  const tick = (now?: number) => relayOf(b.s.app.ctx)!.tasks.tick(now);
  const task = (taskId: string) => b.s.app.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const ownRows = () => b.s.app.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  async function removeChannel(id: number): Promise<void> {
    await deleteChannel(b.s.app.ctx, id);
    await relayOf(b.s.app.ctx)!.channels.refresh();
  }

  /**
   * Balances and the audit: Σ consume logs = used_quota (user, token, every channel);
   * quota + used − refunded + held = start (user and the limited token).
   */
  async function ledger(who: { userId: number; tokenId: number } = { userId, tokenId }) {
    const db = b.s.app.ctx.db;
    const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', who.userId).executeTakeFirstOrThrow();
    const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', who.tokenId).executeTakeFirstOrThrow();
    const logs = await db.selectFrom('logs').select(['quota', 'type', 'content', 'model_name', 'channel_id', 'token_id']).where('user_id', '=', who.userId).orderBy('id').execute();
    const tasks = await db.selectFrom('tasks').select(['quota', 'billing']).where('user_id', '=', who.userId).execute();
    const consumed = logs.filter((l) => l.type === 2).reduce((s, l) => s + Number(l.quota), 0);
    const refunded = tasks.filter((t) => t.billing === 'refunded').reduce((s, t) => s + Number(t.quota), 0);
    const held = tasks.filter((t) => t.billing === 'held').reduce((s, t) => s + Number(t.quota), 0);
    expect(Number(user.used_quota)).toBe(consumed);
    expect(Number(token.used_quota)).toBe(consumed);
    expect(Number(user.quota) + Number(user.used_quota) - refunded + held).toBe(QUOTA);
    expect(Number(token.remain_quota) + Number(token.used_quota) - refunded + held).toBe(QUOTA);
    // Every channel's used_quota is what its consume logs (all users) add up to.
    const channels = await db.selectFrom('channels').select(['id', 'used_quota']).execute();
    const consumeLogs = await db.selectFrom('logs').select(['channel_id', 'quota']).where('type', '=', 2).execute();
    for (const channel of channels) {
      const sum = consumeLogs.filter((l) => Number(l.channel_id) === channel.id).reduce((s, l) => s + Number(l.quota), 0);
      expect(Number(channel.used_quota), `channel #${channel.id}`).toBe(sum);
    }
    return {
      quota: Number(user.quota),
      used: Number(user.used_quota),
      requests: Number(user.request_count),
      remain: Number(token.remain_quota),
      tokenUsed: Number(token.used_quota),
      logs,
      refunded,
      held,
    };
  }

  it('MUSIC: the upstream answer passed on, charged once, the row kept; mv defaulted, unknown fields dropped', async () => {
    const before = fake.requests.length;
    const res = await post('/suno/submit/music', {
      prompt: '[Verse] gateways hum',
      title: 'Relay Song',
      tags: 'synthpop',
      make_instrumental: true,
      notify_hook: 'http://127.0.0.1:1/hook',
      model: 'x',
      extra: { a: 1 },
    });
    expect(res.status).toBe(200);
    const taskId = res.body.data as string;
    expect(res.body).toEqual({ code: 'success', message: '', data: taskId });
    expect(fake.tasks.has(taskId)).toBe(true);

    // One request upstream, to the channel's base URL, action upper-cased, with its key.
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/suno/submit/MUSIC' });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${fake.key}`);
    expect(fake.tasks.get(taskId)!.submitted).toEqual({ prompt: '[Verse] gateways hum', title: 'Relay Song', tags: 'synthpop', make_instrumental: true, mv: 'chirp-v3-0' });

    const l = await ledger();
    expect(l.quota).toBe(QUOTA - MUSIC);
    expect(l.remain).toBe(QUOTA - MUSIC);
    expect(l.used).toBe(MUSIC);
    expect(l.tokenUsed).toBe(MUSIC);
    expect(l.requests).toBe(1);
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0]).toMatchObject({ type: 2, quota: MUSIC, model_name: 'suno_music', channel_id: channelId, token_id: tokenId, content: MUSIC_LOG });

    const rows = await ownRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      task_id: taskId,
      platform: 'suno',
      action: 'MUSIC',
      status: 'NOT_START',
      progress: '0%',
      billing: 'charged',
      user_id: userId,
      token_id: tokenId,
      channel_id: channelId,
      quota: MUSIC,
    });
    expect(JSON.parse(rows[0]!.properties)).toEqual({ input: '[Verse] gateways hum' });
    expect(Math.abs(Number(rows[0]!.submit_time) - Date.now() / 1000)).toBeLessThan(30);

    // A given mv is kept; a description-only song is stored with its description as input.
    const second = await submit('music', { gpt_description_prompt: 'an upbeat song about ledgers', mv: 'chirp-v3-5' });
    expect(fake.tasks.get(second)!.submitted).toEqual({ gpt_description_prompt: 'an upbeat song about ledgers', mv: 'chirp-v3-5', make_instrumental: false });
    expect(JSON.parse((await task(second)).properties)).toEqual({ input: 'an upbeat song about ledgers' });
    const l2 = await ledger();
    expect(l2.quota).toBe(QUOTA - 2 * MUSIC);
    expect(l2.logs.filter((x) => x.type === 2)).toHaveLength(2);
  });

  it('followed to success by the poller; fetched back by its owner only', async () => {
    const taskId = await submit('music', { gpt_description_prompt: 'a song about polling' });

    await tick();
    expect(await task(taskId)).toMatchObject({ status: 'SUBMITTED', progress: '0%' });

    fake.progress(taskId, 40);
    await tick();
    const running = await task(taskId);
    expect(running).toMatchObject({ status: 'IN_PROGRESS', progress: '40%', billing: 'charged' });
    expect(Number(running.start_time)).toBe(fake.tasks.get(taskId)!.start_time);
    const streaming = JSON.parse(running.data) as { audio_url: string; status: string }[];
    expect(streaming).toHaveLength(2);
    expect(streaming[0]!.status).toBe('streaming');

    fake.succeed(taskId);
    await tick();
    const done = await task(taskId);
    const upstream = fake.tasks.get(taskId)!;
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', billing: 'charged' });
    expect(done.fail_reason ?? '').toBe('');
    expect(Number(done.finish_time)).toBe(upstream.finish_time);
    const clips = JSON.parse(done.data) as { id: string; audio_url: string; status: string }[];
    expect(clips).toEqual(upstream.data);
    expect(clips.map((c) => c.audio_url)).toEqual(upstream.clipIds.map((id) => `${fake.url}/audio/${id}.mp3`));
    expect(clips.map((c) => c.status)).toEqual(['complete', 'complete']);

    // A finished task is no longer asked for.
    const before = fake.requests.length;
    await tick();
    expect(fake.requests.slice(before).filter((r) => r.path === '/suno/fetch' && JSON.stringify(r.json).includes(taskId))).toHaveLength(0);

    const dto = {
      task_id: taskId,
      action: 'MUSIC',
      status: 'SUCCESS',
      fail_reason: '',
      submit_time: Number(done.submit_time),
      start_time: upstream.start_time,
      finish_time: upstream.finish_time,
      progress: '100%',
      data: upstream.data,
    };
    expect(await get(`/suno/fetch/${taskId}`)).toEqual({ status: 200, body: { code: 'success', message: '', data: dto } });
    expect(await post('/suno/fetch', { ids: [taskId, 'no-such-task'] })).toEqual({ status: 200, body: { code: 'success', message: '', data: [dto] } });
    expect((await post('/suno/fetch', { ids: [taskId], action: 'music' })).body.data).toEqual([dto]);
    expect((await post('/suno/fetch', { ids: [taskId], action: 'LYRICS' })).body.data).toEqual([]);
    expect(await post('/suno/fetch', { ids: [] })).toEqual({ status: 200, body: { code: 'success', message: '', data: [] } });
    expect(await post('/suno/fetch', { ids: [42] })).toEqual({ status: 400, body: { code: 'invalid_request', message: 'ids must be a list of task ids', data: null } });
    expect(await get('/suno/fetch/no-such-task')).toEqual({ status: 400, body: { code: 'invalid_request', message: 'task_not_exist', data: null } });

    // Another user's token sees nothing of it.
    const other = await seedUser(b.s, QUOTA);
    const otherToken = await seedToken(b.s, other.id);
    expect(await get(`/suno/fetch/${taskId}`, otherToken.apiKey)).toEqual({ status: 400, body: { code: 'invalid_request', message: 'task_not_exist', data: null } });
    expect(await post('/suno/fetch', { ids: [taskId] }, otherToken.apiKey)).toEqual({ status: 200, body: { code: 'success', message: '', data: [] } });
    expect((await get(`/suno/fetch/${taskId}`, 'sk-nothing')).status).toBe(401);

    // Following it charged nothing more.
    const l = await ledger();
    expect(l.quota).toBe(QUOTA - MUSIC);
    expect(l.remain).toBe(QUOTA - MUSIC);
    expect(l.logs).toHaveLength(1);
  });

  it('LYRICS: a prompt is required; charged its own price when given', async () => {
    const before = fake.requests.length;
    const empty = { status: 400, body: { code: 'invalid_request', message: 'prompt_empty', data: null } };
    expect(await post('/suno/submit/lyrics', {})).toEqual(empty);
    expect(await post('/suno/submit/LYRICS', { prompt: '', gpt_description_prompt: 'a description is not a prompt' })).toEqual(empty);
    expect(fake.requests.length).toBe(before);
    let l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.logs).toHaveLength(0);
    expect(await ownRows()).toHaveLength(0);

    const taskId = await submit('lyrics', { prompt: 'a song about refunds', title: 'Refund Blues' });
    expect(fake.requests.at(-1)!.path).toBe('/suno/submit/LYRICS');
    // No default mv for lyrics.
    expect(fake.tasks.get(taskId)!.submitted).toEqual({ prompt: 'a song about refunds', title: 'Refund Blues', make_instrumental: false });
    l = await ledger();
    expect(l.quota).toBe(QUOTA - LYRICS);
    expect(l.remain).toBe(QUOTA - LYRICS);
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0]).toMatchObject({ type: 2, quota: LYRICS, model_name: 'suno_lyrics', channel_id: channelId, content: LYRICS_LOG });
    expect(await task(taskId)).toMatchObject({ action: 'LYRICS', status: 'NOT_START', billing: 'charged', quota: LYRICS });

    fake.succeed(taskId);
    await tick();
    const done = await task(taskId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(JSON.parse(done.data)).toEqual({ id: fake.tasks.get(taskId)!.clipIds[0], status: 'complete', title: 'Refund Blues', text: DEFAULT_SUNO_LYRICS });
    expect((await ledger()).quota).toBe(QUOTA - LYRICS);
  });

  it('a failed task is refunded to user and token exactly once, over repeated and parallel rounds and a second node', async () => {
    const taskId = await submit('music', { prompt: 'fail this one' });
    const kept = await submit('music', { prompt: 'this one succeeds' });
    let l = await ledger();
    expect(l.quota).toBe(QUOTA - 2 * MUSIC);

    fake.fail(taskId, 'Banned prompt detected');
    fake.progress(kept, 10);
    const second = await startTestServer(dialect, { database: b.s.database, env: { UPDATE_TASK: 'false' } });
    try {
      // Two rounds of this process and one of another node race for the same refund.
      await Promise.all([tick(), tick(), relayOf(second.app.ctx)!.tasks.tick()]);
      await tick();
      await relayOf(second.app.ctx)!.tasks.tick();
    } finally {
      await second.app.close();
    }
    await tick();

    const failed = await task(taskId);
    expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Banned prompt detected', billing: 'refunded' });
    expect(Number(failed.finish_time)).toBe(fake.tasks.get(taskId)!.finish_time);
    expect(await task(kept)).toMatchObject({ status: 'IN_PROGRESS', progress: '10%', billing: 'charged' });

    l = await ledger();
    expect(l.quota).toBe(QUOTA - MUSIC);
    expect(l.remain).toBe(QUOTA - MUSIC);
    // used_quota keeps what was consumed at the time; the refund is its own line.
    expect(l.used).toBe(2 * MUSIC);
    expect(l.tokenUsed).toBe(2 * MUSIC);
    expect(l.refunded).toBe(MUSIC);
    const refunds = l.logs.filter((x) => x.type === 4);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ content: `异步任务执行失败 ${taskId}，补偿 ${MUSIC_SHOWN}`, token_id: tokenId });
    expect(l.logs.filter((x) => x.type === 2)).toHaveLength(2);

    // The owner reads the failure back.
    const fetched = await get(`/suno/fetch/${taskId}`);
    expect(fetched.body.data).toMatchObject({ task_id: taskId, status: 'FAILURE', fail_reason: 'Banned prompt detected', progress: '100%' });
  });

  it('a token spent down to its last task can pay again once that task is refunded', async () => {
    const token = await seedToken(b.s, userId, { unlimited_quota: false, remain_quota: MUSIC });
    const taskId = await submit('music', { prompt: 'all in' }, token.apiKey);
    expect(Number((await b.s.app.ctx.db.selectFrom('tokens').select('remain_quota').where('id', '=', token.id).executeTakeFirstOrThrow()).remain_quota)).toBe(0);
    fake.fail(taskId, 'out of credits');
    await tick();
    expect(await task(taskId)).toMatchObject({ billing: 'refunded', token_id: token.id });
    const row = await b.s.app.ctx.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(Number(row.remain_quota)).toBe(MUSIC);
    expect(Number(row.used_quota)).toBe(MUSIC);
    // The relay's cached balance of the token was given the refund too.
    const again = await post('/suno/submit/music', { prompt: 'again' }, token.apiKey);
    expect(again.status).toBe(200);
    const user = await b.s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.quota)).toBe(QUOTA - MUSIC);
  });

  it('refusals charge nothing and keep no row', async () => {
    const before = fake.requests.length;
    expect(await post('/suno/submit/video', { prompt: 'x' })).toEqual({ status: 400, body: { code: 'invalid_request', message: 'invalid_action', data: null } });
    expect(await post('/suno/submit/music', { prompt: 42 })).toEqual({ status: 400, body: { code: 'invalid_request', message: 'prompt must be a string', data: null } });
    expect(await post('/suno/submit/music', { prompt: 'x', make_instrumental: 'yes' })).toEqual({
      status: 400,
      body: { code: 'invalid_request', message: 'make_instrumental must be a boolean', data: null },
    });
    expect(await post('/suno/submit/music', { prompt: 'x', continue_at: -1 })).toEqual({
      status: 400,
      body: { code: 'invalid_request', message: 'continue_at must be a non-negative number', data: null },
    });
    expect(await post('/suno/submit/music', ['prompt'])).toEqual({ status: 400, body: { code: 'invalid_request', message: 'invalid request body', data: null } });
    const bad = await fetch(`${b.s.url}/suno/submit/music`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{oops' });
    expect(await readReply(bad)).toEqual({ status: 400, body: { code: 'invalid_request', message: 'invalid request body', data: null } });
    expect((await post('/suno/submit/music', { prompt: 'x' }, 'sk-nothing')).status).toBe(401);
    // Text no database stores as sent: refused before anything is held, stored or sent.
    const unstorable = { status: 400, body: { code: 'invalid_request', message: 'text contains a NUL character or an unpaired surrogate', data: null } };
    expect(await post('/suno/submit/music', { prompt: 'a\u0000b' })).toEqual(unstorable);
    expect(await post('/suno/submit/music', { prompt: 'x', title: '\ud800' })).toEqual(unstorable);
    expect(await get('/suno/fetch/a%00b')).toEqual(unstorable);
    expect(await post('/suno/fetch', { ids: ['a\u0000'] })).toEqual(unstorable);
    expect(fake.requests.length).toBe(before);

    // The upstream refuses in its own words: 500 with its code and message.
    fake.nextSubmit({ body: { code: 'error', message: 'insufficient credits', data: null } });
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual({ status: 500, body: { code: 'error', message: 'insufficient credits', data: null } });
    // An HTTP error: its status and text.
    fake.nextSubmit({ status: 500, body: 'upstream exploded' });
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual({ status: 500, body: { code: 'fail_to_fetch_task', message: 'upstream exploded', data: null } });
    // A saturated upstream: the reference's notice.
    fake.nextSubmit({ status: 429, body: { code: 'rate_limited', message: 'slow down' } });
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual({ status: 429, body: { code: 'fail_to_fetch_task', message: '当前分组上游负载已饱和，请稍后再试', data: null } });
    // An answer that is not JSON.
    fake.nextSubmit({ body: 'not json' });
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual({ status: 500, body: { code: 'unmarshal_response_body_failed', message: 'unusable upstream answer', data: null } });
    // A "success" that names no task is no success: never answered with code success.
    fake.nextSubmit({ body: '{"code":"success","message":"","data":42}' }, { body: '{"code":"success","message":"","data":""}' });
    const noTask = { status: 500, body: { code: 'unmarshal_response_body_failed', message: 'unusable upstream answer', data: null } };
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual(noTask);
    expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual(noTask);
    expect(fake.requests.length).toBe(before + 6);
    // No channel serves the model in the caller's group: the distributor's refusal.
    const elsewhere = await seedUser(b.s, QUOTA, { group: 'vip' });
    const elsewhereToken = await seedToken(b.s, elsewhere.id);
    const unserved = await post('/suno/submit/music', { prompt: 'x' }, elsewhereToken.apiKey);
    expect(unserved.status).toBe(503);
    expect(unserved.body).toMatchObject({ error: { code: 'model_not_found' } });
    expect(fake.requests.length).toBe(before + 6);
    expect(Number((await b.s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', elsewhere.id).executeTakeFirstOrThrow()).quota)).toBe(QUOTA);

    let l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.remain).toBe(QUOTA);
    expect(l.requests).toBe(0);
    expect(l.logs).toHaveLength(0);
    expect(await ownRows()).toHaveLength(0);

    // Unreachable upstream: a channel on a closed port, preferred over the others.
    const dead = await seedChannel(b.s, { type: 36, base_url: `http://127.0.0.1:${await closedPort()}`, key: fake.key, models: 'suno_music,suno_lyrics', priority: 10 });
    try {
      expect(await post('/suno/submit/music', { prompt: 'x' })).toEqual({ status: 500, body: { code: 'do_request_failed', message: '请求上游地址失败', data: null } });
      l = await ledger();
      expect(l.quota).toBe(QUOTA);
      expect(l.remain).toBe(QUOTA);
      expect(await ownRows()).toHaveLength(0);
      const channel = await b.s.app.ctx.db.selectFrom('channels').select('used_quota').where('id', '=', dead).executeTakeFirstOrThrow();
      expect(Number(channel.used_quota)).toBe(0);
    } finally {
      await removeChannel(dead);
    }

    // A balance below the price is refused before anything reaches the upstream.
    const notEnough = { status: 403, body: { code: 'quota_not_enough', message: 'user quota is not enough', data: null } };
    const poor = await seedUser(b.s, MUSIC - 1);
    const poorToken = await seedToken(b.s, poor.id, { unlimited_quota: false, remain_quota: QUOTA });
    const upstreamBefore = fake.requests.length;
    expect(await post('/suno/submit/music', { prompt: 'x' }, poorToken.apiKey)).toEqual(notEnough);
    // Enough for lyrics, though.
    await submit('lyrics', { prompt: 'cheap' }, poorToken.apiKey);
    const poorUser = await b.s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', poor.id).executeTakeFirstOrThrow();
    expect(Number(poorUser.quota)).toBe(MUSIC - 1 - LYRICS);
    const poorTokenRow = await b.s.app.ctx.db.selectFrom('tokens').select('remain_quota').where('id', '=', poorToken.id).executeTakeFirstOrThrow();
    // The refused submission moved nothing on the token either (its transaction rolled back).
    expect(Number(poorTokenRow.remain_quota)).toBe(QUOTA - LYRICS);

    // A limited token below the price, its user rich: refused the same way.
    const smallToken = await seedToken(b.s, userId, { unlimited_quota: false, remain_quota: MUSIC - 1 });
    expect(await post('/suno/submit/music', { prompt: 'x' }, smallToken.apiKey)).toEqual(notEnough);
    expect(fake.requests.length).toBe(upstreamBefore + 1);
    const small = await b.s.app.ctx.db.selectFrom('tokens').select('remain_quota').where('id', '=', smallToken.id).executeTakeFirstOrThrow();
    expect(Number(small.remain_quota)).toBe(MUSIC - 1);
    l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.logs).toHaveLength(0);
    expect(await ownRows()).toHaveLength(0);
  });

  it('continuations: need the task id of one of the caller’s tasks, and go to that task’s channel', async () => {
    expect(await post('/suno/submit/music', { prompt: 'x', continue_clip_id: 'clip-1' })).toEqual({ status: 400, body: { code: 'invalid_request', message: 'task id is empty', data: null } });

    const other = await seedUser(b.s, QUOTA);
    const otherToken = await seedToken(b.s, other.id);
    const theirs = await submit('music', { prompt: 'theirs' }, otherToken.apiKey);
    const before = fake.requests.length;
    expect(await post('/suno/submit/music', { prompt: 'x', task_id: theirs, continue_clip_id: 'clip-1' })).toEqual({
      status: 400,
      body: { code: 'invalid_request', message: 'task_origin_not_exist', data: null },
    });
    expect(fake.requests.length).toBe(before);
    let l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.logs).toHaveLength(0);

    const origin = await submit('music', { prompt: 'verse one' });
    fake.succeed(origin);
    await tick();
    const clipId = fake.tasks.get(origin)!.clipIds[0]!;

    // A second channel, preferred for new tasks from now on.
    const fake2 = await startFakeSuno({ key: 'suno-key-2' });
    const preferred = await seedChannel(b.s, { type: 36, base_url: fake2.url, key: fake2.key, models: 'suno_music,suno_lyrics', priority: 10 });
    try {
      const fresh = await submit('music', { prompt: 'new song' });
      expect(fake2.tasks.has(fresh)).toBe(true);
      expect(await task(fresh)).toMatchObject({ channel_id: preferred });

      // The continuation follows its origin to the first channel.
      const before2 = fake2.requests.length;
      const next = await submit('music', { prompt: 'verse two', mv: 'chirp-v3-5', task_id: origin, continue_clip_id: clipId, continue_at: 30.5 });
      expect(fake2.requests.length).toBe(before2);
      expect(fake.tasks.get(next)!.submitted).toEqual({ prompt: 'verse two', mv: 'chirp-v3-5', task_id: origin, continue_clip_id: clipId, continue_at: 30.5, make_instrumental: false });
      expect(await task(next)).toMatchObject({ channel_id: channelId, action: 'MUSIC', billing: 'charged', quota: MUSIC });

      l = await ledger();
      expect(l.quota).toBe(QUOTA - 3 * MUSIC);
      expect(l.logs.map((x) => x.channel_id)).toEqual([channelId, preferred, channelId]);

      // The origin's channel disabled: refused, nothing charged.
      await setChannelStatus(b.s.app.ctx, [preferred], 2);
      await relayOf(b.s.app.ctx)!.channels.refresh();
      expect(await post('/suno/submit/music', { prompt: 'x', task_id: fresh, continue_clip_id: 'c' })).toEqual({
        status: 400,
        body: { code: 'invalid_request', message: '该任务所属渠道已被禁用', data: null },
      });
      l = await ledger();
      expect(l.quota).toBe(QUOTA - 3 * MUSIC);
    } finally {
      await removeChannel(preferred);
      await fake2.close();
    }
  });

  it('poller: an unusable fetch answer skips the round without changes', async () => {
    const taskId = await submit('music', { prompt: 'patience' });
    fake.fail(taskId, 'eventually failed');
    try {
      for (const mode of ['http500', 'badjson', 'code'] as const) {
        fake.setFetchFailure(mode);
        await tick();
        const row = await task(taskId);
        expect(row, mode).toMatchObject({ status: 'NOT_START', progress: '0%', billing: 'charged' });
        expect(row.fail_reason ?? '', mode).toBe('');
        const l = await ledger();
        expect(l.quota).toBe(QUOTA - MUSIC);
        expect(l.logs.filter((x) => x.type === 4)).toHaveLength(0);
      }
    } finally {
      fake.setFetchFailure('none');
    }
    // The same round with a usable answer does change it.
    await tick();
    expect(await task(taskId)).toMatchObject({ status: 'FAILURE', progress: '100%', billing: 'refunded', fail_reason: 'eventually failed' });
    const l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.logs.filter((x) => x.type === 4)).toHaveLength(1);
  });

  it('poller: TaskTimeoutMinutes times an unfinished task out with one refund', async () => {
    const previous = b.s.app.ctx.options.get('TaskTimeoutMinutes');
    await setOption(b, 'TaskTimeoutMinutes', '5');
    try {
      const taskId = await submit('music', { prompt: 'slow' });
      fake.progress(taskId, 20);
      await tick();
      expect(await task(taskId)).toMatchObject({ status: 'IN_PROGRESS', billing: 'charged' });
      // Not yet: four minutes on.
      await tick(Date.now() + 4 * 60_000);
      expect(await task(taskId)).toMatchObject({ status: 'IN_PROGRESS', billing: 'charged' });
      await tick(Date.now() + 6 * 60_000);
      await tick(Date.now() + 7 * 60_000);
      expect(await task(taskId)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: '上游任务超时（超过5分钟）', billing: 'refunded' });
      // The upstream finishing later changes nothing: the task is no longer followed.
      fake.succeed(taskId);
      await tick();
      expect(await task(taskId)).toMatchObject({ status: 'FAILURE', billing: 'refunded' });
      const l = await ledger();
      expect(l.quota).toBe(QUOTA);
      expect(l.remain).toBe(QUOTA);
      const refunds = l.logs.filter((x) => x.type === 4);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]!.content).toBe(`异步任务执行失败 ${taskId}，补偿 ${MUSIC_SHOWN}`);
    } finally {
      await setOption(b, 'TaskTimeoutMinutes', previous);
    }
  });

  it('poller: a task whose channel was deleted is failed and refunded once', async () => {
    const doomed = await seedChannel(b.s, { type: 36, base_url: fake.url, key: fake.key, models: 'suno_music,suno_lyrics', priority: 10 });
    let taskId = '';
    try {
      taskId = await submit('music', { prompt: 'orphan' });
      expect(await task(taskId)).toMatchObject({ channel_id: doomed });
      // The channel's audit holds while it exists.
      await ledger();
    } finally {
      await removeChannel(doomed);
    }
    await tick();
    await tick();
    expect(await task(taskId)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: `获取渠道信息失败，请联系管理员，渠道ID：${doomed}`, billing: 'refunded' });
    const l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.remain).toBe(QUOTA);
    expect(l.used).toBe(MUSIC);
    expect(l.logs.filter((x) => x.type === 4)).toHaveLength(1);
  });

  it('a hold left by a submission that died with its process is given back by the next round, once', async () => {
    const db = b.s.app.ctx.db;
    // What a crash between the hold and the upstream's answer leaves: money taken, row held.
    await db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '-', MUSIC) }))
      .where('id', '=', userId)
      .execute();
    await db
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '-', MUSIC) }))
      .where('id', '=', tokenId)
      .execute();
    const stale = Math.floor(Date.now() / 1000) - HELD_STALE_SECONDS - 60;
    await db
      .insertInto('tasks')
      .values({ user_id: userId, token_id: tokenId, platform: 'suno', action: 'MUSIC', quota: MUSIC, billing: 'held', submit_time: stale, channel_id: channelId, progress: '0%' })
      .execute();
    // A fresh hold (a submission still running) is left alone.
    await db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '-', LYRICS) }))
      .where('id', '=', userId)
      .execute();
    await db
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '-', LYRICS) }))
      .where('id', '=', tokenId)
      .execute();
    await db
      .insertInto('tasks')
      .values({
        user_id: userId,
        token_id: tokenId,
        platform: 'suno',
        action: 'LYRICS',
        quota: LYRICS,
        billing: 'held',
        submit_time: Math.floor(Date.now() / 1000),
        channel_id: channelId,
        progress: '0%',
      })
      .execute();
    expect((await ledger()).held).toBe(MUSIC + LYRICS);
    await tick();
    await tick();
    const l = await ledger();
    expect(l.quota).toBe(QUOTA - LYRICS);
    expect(l.held).toBe(LYRICS);
    const rows = await ownRows();
    expect(rows[0]).toMatchObject({ billing: 'released', status: 'FAILURE', progress: '100%' });
    expect(rows[1]).toMatchObject({ billing: 'held', progress: '0%' });
    await db.deleteFrom('tasks').where('id', '=', rows[1]!.id).execute();
  });
});

describeEachDialect('music tasks survive a restart', (dialect) => {
  it('a task charged before a restart is refunded once by two fresh processes racing for it', async () => {
    const fake = await startFakeSuno();
    const first = await startTestServer(dialect, { env: { UPDATE_TASK: 'false' } });
    try {
      const user = await seedUser(first, QUOTA);
      const token = await seedToken(first, user.id, { unlimited_quota: false, remain_quota: QUOTA });
      await seedChannel(first, { type: 36, base_url: fake.url, key: fake.key, models: 'suno_music,suno_lyrics' });
      const res = await fetch(`${first.url}/suno/submit/music`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'x' }),
      });
      expect(res.status).toBe(200);
      const taskId = ((await res.json()) as { data: string }).data;
      const charged = await first.app.ctx.db.selectFrom('users').select(['quota']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(Number(charged.quota)).toBe(QUOTA - MUSIC);
      await first.app.close();

      fake.fail(taskId, 'lost');
      // Two processes over the same database, as after a restart next to a second node.
      const [a, c] = await Promise.all([
        startTestServer(dialect, { database: first.database, env: { UPDATE_TASK: 'false' } }),
        startTestServer(dialect, { database: first.database, env: { UPDATE_TASK: 'false' } }),
      ]);
      try {
        await Promise.all([relayOf(a.app.ctx)!.tasks.tick(), relayOf(c.app.ctx)!.tasks.tick()]);
        await Promise.all([relayOf(a.app.ctx)!.tasks.tick(), relayOf(c.app.ctx)!.tasks.tick()]);
        const db = a.app.ctx.db;
        const row = await db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
        expect(row).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'lost', billing: 'refunded' });
        const u = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', user.id).executeTakeFirstOrThrow();
        expect(Number(u.quota)).toBe(QUOTA);
        expect(Number(u.used_quota)).toBe(MUSIC);
        const t = await db.selectFrom('tokens').select(['remain_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
        expect(Number(t.remain_quota)).toBe(QUOTA);
        const refundLogs = await db.selectFrom('logs').select(['content']).where('user_id', '=', user.id).where('type', '=', 4).execute();
        expect(refundLogs).toEqual([{ content: `异步任务执行失败 ${taskId}，补偿 ${MUSIC_SHOWN}` }]);
      } finally {
        await a.app.close();
        await c.app.close();
      }
    } finally {
      await first.database.drop();
      await fake.close();
    }
  });
});

describeEachDialect('music tasks: an upstream answer arriving after a refund', (dialect) => {
  it('cannot turn a task another node timed out and refunded into a success', async () => {
    const fake = await startFakeSuno();
    const b = await startBench(dialect, { env: { UPDATE_TASK: 'false' } });
    try {
      await seedChannel(b.s, { type: 36, base_url: fake.url, key: fake.key, models: 'suno_music,suno_lyrics' });
      const user = await seedUser(b.s, QUOTA);
      const token = await seedToken(b.s, user.id, { unlimited_quota: false, remain_quota: QUOTA });
      const res = await fetch(`${b.s.url}/suno/submit/music`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'late' }),
      });
      const taskId = ((await res.json()) as { data: string }).data;
      fake.succeed(taskId);

      // This node's batch fetch is held until the other node has timed the task out.
      let open = () => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      let asked = () => {};
      const fetching = new Promise<void>((resolve) => (asked = resolve));
      fake.route('POST', '/suno/fetch', async (request, reply) => {
        asked();
        await gate;
        const ids = (request.json as { ids: string[] }).ids;
        sendJson(reply, 200, { code: 'success', message: '', data: ids.map((id) => fake.taskJson(id)).filter(Boolean) });
      });
      const slow = relayOf(b.s.app.ctx)!.tasks.tick();
      await fetching;

      await setOption(b, 'TaskTimeoutMinutes', '5');
      const other = await startTestServer(dialect, { database: b.s.database, env: { UPDATE_TASK: 'false' } });
      try {
        await relayOf(other.app.ctx)!.tasks.tick(Date.now() + 6 * 60_000);
      } finally {
        await other.app.close();
      }
      open();
      await slow;

      const db = b.s.app.ctx.db;
      const row = await db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: '上游任务超时（超过5分钟）', billing: 'refunded' });
      const u = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(Number(u.quota)).toBe(QUOTA);
      expect(Number(u.used_quota)).toBe(MUSIC);
      const refundLogs = await db.selectFrom('logs').select('id').where('user_id', '=', user.id).where('type', '=', 4).execute();
      expect(refundLogs).toHaveLength(1);
    } finally {
      await b.close();
      await fake.close();
    }
  });
});
