/**
 * Two nodes over one database: a token disabled on one node is refused by the other at once
 * with Redis (change events over pub/sub), and within SYNC_FREQUENCY without it. A channel
 * written on one node reaches the other's selection index the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { setTokenStatus } from '../../src/server/services/tokens/token.service';
import { seedChannel, seedToken, seedUser, type SeededToken } from './seed';

const redisUrl = process.env.TEST_REDIS_URL;
const sqlite = DIALECTS[0]!;

async function chat(url: string, apiKey: string, model = 'gpt-4o-mini'): Promise<{ status: number; message?: string }> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const json = (await res.json()) as { error?: { message: string } };
  return { status: res.status, message: json.error?.message.replace(/ \(request id: [^)]+\)$/, '') };
}

function twoNodes(title: string, env: Record<string, string>, secondEnv: Record<string, string>, body: (get: () => { a: TestServer; b: TestServer; fake: FakeOpenAI }) => void) {
  describe(title, () => {
    let a: TestServer;
    let b: TestServer;
    let fake: FakeOpenAI;
    beforeAll(async () => {
      fake = await startFakeOpenAI();
      a = await startTestServer(sqlite, { env });
      b = await startTestServer(sqlite, { env: { ...env, ...secondEnv }, database: a.database });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await fake?.close();
    });
    body(() => ({ a, b, fake }));
  });
}

async function setup(a: TestServer, fake: FakeOpenAI): Promise<{ userId: number; token: SeededToken }> {
  const user = await seedUser(a, 1_000_000);
  const token = await seedToken(a, user.id);
  await seedChannel(a, { type: 1, base_url: fake.url, models: 'gpt-4o-mini' });
  return { userId: user.id, token };
}

describe.skipIf(!redisUrl)('relay across nodes with Redis', () => {
  twoNodes('redis', { REDIS_CONN_STRING: redisUrl ?? '', SYNC_FREQUENCY: '600' }, {}, (get) => {
    it('refuses a token disabled on the other node at once, and sees its new channels at once', async () => {
      const { a, b, fake } = get();
      const { userId, token } = await setup(a, fake);
      await expect.poll(async () => (await chat(b.url, token.apiKey)).status, { timeout: 5000 }).toBe(200);
      await setTokenStatus(a.app.ctx, { id: userId, group: 'default' }, token.id, 2);
      await expect.poll(async () => (await chat(b.url, token.apiKey)).message, { timeout: 1000, interval: 50 }).toBe('该令牌状态不可用');
      await seedChannel(a, { type: 1, base_url: fake.url, models: 'gpt-4o' });
      const other = await seedToken(a, userId);
      await expect.poll(async () => (await chat(b.url, other.apiKey, 'gpt-4o')).status, { timeout: 1000, interval: 50 }).toBe(200);
    });
  });
});

twoNodes('relay across nodes without Redis', { SYNC_FREQUENCY: '600' }, { SYNC_FREQUENCY: '1' }, (get) => {
  it('refuses a token disabled on the other node within SYNC_FREQUENCY', async () => {
    const { a, b, fake } = get();
    const { userId, token } = await setup(a, fake);
    await b.app.ctx.options.reload();
    await expect.poll(async () => (await chat(b.url, token.apiKey)).status, { timeout: 5000 }).toBe(200);
    await setTokenStatus(a.app.ctx, { id: userId, group: 'default' }, token.id, 2);
    const changedAt = Date.now();
    await expect.poll(async () => (await chat(b.url, token.apiKey)).message, { timeout: 3000, interval: 100 }).toBe('该令牌状态不可用');
    expect(Date.now() - changedAt).toBeLessThan(2500);
  });
});
