/**
 * The scheduled channel checks (CHANNEL_TEST_FREQUENCY, CHANNEL_UPDATE_FREQUENCY, in minutes;
 * fractions here so a period is well under a second): on the master node a failing channel is
 * disabled and a recovered one enabled by the test rounds with root told of each (and not of
 * the round's end), balances are refreshed (an empty one disables its channel), all of it
 * visible in the channel list; rounds test a few channels at once and never overlap; the
 * server's close cancels a round at once without judging the channel under test; a slave
 * node runs none of it.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setChannelStatus } from '../../src/server/services/channels/channel.service';
import { CHANNEL_STATUS } from '../../src/shared/channel-types';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeWebhook, WEBHOOK_CA_FILE, type FakeWebhook } from '../fakes/webhook';
import { insertChannel } from '../helpers/channels';
import { createTestDatabase, describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';

const GOOD = 'sk-fake-good';
const BAD = 'sk-fake-revoked';
/** 0.6 seconds. */
const PERIOD_MINUTES = 0.01;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CHAT_ANSWER = {
  id: 'chatcmpl-slow',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

describeEachDialect('scheduled channel checks', (dialect) => {
  async function createChannel(root: ApiClient, fields: Record<string, unknown>): Promise<number> {
    const res = await root.post('/api/channel/', { name: `sched-${Math.random().toString(36).slice(2, 8)}`, type: 1, key: GOOD, models: 'gpt-4o-mini', groups: ['default'], ...fields });
    expect(res.body).toMatchObject({ success: true });
    return res.body.data.ids[0] as number;
  }

  async function setOptions(s: TestServer, values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) await s.app.ctx.options.setInternal(key, value);
  }

  describe('on the master node', () => {
    let s: TestServer;
    let root: ApiClient;
    let fake: FakeOpenAI;
    let broke: FakeOpenAI;
    let hook: FakeWebhook;

    beforeAll(async () => {
      fake = await startFakeOpenAI({ keys: [GOOD] });
      broke = await startFakeOpenAI({ keys: [GOOD] });
      broke.billing = { hardLimitUsd: 10, hasPaymentMethod: true, totalUsageCents: 1000 };
      hook = await startFakeWebhook();
      s = await startTestServer(dialect, {
        env: { WEBHOOK_CA_FILE, NOTIFY_LIMIT_COUNT: '50', CHANNEL_TEST_FREQUENCY: String(PERIOD_MINUTES), CHANNEL_UPDATE_FREQUENCY: String(PERIOD_MINUTES) },
      });
      await s.app.ctx.options.setInternal('WebhookPrivateAddressEnabled', 'true');
      await setOptions(s, { AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true' });
      root = await s.root();
      await s.app.ctx.db
        .updateTable('users')
        .set({ setting: JSON.stringify({ notify_type: 'webhook', webhook_url: `${hook.url}/root` }) })
        .where('id', '=', root.userId!)
        .execute();
    });
    afterAll(async () => {
      await s?.close();
      await fake?.close();
      await broke?.close();
      await hook?.close();
    });

    it('disables a failing channel, re-enables a recovered one, refreshes balances, and shows it all in the list', async () => {
      const hooksBefore = hook.received.length;
      const healthy = await createChannel(root, { base_url: fake.url });
      const failing = await createChannel(root, { base_url: fake.url, key: BAD });
      const recovered = await createChannel(root, { base_url: fake.url });
      const empty = await createChannel(root, { base_url: broke.url });
      // Disabled from its first instant: created enabled and disabled after, a sweep (every
      // PERIOD_MINUTES) could test it in between, as it should an enabled channel.
      const manual = (
        await insertChannel(
          s.app.ctx.db,
          { type: 1, name: 'sched-manual', key: 'sk-manual-marker', base_url: fake.url, models: 'gpt-4o-mini', group: 'default', status: CHANNEL_STATUS.disabled },
          { abilities: true },
        )
      ).id;
      await setChannelStatus(s.app.ctx, [recovered], CHANNEL_STATUS.autoDisabled, 'earlier failure');
      const row = (id: number) => s.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

      await expect.poll(async () => (await row(failing)).status, { timeout: 15_000, interval: 200 }).toBe(CHANNEL_STATUS.autoDisabled);
      expect(JSON.parse((await row(failing)).other_info).status_reason).toBe('status code 401: Incorrect API key provided.');
      await expect.poll(async () => (await row(recovered)).status, { timeout: 15_000, interval: 200 }).toBe(CHANNEL_STATUS.enabled);
      await expect.poll(async () => (await row(healthy)).balance, { timeout: 15_000, interval: 200 }).toBe(99.5);
      await expect.poll(async () => (await row(empty)).status, { timeout: 15_000, interval: 200 }).toBe(CHANNEL_STATUS.autoDisabled);
      expect(JSON.parse((await row(empty)).other_info).status_reason).toBe('余额不足');
      expect((await row(manual)).status).toBe(CHANNEL_STATUS.disabled);
      expect(fake.requests.some((r) => r.bearer === 'sk-manual-marker')).toBe(false);

      // Visible in the channel list: last test time, response time, balance and when it was read.
      const list = await root.get('/api/channel/?p=0&page_size=100');
      const listed = new Map((list.body.data.items as Record<string, number>[]).map((c) => [c.id, c]));
      const shown = listed.get(healthy)!;
      expect(shown.test_time).toBeGreaterThan(0);
      expect(shown.response_time).toBeGreaterThan(0);
      expect(shown.balance).toBe(99.5);
      expect(shown.balance_updated_time).toBeGreaterThan(0);
      expect(listed.get(manual)!.test_time).toBe(0);

      // Root heard of each change; a scheduled round does not announce its end.
      await expect
        .poll(
          () =>
            hook.received
              .slice(hooksBefore)
              .map((h) => h.json.title as string)
              .sort(),
          { timeout: 5_000 },
        )
        .toEqual(expect.arrayContaining([expect.stringContaining(`（#${failing}）已被禁用`), expect.stringContaining(`（#${recovered}）已被启用`), expect.stringContaining(`（#${empty}）已被禁用`)]));
      expect(hook.received.slice(hooksBefore).some((h) => h.json.title === '通道测试完成')).toBe(false);

      // The rounds go on: the healthy channel is tested again in a later one.
      const firstTest = (await row(healthy)).test_time;
      await expect.poll(async () => (await row(healthy)).test_time, { timeout: 15_000, interval: 250 }).toBeGreaterThan(firstTest);
    });
  });

  describe('rounds and shutdown', () => {
    it('tests at most four channels at once, never overlaps two rounds, and stops a round at once on close', async () => {
      const slow = await startFakeOpenAI({ keys: [GOOD] });
      let inFlight = 0;
      let most = 0;
      let delayMs = 300;
      slow.route('POST', '/v1/chat/completions', async (_request, _fake, res: ServerResponse) => {
        inFlight++;
        most = Math.max(most, inFlight);
        res.on('close', () => inFlight--);
        const until = Date.now() + delayMs;
        while (Date.now() < until && !res.destroyed) await sleep(20);
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CHAT_ANSWER));
      });
      // The database outlives the first server so the statuses can be read after its close.
      const database = await createTestDatabase(dialect);
      try {
        const s = await startTestServer(dialect, { database, env: { CHANNEL_TEST_FREQUENCY: String(PERIOD_MINUTES) } });
        // Slower than a second counts against a channel: what the close must not decide.
        await setOptions(s, { AutomaticDisableChannelEnabled: 'true', ChannelDisableThreshold: '1' });
        const root = await s.root();
        const ids: number[] = [];
        for (let i = 0; i < 10; i++) ids.push(await createChannel(root, { base_url: slow.url }));
        // A round of ten channels at 300 ms each, four at once, takes ~0.9 s: longer than the period.
        await expect.poll(() => slow.requests.length, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(25);
        expect(most).toBe(4);

        // Now an upstream that hangs: the close must not wait for it, nor judge the channels.
        delayMs = 60_000;
        await expect.poll(() => inFlight, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
        await sleep(1_500);
        const started = Date.now();
        await s.close();
        expect(Date.now() - started).toBeLessThan(5_000);
        await expect.poll(() => inFlight, { timeout: 5_000 }).toBe(0);

        const after = await startTestServer(dialect, { database });
        try {
          const statuses = await after.app.ctx.db.selectFrom('channels').select('status').where('id', 'in', ids).execute();
          expect(statuses.every((r) => r.status === CHANNEL_STATUS.enabled)).toBe(true);
        } finally {
          await after.close();
        }
      } finally {
        await database.drop();
        await slow.close();
      }
    });
  });

  describe('on a slave node', () => {
    it('runs no scheduled checks', async () => {
      const fake = await startFakeOpenAI({ keys: [GOOD] });
      const master = await startTestServer(dialect);
      try {
        const slave = await startTestServer(dialect, {
          database: master.database,
          env: { NODE_TYPE: 'slave', CHANNEL_TEST_FREQUENCY: String(PERIOD_MINUTES), CHANNEL_UPDATE_FREQUENCY: String(PERIOD_MINUTES) },
        });
        try {
          await setOptions(slave, { AutomaticDisableChannelEnabled: 'true' });
          const root = await master.root();
          const failing = await createChannel(root, { base_url: fake.url, key: BAD });
          await sleep(2_500);
          const row = await master.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', failing).executeTakeFirstOrThrow();
          expect(row).toMatchObject({ status: CHANNEL_STATUS.enabled, test_time: 0, balance_updated_time: 0 });
          expect(fake.requests).toEqual([]);
        } finally {
          await slave.close();
        }
      } finally {
        await master.close();
        await fake.close();
      }
    });
  });
});
