/**
 * The drawing task relay against a fake Midjourney proxy, on every database: submissions by
 * a plain HTTP client are charged once on acceptance and not at all on refusal; the poller
 * follows tasks to success or failure; a failure is refunded to user and token exactly once,
 * across repeated rounds, a racing callback and a restart; the ledger adds up after each.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer } from '../helpers/server';
import { startFakeMidjourney, type FakeMidjourney } from '../fakes/midjourney-proxy';
import { relayOf } from '../../src/server/relay/runtime';
import { setOption, startBench, type Bench } from './harness';
import { seedChannel, seedToken, seedUser } from './seed';
import { HELD_STALE_SECONDS } from '../../src/server/relay/tasks/task-ledger';

const QUOTA = 10_000_000;
/** Default prices (ModelPrice) × QuotaPerUnit 500000. */
const IMAGINE = 50_000;
const UPSCALE = 25_000;

describeEachDialect('drawing task relay (Midjourney proxy)', (dialect) => {
  let fake: FakeMidjourney;
  let b: Bench;
  let channelId: number;
  let userId: number;
  let tokenId: number;
  let apiKey: string;

  beforeAll(async () => {
    fake = await startFakeMidjourney({ secret: 'mj-secret' });
    // The test drives each round itself.
    b = await startBench(dialect, { env: { UPDATE_TASK: 'false' } });
    channelId = await seedChannel(b.s, {
      type: 2,
      base_url: fake.url,
      key: 'mj-secret',
      models: 'mj_imagine,mj_upscale,mj_variation,mj_reroll,mj_describe,mj_blend,mj_modal,mj_inpaint,swap_face,mj_upload,mj_shorten,mj_video',
    });
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

  async function post(path: string, body: unknown, key = apiKey) {
    const res = await fetch(`${b.s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function get(path: string, key = apiKey) {
    const res = await fetch(`${b.s.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as unknown };
  }
  const tick = (now?: number) => relayOf(b.s.app.ctx)!.tasks.tick(now);
  const task = (mjId: string) => b.s.app.ctx.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).executeTakeFirstOrThrow();

  /** Balances and the audit: Σ consume logs = used_quota (user, token, channel); quota + used − refunded = start. */
  async function ledger() {
    const db = b.s.app.ctx.db;
    const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    const logs = await db.selectFrom('logs').select(['quota', 'type', 'content', 'model_name', 'channel_id']).where('user_id', '=', userId).orderBy('id').execute();
    const tasks = await db.selectFrom('midjourneys').select(['quota', 'billing']).where('user_id', '=', userId).execute();
    const consumed = logs.filter((l) => l.type === 2).reduce((s, l) => s + Number(l.quota), 0);
    const refunded = tasks.filter((t) => t.billing === 'refunded').reduce((s, t) => s + Number(t.quota), 0);
    const held = tasks.filter((t) => t.billing === 'held').reduce((s, t) => s + Number(t.quota), 0);
    expect(Number(user.used_quota)).toBe(consumed);
    expect(Number(token.used_quota)).toBe(consumed);
    expect(Number(user.quota) + Number(user.used_quota) - refunded + held).toBe(QUOTA);
    expect(Number(token.remain_quota) + Number(token.used_quota) - refunded + held).toBe(QUOTA);
    return { quota: Number(user.quota), used: Number(user.used_quota), requests: Number(user.request_count), remain: Number(token.remain_quota), logs, refunded, held };
  }

  it('imagine: charged once on acceptance, followed to success, image served through our proxy', async () => {
    const submitted = await post('/mj/submit/imagine', { prompt: 'a red fox in snow', notifyHook: 'http://127.0.0.1:1/hook', accountFilter: { instanceId: 'x' } });
    expect(submitted.status).toBe(200);
    expect(submitted.body.code).toBe(1);
    const mjId = submitted.body.result as string;
    // Options decide what of the client's body goes on: both removed by default.
    expect(fake.tasks.get(mjId)!.submitted).not.toHaveProperty('notifyHook');
    expect(fake.tasks.get(mjId)!.submitted).not.toHaveProperty('accountFilter');

    let l = await ledger();
    expect(l.quota).toBe(QUOTA - IMAGINE);
    expect(l.remain).toBe(QUOTA - IMAGINE);
    expect(l.requests).toBe(1);
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0]).toMatchObject({ type: 2, quota: IMAGINE, model_name: 'mj_imagine', channel_id: channelId });
    expect(l.logs[0]!.content).toBe(`模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${mjId}`);
    expect(await task(mjId)).toMatchObject({
      action: 'IMAGINE',
      code: 1,
      status: 'SUBMITTED',
      progress: '0%',
      billing: 'charged',
      token_id: tokenId,
      channel_id: channelId,
      quota: IMAGINE,
      prompt: 'a red fox in snow',
    });

    fake.progress(mjId, 40);
    await tick();
    expect(await task(mjId)).toMatchObject({ status: 'IN_PROGRESS', progress: '40%' });

    fake.succeed(mjId);
    await tick();
    const done = await task(mjId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', billing: 'charged' });
    expect(done.image_url).toBe(`${fake.url}/attachments/${mjId}.png`);
    expect(JSON.parse(done.buttons!)).toHaveLength(9);

    const fetched = (await get(`/mj/task/${mjId}/fetch`)).body as Record<string, unknown>;
    expect(fetched).toMatchObject({ id: mjId, action: 'IMAGINE', status: 'SUCCESS', progress: '100%', imageUrl: `/mj/image/${mjId}` });
    const image = await fetch(`${b.s.url}/mj/image/${mjId}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const listed = (await post('/mj/task/list-by-condition', { ids: [mjId, 'nope'] })).body as unknown as unknown[];
    expect(listed).toHaveLength(1);
    // Nothing more was charged by following it.
    l = await ledger();
    expect(l.quota).toBe(QUOTA - IMAGINE);
  });

  it('a failed upscale is refunded to user and token exactly once, over repeated rounds and a racing callback', async () => {
    const first = await post('/mj/submit/imagine', { prompt: 'a lighthouse' });
    const origin = first.body.result as string;
    fake.succeed(origin);
    await tick();
    const buttons = JSON.parse((await task(origin)).buttons!) as { customId: string; label: string }[];
    const u2 = buttons.find((x) => x.label === 'U2')!;

    const up = await post('/mj/submit/action', { customId: u2.customId, taskId: origin });
    expect(up.body.code).toBe(1);
    const mjId = up.body.result as string;
    expect(await task(mjId)).toMatchObject({ action: 'UPSCALE', prompt: 'a lighthouse', channel_id: channelId, quota: UPSCALE });
    let l = await ledger();
    expect(l.quota).toBe(QUOTA - IMAGINE - UPSCALE);

    fake.fail(mjId, 'Job failed upstream');
    // Two rounds and the proxy's own callback race for the same refund.
    await Promise.all([tick(), post('/mj/notify', { id: mjId, status: 'FAILURE', failReason: 'Job failed upstream', progress: '50%' })]);
    await tick();
    const failed = await task(mjId);
    expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Job failed upstream', billing: 'refunded' });
    l = await ledger();
    expect(l.quota).toBe(QUOTA - IMAGINE);
    expect(l.remain).toBe(QUOTA - IMAGINE);
    const refunds = l.logs.filter((x) => x.type === 4);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.content).toMatch(new RegExp(`^构图失败 ${mjId}，补偿 `));
    // used_quota keeps what was consumed at the time; the refund is its own line.
    expect(l.used).toBe(IMAGINE + UPSCALE);
    expect(l.refunded).toBe(UPSCALE);
  });

  it('refused submissions charge nothing and keep a failed row; transport failures keep none', async () => {
    fake.nextSubmit({ body: { code: 24, description: '可能包含敏感词', properties: { promptEn: 'bad', bannedWord: 'bad' } } });
    const banned = await post('/mj/submit/imagine', { prompt: 'bad words' });
    expect(banned.status).toBe(200);
    expect(banned.body.code).toBe(24);
    const rows = await b.s.app.ctx.db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: 24, status: 'FAILURE', fail_reason: '可能包含敏感词', billing: 'released', progress: '100%' });

    fake.nextSubmit({ status: 500, body: 'proxy down' });
    const broken = await post('/mj/submit/imagine', { prompt: 'x' });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ description: 'unmarshal_response_body_failed ', type: 'upstream_error', code: 5 });

    fake.nextSubmit({ body: { code: 22, description: '排队中，前面还有1个任务', result: '7000000000000001', properties: { numberOfQueues: 1 } } });
    const queued = await post('/mj/submit/imagine', { prompt: 'queued' });
    expect(queued.body.code).toBe(1);

    const l = await ledger();
    expect(l.quota).toBe(QUOTA - IMAGINE);
    expect(l.logs.filter((x) => x.type === 2)).toHaveLength(1);
    expect(await b.s.app.ctx.db.selectFrom('midjourneys').select('id').where('user_id', '=', userId).execute()).toHaveLength(2);
  });

  it('refuses bad requests in the proxy error shape without charging', async () => {
    expect((await post('/mj/submit/imagine', { prompt: '' })).body).toEqual({ description: 'prompt_is_required ', type: 'upstream_error', code: 4 });
    expect((await post('/mj/submit/imagine', { prompt: 42 })).body).toMatchObject({ description: 'bind_request_body_failed ', code: 4 });
    expect((await post('/mj/submit/change', { taskId: 'x', action: 'UPSCALE' })).body).toMatchObject({ description: 'index_is_required ' });
    expect((await post('/mj/submit/change', { taskId: 'nope', action: 'UPSCALE', index: 1 })).body).toMatchObject({ description: 'task_not_found ' });
    expect((await post('/mj/submit/simple-change', { content: 'abc X9' })).body).toMatchObject({ description: 'content_parse_failed ' });
    expect((await post('/mj/submit/action', { customId: 'MJ::JOB::weird::1::x', taskId: 'x' })).body).toMatchObject({ description: 'unknown_action:MJ::JOB::weird::1::x ' });
    expect((await post('/mj/insight-face/swap', { sourceBase64: 'a' })).body).toMatchObject({ description: 'sour_base64_and_target_base64_is_required ' });
    expect((await get('/mj/task/unknown/fetch')).body).toMatchObject({ description: 'task_no_found ', code: 4 });
    // Text no database stores as sent (PostgreSQL refuses NUL): refused, nothing held or stored.
    const unstorable = { description: 'bind_request_body_failed ', type: 'upstream_error', code: 4 };
    expect(await post('/mj/submit/imagine', { prompt: 'a\u0000b' })).toEqual({ status: 400, body: unstorable });
    expect(await post('/mj/submit/imagine', { prompt: '\ud800' })).toEqual({ status: 400, body: unstorable });
    expect(await get('/mj/task/a%00b/fetch')).toEqual({ status: 400, body: unstorable });
    expect((await fetch(`${b.s.url}/mj/image/a%00b`)).status).toBe(400);
    const bad = await fetch(`${b.s.url}/mj/submit/imagine`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{oops' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { description: string }).description).toBe('bind_request_body_failed ');
    const noToken = await post('/mj/submit/imagine', { prompt: 'x' }, 'sk-nothing');
    expect(noToken.status).toBe(401);

    // A balance below the price is refused before anything reaches the upstream.
    const poor = await seedUser(b.s, IMAGINE - 1);
    const poorToken = await seedToken(b.s, poor.id);
    const before = fake.requests.length;
    const refused = await post('/mj/submit/imagine', { prompt: 'x' }, poorToken.apiKey);
    expect(refused).toEqual({ status: 400, body: { description: 'quota_not_enough ', type: 'upstream_error', code: 4 } });
    expect(fake.requests.length).toBe(before);
    const l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.logs).toHaveLength(0);
  });

  it('times tasks out after TaskTimeoutMinutes with one refund', async () => {
    await setOption(b, 'TaskTimeoutMinutes', '5');
    try {
      const submitted = await post('/mj/submit/imagine', { prompt: 'slow' });
      const mjId = submitted.body.result as string;
      await tick(Date.now() + 6 * 60_000);
      await tick(Date.now() + 7 * 60_000);
      expect(await task(mjId)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: '上游任务超时（超过5分钟）', billing: 'refunded' });
      const l = await ledger();
      expect(l.quota).toBe(QUOTA);
      expect(l.logs.filter((x) => x.type === 4)).toHaveLength(1);
    } finally {
      await setOption(b, 'TaskTimeoutMinutes', '60');
    }
  });

  it('a hold left by a submission that died with its process is given back by the next round, once', async () => {
    const db = b.s.app.ctx.db;
    // What a crash between the hold and the upstream's answer leaves: money taken, row held.
    await db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '-', IMAGINE) }))
      .where('id', '=', userId)
      .execute();
    await db
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '-', IMAGINE) }))
      .where('id', '=', tokenId)
      .execute();
    const stale = Date.now() - (HELD_STALE_SECONDS + 60) * 1000;
    await db
      .insertInto('midjourneys')
      .values({ user_id: userId, token_id: tokenId, action: 'IMAGINE', quota: IMAGINE, billing: 'held', submit_time: stale, channel_id: channelId, progress: '0%' })
      .execute();
    expect((await ledger()).held).toBe(IMAGINE);
    await tick();
    await tick();
    const l = await ledger();
    expect(l.quota).toBe(QUOTA);
    expect(l.held).toBe(0);
    const row = await db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ billing: 'released', status: 'FAILURE', progress: '100%' });
  });

  it('the callback touches only the caller’s tasks; the image proxy never fetches a user’s private address', async () => {
    const secret = createServer((_req, res) => res.end('internal secret'));
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    const port = (secret.address() as AddressInfo).port;
    try {
      const mjId = (await post('/mj/submit/imagine', { prompt: 'mine' })).body.result as string;
      const other = await seedUser(b.s, QUOTA);
      const otherToken = await seedToken(b.s, other.id);
      expect((await post('/mj/notify', { id: mjId, status: 'FAILURE', failReason: 'x' }, otherToken.apiKey)).body).toMatchObject({ description: 'midjourney_task_not_found ' });
      expect(await task(mjId)).toMatchObject({ status: 'SUBMITTED', billing: 'charged' });

      for (const [imageUrl, expected] of [
        [`http://127.0.0.1:${port}/`, 400],
        [`http://localhost:${port}/`, 500],
      ] as const) {
        expect((await post('/mj/notify', { id: mjId, imageUrl, progress: '60%', status: 'IN_PROGRESS' })).status).toBe(200);
        expect(await task(mjId)).toMatchObject({ image_url: imageUrl, progress: '60%' });
        const image = await fetch(`${b.s.url}/mj/image/${mjId}`);
        expect(image.status).toBe(expected);
        expect(await image.text()).not.toContain('internal secret');
      }
      // Not an http(s) address: not stored at all.
      expect((await post('/mj/notify', { id: mjId, imageUrl: 'file:///etc/passwd' })).status).toBe(200);
      expect((await task(mjId)).image_url).toBe(`http://localhost:${port}/`);

      // The console's lists give the forwarded address too.
      const root = await b.s.root();
      const listed = await root.get(`/api/mj/?mj_id=${mjId}`);
      expect(listed.body.data.items[0].image_url).toMatch(new RegExp(`^/mj/image/${mjId}\\?rand=\\d+$`));
      await setOption(b, 'MjForwardUrlEnabled', 'false');
      expect((await root.get(`/api/mj/?mj_id=${mjId}`)).body.data.items[0].image_url).toBe(`http://localhost:${port}/`);
      await setOption(b, 'MjForwardUrlEnabled', 'true');
    } finally {
      secret.close();
    }
  });

  it('only Midjourney channels draw, even when a chat channel lists the action for its price', async () => {
    const chat = await seedChannel(b.s, { type: 1, base_url: 'http://127.0.0.1:9', models: 'mj_imagine', priority: 100 });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await post('/mj/submit/imagine', { prompt: `fox ${i}` });
        expect(res.body.code).toBe(1);
        expect(await task(res.body.result as string)).toMatchObject({ channel_id: channelId });
      }
    } finally {
      await b.s.app.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', chat).execute();
      await b.relay.channels.refresh();
    }
  });

  it('mode prefixes: /mj-fast/mj/... is served, its mode kept for Plus channels only', async () => {
    const res = await post('/mj-fast/mj/submit/imagine', { prompt: 'fast fox' });
    expect(res.body.code).toBe(1);
    expect(fake.requests.at(-1)!.path).toBe('/mj/submit/imagine');
    const unknown = await fetch(`${b.s.url}/mj-warp/mj/submit/imagine`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: '{}' });
    expect(unknown.status).toBe(404);
  });
});

describeEachDialect('drawing tasks survive a restart', (dialect) => {
  it('a task charged before a restart is followed and refunded once by the next process', async () => {
    const fake = await startFakeMidjourney({ secret: 'mj-secret' });
    const first = await startTestServer(dialect, { env: { UPDATE_TASK: 'false' } });
    try {
      const user = await seedUser(first, QUOTA);
      const token = await seedToken(first, user.id);
      await seedChannel(first, { type: 2, base_url: fake.url, key: 'mj-secret', models: 'mj_imagine' });
      const res = await fetch(`${first.url}/mj/submit/imagine`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'x' }),
      });
      const mjId = ((await res.json()) as { result: string }).result;
      await first.app.close();

      fake.fail(mjId, 'lost');
      // Two processes over the same database, as after a restart next to a second node.
      const [a, c] = await Promise.all([
        startTestServer(dialect, { database: first.database, env: { UPDATE_TASK: 'false' } }),
        startTestServer(dialect, { database: first.database, env: { UPDATE_TASK: 'false' } }),
      ]);
      try {
        await Promise.all([relayOf(a.app.ctx)!.tasks.tick(), relayOf(c.app.ctx)!.tasks.tick()]);
        const db = a.app.ctx.db;
        const row = await db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).executeTakeFirstOrThrow();
        expect(row.billing).toBe('refunded');
        const u = await db.selectFrom('users').select(['quota']).where('id', '=', user.id).executeTakeFirstOrThrow();
        expect(Number(u.quota)).toBe(QUOTA);
        const refundLogs = await db.selectFrom('logs').select('id').where('user_id', '=', user.id).where('type', '=', 4).execute();
        expect(refundLogs).toHaveLength(1);
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
