/**
 * Redis going away (issue #12, items 4–5), on a Redis server of the test's own: the console
 * and its rate limits keep working on the node's memory, verification codes too; when Redis
 * comes back the node uses it again and reloads its caches at once, so a change made on
 * another node during the outage (a token disabled) is honoured within seconds.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { canRunOwnRedis, startOwnRedis, type OwnRedis } from '../helpers/own-redis';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { setTokenStatus } from '../../src/server/services/tokens/token.service';
import { seedChannel, seedToken, seedUser } from './seed';

const sqlite = DIALECTS[0]!;
const LIMIT = 12;

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!canRunOwnRedis)('Redis outage: the console keeps working on this node’s memory', () => {
  let redis: OwnRedis;
  let s: TestServer;
  beforeAll(async () => {
    redis = await startOwnRedis();
    s = await startTestServer(sqlite, {
      env: { REDIS_CONN_STRING: redis.url, GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: String(LIMIT), GLOBAL_API_RATE_LIMIT_DURATION: '60' },
    });
  });
  afterAll(async () => {
    await s?.close();
    await redis?.stop();
  });

  it('answers, limits and keeps codes without Redis, and goes back to it when it returns', async () => {
    const probe = new Redis(redis.url);
    expect((await s.client().get('/api/status')).status).toBe(200);
    // Shared while Redis is there: the limiter's log is in Redis.
    expect(await probe.exists('rateLimit:GA:127.0.0.1')).toBe(1);
    probe.disconnect();

    await redis.kill();
    await waitFor(() => !s.app.ctx.redisLink!.up);
    const timings: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      expect((await s.client().get('/api/status')).status).toBe(200);
      timings.push(Date.now() - started);
    }
    const root = await s.root();
    expect((await root.get('/api/user/self')).body.success).toBe(true);
    await s.app.ctx.codes.put('verify', 'a@example.com', '123456', 60);
    expect(await s.app.ctx.codes.consume('verify', 'a@example.com', '123456')).toBe(true);
    console.log(`console during the Redis outage: /api/status in ${timings.join(', ')} ms`);
    // The node's own limit still holds: the window fills up and the next call is refused.
    let refused = 0;
    for (let i = 0; i < LIMIT + 2; i++) if ((await s.client().get('/api/status')).status === 429) refused++;
    expect(refused).toBeGreaterThanOrEqual(2);

    await redis.start();
    await waitFor(() => s.app.ctx.redisLink!.up);
    const again = new Redis(redis.url);
    await s.client().get('/api/status');
    expect(await again.exists('rateLimit:GA:127.0.0.1')).toBe(1);
    again.disconnect();
  });
});

async function chat(url: string, apiKey: string): Promise<{ status: number; message?: string }> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
  const json = (await res.json()) as { error?: { message: string } };
  return { status: res.status, message: json.error?.message.replace(/ \(request id: [^)]+\)$/, '') };
}

describe.skipIf(!canRunOwnRedis)('Redis outage across two nodes', () => {
  let redis: OwnRedis;
  let a: TestServer;
  let b: TestServer;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    redis = await startOwnRedis();
    fake = await startFakeOpenAI();
    // Periodic reloads far away: only Redis can tell B in time.
    const env = { REDIS_CONN_STRING: redis.url, SYNC_FREQUENCY: '600' };
    a = await startTestServer(sqlite, { env });
    b = await startTestServer(sqlite, { env, database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
    await redis?.stop();
  });

  it('a token disabled on A while Redis is down is refused by B within 2 s of Redis returning', async () => {
    const user = await seedUser(a, 1_000_000);
    const token = await seedToken(a, user.id);
    await seedChannel(a, { type: 1, base_url: fake.url, models: 'gpt-4o-mini' });
    await b.app.ctx.options.reload();
    await expect.poll(async () => (await chat(b.url, token.apiKey)).status, { timeout: 5000 }).toBe(200);

    await redis.kill();
    await waitFor(() => !a.app.ctx.redisLink!.up && !b.app.ctx.redisLink!.up);
    await setTokenStatus(a.app.ctx, { id: user.id, group: 'default' }, token.id, 2);
    // B cannot know yet: its cache still holds the token. The outage lasts a while (an
    // announcement queued in a client would have given up by then).
    expect((await chat(b.url, token.apiKey)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3000));
    expect((await chat(b.url, token.apiKey)).status).toBe(200);

    await redis.start();
    const back = Date.now();
    await expect.poll(async () => (await chat(b.url, token.apiKey)).message, { timeout: 4000, interval: 50 }).toBe('该令牌状态不可用');
    const seconds = (Date.now() - back) / 1000;
    console.log(`B refused the token ${seconds.toFixed(2)} s after Redis returned`);
    expect(seconds).toBeLessThan(2);
  });
});
