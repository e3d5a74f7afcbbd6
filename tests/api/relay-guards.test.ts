/**
 * The relay guards and the quota warning through the real gateway (`POST /v1/chat/completions`
 * with an sk- token): the per-user model request rate limit, the sensitive-word check, and the
 * warning sent after a billed request brings the user below their threshold.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeWebhook, WEBHOOK_CA_FILE, type FakeWebhook } from '../fakes/webhook';
import { describeEachDialect } from '../helpers/dialects';
import { setOption, startBench, type Bench } from '../relay/harness';
import { seedChannel, seedToken, seedUser } from '../relay/seed';

describeEachDialect('relay guards', (dialect) => {
  let fake: FakeOpenAI;
  let hook: FakeWebhook;
  let b: Bench;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    hook = await startFakeWebhook();
    b = await startBench(dialect, { env: { WEBHOOK_CA_FILE } });
    // The webhook receiver listens on loopback: allow private targets.
    await setOption(b, 'WebhookPrivateAddressEnabled', 'true');
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini' });
    await b.relay.channels.refresh();
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
    await hook?.close();
  });
  beforeEach(async () => {
    await setOption(b, 'ModelRequestRateLimitEnabled', 'false');
  });

  /** A chat request with its own user and token (counters are per user). */
  async function caller(quota = 100_000_000) {
    const user = await seedUser(b.s, quota);
    const token = await seedToken(b.s, user.id);
    const chat = (content: string) =>
      fetch(`${b.s.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
      });
    const models = () => fetch(`${b.s.url}/v1/models`, { headers: { authorization: `Bearer ${token.apiKey}` } });
    return { user, token, chat, models };
  }

  it('refuses a prompt with a sensitive word (400, OpenAI shape), calls no upstream and charges nothing', async () => {
    const { user, chat } = await caller();
    const calls = fake.requests.length;
    const res = await chat('please say Test_Sensitive twice');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: 'new_api_error', code: 'sensitive_words_detected' });
    expect(body.error.message).toMatch(/^sensitive words detected \(request id: \w+\)$/);
    expect(fake.requests.length).toBe(calls);
    await b.flush();
    const row = await b.s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.quota).toBe(100_000_000);
    expect((await chat('a harmless prompt')).status).toBe(200);
  });

  it('limits total requests per user and period, failures included, with the reference message', async () => {
    await setOption(b, 'ModelRequestRateLimitEnabled', 'true');
    await setOption(b, 'ModelRequestRateLimitDurationMinutes', '1');
    await setOption(b, 'ModelRequestRateLimitCount', '2');
    await setOption(b, 'ModelRequestRateLimitSuccessCount', '1000');
    const a = await caller();
    expect((await a.chat('test_sensitive')).status).toBe(400);
    expect((await a.chat('hello')).status).toBe(200);
    const refused = await a.chat('hello');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('new_api_error');
    expect(body.error.message).toMatch(/^您已达到总请求数限制：1分钟内最多请求2次，包括失败次数，请检查您的请求是否正确 \(request id: \w+\)$/);
    // Another user has counters of their own; /v1/models is never limited.
    expect((await (await caller()).chat('hello')).status).toBe(200);
    expect((await a.models()).status).toBe(200);
  });

  it('counts only successful requests against the success limit', async () => {
    await setOption(b, 'ModelRequestRateLimitEnabled', 'true');
    await setOption(b, 'ModelRequestRateLimitCount', '0');
    await setOption(b, 'ModelRequestRateLimitSuccessCount', '1');
    const a = await caller();
    fake.script({ error: { status: 500, message: 'upstream broke', type: 'server_error' } });
    expect((await a.chat('hello')).status).toBe(500);
    expect((await a.chat('test_sensitive')).status).toBe(400);
    expect((await a.chat('hello')).status).toBe(200);
    const refused = await a.chat('hello');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^您已达到请求数限制：1分钟内最多请求1次 \(request id/);
  });

  it('warns the user by webhook once a billed request leaves them below their threshold', async () => {
    const a = await caller(600_000);
    const setting = { notify_type: 'webhook', quota_warning_threshold: 599_990, webhook_url: `${hook.url}/relay`, webhook_secret: 'relay-secret' };
    await b.s.app.ctx.db
      .updateTable('users')
      .set({ setting: JSON.stringify(setting) })
      .where('id', '=', a.user.id)
      .execute();
    const before = hook.received.length;
    fake.script({ usage: { prompt: 10, completion: 5 } });
    expect((await a.chat('first')).status).toBe(200);
    await b.flush();
    // (10 + 5 × 4) × 0.075 = 2.25 → 2: 600000 − 2 is still above 599990.
    fake.script({ usage: { prompt: 1000, completion: 100 } });
    expect((await a.chat('second')).status).toBe(200);
    await b.flush();
    const got = await hook.next();
    expect(hook.received.length - before).toBe(1);
    expect(got.path).toBe('/relay');
    expect(got.headers.authorization).toBe('Bearer relay-secret');
    // The quota when the request started, in currency: 599998 / 500000.
    expect(got.json).toMatchObject({ type: 'quota_exceed', title: '您的额度即将用尽' });
    expect(got.json.values.slice(0, 2)).toEqual(['您的额度即将用尽', '＄1.199996']);
    expect(got.json.content).toContain('当前剩余额度为 ＄1.199996');
    // A second qualifying request within 2 hours sends nothing.
    fake.script({ usage: { prompt: 1000, completion: 100 } });
    expect((await a.chat('third')).status).toBe(200);
    await b.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received.length - before).toBe(1);
  });
});
