/**
 * Channel tests and balances through /api/channel: one channel (optional model, mapping,
 * failures, untestable types), "test all" with its automatic disable/enable rules and root
 * notices, and balance refresh for every provider with a balance API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asBool } from '../../src/server/db/tables';
import { relayOf } from '../../src/server/relay/runtime';
import { channelTestsRunning } from '../../src/server/services/channels/channel-test.service';
import { setChannelStatus } from '../../src/server/services/channels/channel.service';
import { CHANNEL_STATUS } from '../../src/shared/channel-types';
import { ROLE_ADMIN } from '../../src/shared/roles';
import { startFakeBalance, type FakeBalance } from '../fakes/balance';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeWebhook, WEBHOOK_CA_FILE, type FakeWebhook } from '../fakes/webhook';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser } from '../helpers/users';

const GOOD = 'sk-fake-good';
const BAD = 'sk-fake-revoked';

describeEachDialect('channel tests and balances', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let fake: FakeOpenAI;
  let slowFake: FakeOpenAI;
  let balanceFake: FakeBalance;
  let hook: FakeWebhook;
  let counter = 0;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ keys: [GOOD] });
    slowFake = await startFakeOpenAI({ keys: [GOOD] });
    slowFake.defaultReply = { firstByteDelayMs: 1200 };
    balanceFake = await startFakeBalance();
    hook = await startFakeWebhook();
    s = await startTestServer(dialect, { env: { WEBHOOK_CA_FILE, NOTIFY_LIMIT_COUNT: '20' } });
    // Root's webhook receiver listens on loopback: allow private targets.
    await s.app.ctx.options.setInternal('WebhookPrivateAddressEnabled', 'true');
    root = await s.root();
    const rootId = root.userId!;
    await s.app.ctx.db
      .updateTable('users')
      .set({ setting: JSON.stringify({ notify_type: 'webhook', webhook_url: `${hook.url}/root` }) })
      .where('id', '=', rootId)
      .execute();
  });
  afterAll(async () => {
    await s?.close();
    for (const f of [fake, slowFake]) await f?.close();
    await balanceFake?.close();
    await hook?.close();
  });

  async function channel(fields: Record<string, unknown>): Promise<number> {
    const res = await root.post('/api/channel/', { name: `t${++counter}`, type: 1, key: GOOD, base_url: fake.url, models: 'gpt-4o-mini,gpt-4o', groups: ['default'], ...fields });
    expect(res.body).toMatchObject({ success: true });
    return res.body.data.ids[0] as number;
  }

  async function row(id: number) {
    return s.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function setOptions(values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) await s.app.ctx.options.setInternal(key, value);
  }

  describe('one channel', () => {
    it('tests with the first model, records time, writes the 模型测试 log for root and deducts nothing', async () => {
      const id = await channel({});
      const quotaBefore = (await s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', 1).executeTakeFirstOrThrow()).quota;
      fake.script({ usage: { prompt: 100, completion: 20 } });
      const res = await root.get(`/api/channel/test/${id}/`);
      expect(res.body).toEqual({ success: true, message: '', time: expect.any(Number) });
      expect(res.body.time).toBeGreaterThan(0);
      const sent = fake.requests.at(-1)!;
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.bearer).toBe(GOOD);
      expect(JSON.parse(sent.body)).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 });
      const after = await row(id);
      expect(after.test_time).toBeGreaterThan(0);
      expect(Math.abs(after.response_time - res.body.time * 1000)).toBeLessThanOrEqual(1);
      const log = await s.app.ctx.db.selectFrom('logs').selectAll().where('channel_id', '=', id).executeTakeFirstOrThrow();
      // gpt-4o-mini: (100 + 20 × 4) × 0.075 = 13.5 → 14; group ratio left out.
      expect(log).toMatchObject({ user_id: 1, type: 2, token_name: '模型测试', content: '模型测试', model_name: 'gpt-4o-mini', quota: 14, prompt_tokens: 100, completion_tokens: 20 });
      expect((await s.app.ctx.db.selectFrom('users').select('quota').where('id', '=', 1).executeTakeFirstOrThrow()).quota).toBe(quotaBefore);
    });

    it('uses ?model=, test_model, embeddings for embedding models, and the channel model mapping', async () => {
      const id = await channel({ test_model: 'gpt-4o', model_mapping: JSON.stringify({ 'gpt-4o': 'gpt-4o-2024-11-20' }) });
      expect((await root.get(`/api/channel/test/${id}`)).body).toMatchObject({ success: true });
      expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({ model: 'gpt-4o-2024-11-20' });
      expect((await root.get(`/api/channel/test/${id}?model=text-embedding-3-small`)).body).toMatchObject({ success: true });
      const sent = fake.requests.at(-1)!;
      expect(sent.path).toBe('/v1/embeddings');
      expect(JSON.parse(sent.body)).toEqual({ model: 'text-embedding-3-small', input: ['hello world'] });
      expect((await root.get(`/api/channel/test/${id}?model=o3-mini`)).body).toMatchObject({ success: true });
      expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({ model: 'o3-mini', max_completion_tokens: 10 });
    });

    it('reports upstream failures with their status and never changes the status of the tested channel', async () => {
      await setOptions({ AutomaticDisableChannelEnabled: 'true' });
      try {
        const id = await channel({ key: BAD });
        const res = await root.get(`/api/channel/test/${id}`);
        expect(res.body).toEqual({ success: false, message: 'status code 401: Incorrect API key provided.', time: expect.any(Number) });
        expect((await row(id)).status).toBe(CHANNEL_STATUS.enabled);
        expect((await row(id)).test_time).toBeGreaterThan(0);
        fake.script({ noUsage: true });
        const noUsage = await root.get(`/api/channel/test/${await channel({})}`);
        expect(noUsage.body).toMatchObject({ success: false, message: 'usage is nil' });
      } finally {
        await setOptions({ AutomaticDisableChannelEnabled: 'false' });
      }
    });

    it('refuses Midjourney and Suno channels, unknown ids, and non-admins', async () => {
      expect((await root.get(`/api/channel/test/${await channel({ type: 2 })}`)).body).toMatchObject({ success: false, message: 'midjourney channel test is not supported' });
      expect((await root.get(`/api/channel/test/${await channel({ type: 5 })}`)).body).toMatchObject({ success: false, message: 'midjourney plus channel test is not supported!!!' });
      expect((await root.get(`/api/channel/test/${await channel({ type: 36 })}`)).body).toMatchObject({ success: false, message: 'suno channel test is not supported' });
      expect((await root.get('/api/channel/test/999999')).body).toEqual({ success: false, message: 'record not found' });
      const user = await createUser(s, 'plaintester');
      const admin = await createUser(s, 'admintester', ROLE_ADMIN);
      expect((await user.client.get('/api/channel/test')).body).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
      expect((await user.client.get('/api/channel/update_balance')).body).toMatchObject({ success: false });
      expect((await admin.client.get('/api/channel/test/999999')).body).toMatchObject({ message: 'record not found' });
    });
  });

  describe('test all', () => {
    beforeEach(async () => {
      // Only the channels of each case take part.
      await s.app.ctx.db.deleteFrom('abilities').execute();
      await s.app.ctx.db.deleteFrom('channels').execute();
    });

    it('disables failing and slow channels, re-enables passing auto-disabled ones, leaves manual ones, tells root', async () => {
      await setOptions({ AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true', ChannelDisableThreshold: '1' });
      try {
        const good = await channel({});
        const revoked = await channel({ key: BAD });
        const revokedNoBan = await channel({ key: BAD, auto_ban: 0 });
        const slow = await channel({ base_url: slowFake.url });
        const recovered = await channel({});
        const manual = await channel({ key: 'sk-manual-marker' });
        await setChannelStatus(s.app.ctx, [recovered], CHANNEL_STATUS.autoDisabled, 'earlier failure');
        await setChannelStatus(s.app.ctx, [manual], CHANNEL_STATUS.disabled);
        const hooksBefore = hook.received.length;

        expect((await root.get('/api/channel/test')).body).toEqual({ success: true, message: '' });
        expect((await root.get('/api/channel/test')).body).toEqual({ success: false, message: '测试已在运行中' });
        await channelTestsRunning(s.app.ctx);

        expect((await row(good)).status).toBe(CHANNEL_STATUS.enabled);
        const revokedRow = await row(revoked);
        expect(revokedRow.status).toBe(CHANNEL_STATUS.autoDisabled);
        expect(JSON.parse(revokedRow.other_info).status_reason).toBe('status code 401: Incorrect API key provided.');
        expect((await row(revokedNoBan)).status).toBe(CHANNEL_STATUS.enabled);
        const slowRow = await row(slow);
        expect(slowRow.status).toBe(CHANNEL_STATUS.autoDisabled);
        expect(JSON.parse(slowRow.other_info).status_reason).toMatch(/^响应时间 \d+\.\d\ds 超过阈值 1\.00s$/);
        expect(slowRow.response_time).toBeGreaterThanOrEqual(1200);
        const recoveredRow = await row(recovered);
        expect(recoveredRow.status).toBe(CHANNEL_STATUS.enabled);
        expect(JSON.parse(recoveredRow.other_info).status_reason).toBeUndefined();
        expect((await row(manual)).status).toBe(CHANNEL_STATUS.disabled);
        expect((await row(manual)).test_time).toBe(0);
        expect(fake.requests.some((r) => r.bearer === 'sk-manual-marker')).toBe(false);

        // Abilities and the relay's selection index follow the status changes.
        const abilities = await s.app.ctx.db.selectFrom('abilities').selectAll().where('channel_id', 'in', [revoked, recovered]).execute();
        expect(abilities.filter((a) => a.channel_id === revoked).every((a) => !asBool(a.enabled))).toBe(true);
        expect(abilities.filter((a) => a.channel_id === recovered).every((a) => asBool(a.enabled))).toBe(true);
        const relay = relayOf(s.app.ctx)!;
        await relay.channels.refresh();
        expect(relay.channels.byId(revoked)?.status).toBe(CHANNEL_STATUS.autoDisabled);
        expect(relay.channels.byId(recovered)?.status).toBe(CHANNEL_STATUS.enabled);

        // Root heard of each change and of the end of the run.
        await expect.poll(() => hook.received.length - hooksBefore).toBe(4);
        const titles = hook.received.slice(hooksBefore).map((h) => h.json.title);
        expect(titles).toEqual(
          expect.arrayContaining([`通道「t${counter - 4}」（#${revoked}）已被禁用`, `通道「t${counter - 2}」（#${slow}）已被禁用`, `通道「t${counter - 1}」（#${recovered}）已被启用`, '通道测试完成']),
        );
        expect(titles.at(-1)).toBe('通道测试完成');
      } finally {
        await setOptions({ AutomaticDisableChannelEnabled: 'false', AutomaticEnableChannelEnabled: 'false', ChannelDisableThreshold: '5' });
      }
    });

    it('disables on failure only when AutomaticDisableChannelEnabled, and re-enables only when AutomaticEnableChannelEnabled', async () => {
      const revoked = await channel({ key: BAD });
      const recovered = await channel({});
      await setChannelStatus(s.app.ctx, [recovered], CHANNEL_STATUS.autoDisabled, 'earlier failure');
      await root.get('/api/channel/test');
      await channelTestsRunning(s.app.ctx);
      expect((await row(revoked)).status).toBe(CHANNEL_STATUS.enabled);
      expect((await row(recovered)).status).toBe(CHANNEL_STATUS.autoDisabled);
      expect((await row(recovered)).test_time).toBeGreaterThan(0);
    });
  });

  describe('balances', () => {
    it('reads OpenAI and Custom channels from the dashboard billing endpoints', async () => {
      fake.billing = { hardLimitUsd: 120, hasPaymentMethod: true, totalUsageCents: 2050 };
      const openai = await channel({ type: 1 });
      const res = await root.get(`/api/channel/update_balance/${openai}/`);
      expect(res.body).toEqual({ success: true, message: '', balance: 99.5 });
      const stored = await row(openai);
      expect(stored.balance).toBe(99.5);
      expect(stored.balance_updated_time).toBeGreaterThan(0);
      const today = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      expect(fake.billing.lastWindow).toEqual({ start: `${day(today).slice(0, 7)}-01`, end: day(today) });
      // Without a payment method the window is the last 100 days.
      fake.billing = { hardLimitUsd: 18, hasPaymentMethod: false, totalUsageCents: 300 };
      const custom = await channel({ type: 8 });
      expect((await root.get(`/api/channel/update_balance/${custom}`)).body).toEqual({ success: true, message: '', balance: 15 });
      expect(fake.billing.lastWindow?.start).toBe(day(new Date(today.getTime() - 100 * 86_400_000)));
      // A refused key: the upstream status.
      expect((await root.get(`/api/channel/update_balance/${await channel({ key: BAD })}`)).body).toEqual({ success: false, message: 'status code: 401' });
    });

    it('reads AIProxy, API2GPT, AIGC2D, SiliconFlow and DeepSeek in their own formats', async () => {
      const at = (type: number, key = balanceFake.key) => channel({ type, key, base_url: balanceFake.url, models: 'gpt-4o-mini' });
      const balance = async (id: number) => (await root.get(`/api/channel/update_balance/${id}`)).body;
      expect(await balance(await at(10))).toEqual({ success: true, message: '', balance: 88.5 });
      expect(await balance(await at(12))).toEqual({ success: true, message: '', balance: 12.25 });
      expect(await balance(await at(13))).toEqual({ success: true, message: '', balance: 7.75 });
      expect(await balance(await at(40))).toEqual({ success: true, message: '', balance: 14.3 });
      expect(await balance(await at(43))).toEqual({ success: true, message: '', balance: 42.1 });
      expect(await balance(await at(40, 'sk-wrong'))).toEqual({ success: false, message: 'code: 50001, message: Invalid token' });
      expect(await balance(await at(10, 'sk-wrong'))).toEqual({ success: false, message: 'code: 401, message: invalid key' });
      balanceFake.values.deepseek = [{ currency: 'USD', total_balance: '1.00' }];
      expect(await balance(await at(43))).toEqual({ success: false, message: 'currency CNY not found' });
      expect(await balance(await channel({ type: 3, other: '2024-10-21' }))).toEqual({ success: false, message: '尚未实现' });
      expect(await balance(999999)).toEqual({ success: false, message: 'record not found' });
    });

    it('refreshes every enabled channel and disables those at zero or below (whatever auto_ban)', async () => {
      await s.app.ctx.db.deleteFrom('abilities').execute();
      await s.app.ctx.db.deleteFrom('channels').execute();
      balanceFake.values.api2gptRemaining = 0;
      balanceFake.values.aigc2dAvailable = 3.5;
      const empty = await channel({ type: 12, key: balanceFake.key, base_url: balanceFake.url, auto_ban: 0 });
      const funded = await channel({ type: 13, key: balanceFake.key, base_url: balanceFake.url });
      const unsupported = await channel({ type: 3, other: '2024-10-21' });
      const disabled = await channel({ type: 13, key: balanceFake.key, base_url: balanceFake.url });
      await setChannelStatus(s.app.ctx, [disabled], CHANNEL_STATUS.disabled);
      const hooksBefore = hook.received.length;
      expect((await root.get('/api/channel/update_balance')).body).toEqual({ success: true, message: '' });
      const emptyRow = await row(empty);
      expect(emptyRow).toMatchObject({ balance: 0, status: CHANNEL_STATUS.autoDisabled });
      expect(JSON.parse(emptyRow.other_info).status_reason).toBe('余额不足');
      expect(await row(funded)).toMatchObject({ balance: 3.5, status: CHANNEL_STATUS.enabled });
      expect(await row(unsupported)).toMatchObject({ balance_updated_time: 0, status: CHANNEL_STATUS.enabled });
      expect(await row(disabled)).toMatchObject({ balance_updated_time: 0, status: CHANNEL_STATUS.disabled });
      await expect.poll(() => hook.received.length - hooksBefore).toBe(1);
      expect(hook.received.at(-1)!.json).toMatchObject({ type: 'channel_update', content: expect.stringContaining('原因：余额不足') });
    });
  });
});
