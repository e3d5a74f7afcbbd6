import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_ROOT } from '../../src/shared/roles';
import { CHANNEL_TESTS_DONE_NOTICE, channelDisabledNotice, channelEnabledNotice, notifyRoot } from '../../src/server/services/notifications/channel-notices';
import { deliverNotice } from '../../src/server/services/notifications/deliver';
import { loadRecipient } from '../../src/server/services/notifications/recipient';
import { postWebhook } from '../../src/server/services/notifications/webhook';
import { QUOTA_WARNING_TITLE, warnIfQuotaLow, type SettledCharge } from '../../src/server/services/notifications/quota-warning';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { startFakeWebhook, WEBHOOK_CA_FILE, type FakeWebhook } from '../fakes/webhook';
import { DIALECTS, describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const SERVER_ADDRESS = 'https://gateway.example.com';
const SECRET = 'hook-secret-Δ1';
const TEMPLATE_TEXT = (quota: string) =>
  `${QUOTA_WARNING_TITLE}，当前剩余额度为 ${quota}，为了不影响您的使用，请及时充值。<br/>充值链接：<a href='${SERVER_ADDRESS}/topup'>${SERVER_ADDRESS}/topup</a>`;

/** Collects warn lines instead of printing them. */
function logSink() {
  const lines: Array<{ details: any; message: string }> = [];
  return { lines, warn: (details: object, message: string) => void lines.push({ details, message }) };
}

async function setOptions(s: TestServer, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await s.app.ctx.options.setInternal(key, value);
}

async function storeSetting(s: TestServer, userId: number, setting: Record<string, unknown>): Promise<void> {
  await s.app.ctx.db
    .updateTable('users')
    .set({ setting: JSON.stringify(setting) })
    .where('id', '=', userId)
    .execute();
}

describeEachDialect('notifications', (dialect) => {
  let s: TestServer;
  let smtp: FakeSmtp;
  let hook: FakeWebhook;
  let mailUser: TestUser;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    hook = await startFakeWebhook();
    s = await startTestServer(dialect, { env: { WEBHOOK_CA_FILE, NOTIFY_LIMIT_COUNT: '2' } });
    // The receiver listens on loopback: the operator allows private targets here (webhook-targets.test.ts covers the refusal).
    await setOptions(s, { SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), SMTPAccount: 'noreply@example.com', ServerAddress: SERVER_ADDRESS, WebhookPrivateAddressEnabled: 'true' });
    mailUser = await createUser(s, 'mailwarn');
    await s.app.ctx.db.updateTable('users').set({ email: 'account@example.com' }).where('id', '=', mailUser.id).execute();
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
    await hook?.close();
  });

  it('mails the quota warning with the template filled, once per 2 hours, to the saved address', async () => {
    const put = await mailUser.client.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: 300000, notification_email: 'alerts@example.com' });
    expect(put.body).toMatchObject({ success: true });
    const log = logSink();
    const charge: SettledCharge = { userId: mailUser.id, quotaBefore: 600000, charge: 350000 };
    expect(await warnIfQuotaLow(s.app.ctx, charge, log)).toBe('sent');
    const mail = await smtp.nextMail('alerts@example.com');
    expect(mail.subject).toBe(QUOTA_WARNING_TITLE);
    // The quota at the start of the request, in currency with 6 decimals (DisplayInCurrencyEnabled).
    expect(mail.html).toContain(TEMPLATE_TEXT('＄1.200000'));
    expect(await warnIfQuotaLow(s.app.ctx, charge, log)).toBe('throttled');
    expect(smtp.messages.filter((m) => m.to.includes('alerts@example.com'))).toHaveLength(1);
    expect(log.lines).toEqual([]);
  });

  it('warns only when quota minus charge falls below the threshold (own, else 500000), and never for a free request', async () => {
    const other = await createUser(s, 'nowarn');
    const ctx = s.app.ctx;
    const log = logSink();
    // Cached setting with its own threshold: above it, nothing is read or sent.
    expect(await warnIfQuotaLow(ctx, { userId: other.id, quotaBefore: 1_000_000, charge: 100, setting: { quota_warning_threshold: 5000 } }, log)).toBeUndefined();
    // No saved threshold: the console's default 500000.
    expect(await warnIfQuotaLow(ctx, { userId: other.id, quotaBefore: 500_100, charge: 50, setting: {} }, log)).toBeUndefined();
    expect(await warnIfQuotaLow(ctx, { userId: other.id, quotaBefore: 100, charge: 0, setting: {} }, log)).toBeUndefined();
    // Due, but the account has no email and no notification address: skipped without using the allowance.
    expect(await warnIfQuotaLow(ctx, { userId: other.id, quotaBefore: 500_100, charge: 200, setting: {} }, log)).toBe('no-address');
    await ctx.db.updateTable('users').set({ email: 'nowarn@example.com' }).where('id', '=', other.id).execute();
    expect(await warnIfQuotaLow(ctx, { userId: other.id, quotaBefore: 500_100, charge: 200 }, log)).toBe('sent');
    expect((await smtp.nextMail('nowarn@example.com')).html).toContain('当前剩余额度为 ＄1.000200');
  });

  it('posts https webhooks with Bearer secret and the HMAC signature of the exact body', async () => {
    const user = await createUser(s, 'hookwarn');
    const put = await user.client.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 1000, webhook_url: `${hook.url}/quota`, webhook_secret: SECRET });
    expect(put.body).toMatchObject({ success: true });
    const before = Math.floor(Date.now() / 1000);
    await setOptions(s, { DisplayInCurrencyEnabled: 'false' });
    try {
      expect(await warnIfQuotaLow(s.app.ctx, { userId: user.id, quotaBefore: 900, charge: 10 }, logSink())).toBe('sent');
    } finally {
      await setOptions(s, { DisplayInCurrencyEnabled: 'true' });
    }
    const got = await hook.next();
    expect(got.path).toBe('/quota');
    expect(got.headers['content-type']).toBe('application/json');
    // Header bytes are the secret's UTF-8 (any character may be in a secret).
    expect(Buffer.from(got.headers.authorization!, 'latin1').toString('utf8')).toBe(`Bearer ${SECRET}`);
    expect(got.headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(got.raw, 'utf8').digest('hex'));
    expect(got.json).toMatchObject({
      type: 'quota_exceed',
      title: QUOTA_WARNING_TITLE,
      content: TEMPLATE_TEXT('900'),
      values: [QUOTA_WARNING_TITLE, '900', `${SERVER_ADDRESS}/topup`, `${SERVER_ADDRESS}/topup`],
    });
    expect(got.json.timestamp).toBeGreaterThanOrEqual(before);
  });

  it('sends no Authorization nor signature without a secret; non-2xx, plain http and bad TLS count as failures', async () => {
    const user = await createUser(s, 'hookfail');
    const log = logSink();
    const due = { userId: user.id, quotaBefore: 10, charge: 1 };
    await storeSetting(s, user.id, { notify_type: 'webhook', webhook_url: `${hook.url}/nosecret` });
    expect(await warnIfQuotaLow(s.app.ctx, due, log)).toBe('sent');
    const got = await hook.next();
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers['x-webhook-signature']).toBeUndefined();

    // Each failure is attempted on a fresh user (the throttle counts attempts).
    const attempt = async (name: string, url: string) => {
      const u = await createUser(s, name);
      await storeSetting(s, u.id, { notify_type: 'webhook', webhook_url: url, webhook_secret: SECRET });
      return warnIfQuotaLow(s.app.ctx, { ...due, userId: u.id }, log);
    };
    hook.status = 500;
    try {
      expect(await attempt('hook500', `${hook.url}/down`)).toBe('failed');
      await hook.next();
    } finally {
      hook.status = 200;
    }
    const calls = hook.received.length;
    // An address stored before the https rule, or edited in the database: never called.
    expect(await attempt('hookhttp', hook.url.replace('https:', 'http:'))).toBe('failed');
    expect(hook.received.length).toBe(calls);
    expect(log.lines.map((l) => l.details.reason)).toEqual(['webhook answered status 500', 'webhook address is not https']);
    // Without the extra CA the self-signed receiver is not trusted.
    const notice = channelEnabledNotice({ id: 1, name: 'x' });
    await expect(postWebhook({ webhookCaFile: '' }, { url: `${hook.url}/untrusted`, secret: '' }, notice, { allowPrivate: true })).rejects.toThrow(/webhook request failed/);
    expect(hook.received.length).toBe(calls);
    // Nothing logged carries the secret or the address.
    expect(JSON.stringify(log.lines)).not.toContain(SECRET);
    expect(JSON.stringify(log.lines)).not.toContain(hook.url);
  });

  it('tells root about channel status changes and finished tests, throttled per type (NOTIFY_LIMIT_COUNT)', async () => {
    const root = await s.app.ctx.db.selectFrom('users').select('id').where('role', '=', ROLE_ROOT).orderBy('id').executeTakeFirstOrThrow();
    await storeSetting(s, root.id, { notify_type: 'webhook', webhook_url: `${hook.url}/root`, webhook_secret: SECRET });
    const log = logSink();
    const channel = { id: 42, name: 'main <openai>' };
    expect(await notifyRoot(s.app.ctx, channelDisabledNotice(channel, 'status code 401: bad key'), log)).toBe('sent');
    expect((await hook.next()).json).toMatchObject({
      type: 'channel_update',
      title: '通道「main <openai>」（#42）已被禁用',
      content: '通道「main <openai>」（#42）已被禁用，原因：status code 401: bad key',
    });
    expect(await notifyRoot(s.app.ctx, channelEnabledNotice(channel), log)).toBe('sent');
    expect((await hook.next()).json).toMatchObject({ type: 'channel_update', title: '通道「main <openai>」（#42）已被启用' });
    expect(await notifyRoot(s.app.ctx, channelEnabledNotice(channel), log)).toBe('throttled');
    // Another type has its own allowance.
    expect(await notifyRoot(s.app.ctx, CHANNEL_TESTS_DONE_NOTICE, log)).toBe('sent');
    expect((await hook.next()).json).toMatchObject({ type: 'channel_test', title: '通道测试完成', content: '所有通道测试已完成', values: [] });
  });

  it('escapes values in the mail body (channel names and upstream reasons are not HTML)', async () => {
    const root = await s.app.ctx.db.selectFrom('users').select('id').where('role', '=', ROLE_ROOT).orderBy('id').executeTakeFirstOrThrow();
    await storeSetting(s, root.id, { notify_type: 'email', notification_email: 'root@example.com' });
    const notice = channelDisabledNotice({ id: 7, name: '<b>x</b>' }, 'a & b');
    // channel_update's allowance of root was used up above: delivered with a throttle of its own.
    const recipient = (await loadRecipient(s.app.ctx.db, root.id))!;
    expect(await deliverNotice(s.app.ctx, recipient, notice, { limit: 5, seconds: 1 }, logSink())).toBe('sent');
    const mail = await smtp.nextMail('root@example.com');
    expect(mail.subject).toBe('通道「<b>x</b>」（#7）已被禁用');
    expect(mail.html).toContain('通道「&lt;b&gt;x&lt;/b&gt;」（#7）已被禁用，原因：a &amp; b');
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('notifications: the throttle is shared by nodes through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let hook: FakeWebhook;
  let redis: Redis;

  beforeAll(async () => {
    hook = await startFakeWebhook();
    redis = new Redis(process.env.TEST_REDIS_URL!);
    const env = { REDIS_CONN_STRING: process.env.TEST_REDIS_URL!, WEBHOOK_CA_FILE };
    a = await startTestServer(DIALECTS[0]!, { env });
    b = await startTestServer(DIALECTS[0]!, { env, database: a.database });
    await a.app.ctx.options.setInternal('WebhookPrivateAddressEnabled', 'true');
    await b.app.ctx.options.setInternal('WebhookPrivateAddressEnabled', 'true');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await hook?.close();
    redis?.disconnect();
  });

  it('a warning sent by one node throttles the other for 2 hours', async () => {
    const user = await createUser(a, 'redishook');
    // User ids repeat across test databases: forget what an earlier run left for this id.
    await redis.del(`rateLimit:NOTIFY:quota_exceed:${user.id}`);
    await storeSetting(a, user.id, { notify_type: 'webhook', webhook_url: `${hook.url}/r`, webhook_secret: SECRET });
    const due = { userId: user.id, quotaBefore: 10, charge: 1 };
    expect(await warnIfQuotaLow(a.app.ctx, due, logSink())).toBe('sent');
    await hook.next();
    expect(await warnIfQuotaLow(b.app.ctx, due, logSink())).toBe('throttled');
    const ttl = await redis.pttl(`rateLimit:NOTIFY:quota_exceed:${user.id}`);
    expect(ttl).toBeGreaterThan(119 * 60_000);
    expect(ttl).toBeLessThanOrEqual(120 * 60_000);
  });
});
