/**
 * Blind SSRF through a user's notification webhook (issue #12 item 9): an ordinary user's
 * webhook address may not point at loopback, private, link-local or metadata addresses,
 * neither when saved (literal addresses, and names resolving to them) nor when a notice is
 * sent (after the connection's own DNS lookup, so a stored or rebound name gains nothing),
 * unless the operator switches WebhookPrivateAddressEnabled on.
 *
 * Only loopback is ever contacted: the other forbidden targets are literal addresses,
 * refused without a connection.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { warnIfQuotaLow } from '../../src/server/services/notifications/quota-warning';
import { startFakeWebhook, WEBHOOK_CA_FILE, type FakeWebhook } from '../fakes/webhook';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser } from '../helpers/users';

const REFUSED = 'Webhook地址不能指向本机或内网地址';

function logSink() {
  const lines: Array<{ details: any; message: string }> = [];
  return { lines, warn: (details: object, message: string) => void lines.push({ details, message }) };
}

describeEachDialect('webhook targets', (dialect) => {
  let s: TestServer;
  let hook: FakeWebhook;
  let root: ApiClient;
  let port: string;
  let counter = 0;

  beforeAll(async () => {
    hook = await startFakeWebhook();
    port = new URL(hook.url).port;
    // The private CA stays trusted (WEBHOOK_CA_FILE) whatever the switch says.
    s = await startTestServer(dialect, { env: { WEBHOOK_CA_FILE } });
    root = await s.root();
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  const settingOf = async (id: number) => (await s.app.ctx.db.selectFrom('users').select('setting').where('id', '=', id).executeTakeFirstOrThrow()).setting;
  const storeSetting = (id: number, setting: Record<string, unknown>) =>
    s.app.ctx.db
      .updateTable('users')
      .set({ setting: JSON.stringify(setting) })
      .where('id', '=', id)
      .execute();
  const saveHook = (c: ApiClient, url: string) => c.put('/api/user/setting', { notify_type: 'webhook', quota_warning_threshold: 1000, webhook_url: url, webhook_secret: 's' });
  const setSwitch = (value: boolean) => root.put('/api/option/', { key: 'WebhookPrivateAddressEnabled', value: String(value) });
  /** A warning due for `id`, sent through the real delivery path (each user has its own throttle). */
  const warn = (id: number, log = logSink()) => warnIfQuotaLow(s.app.ctx, { userId: id, quotaBefore: 10, charge: 1 }, log);

  it('refuses loopback, private, link-local and metadata addresses when saved, however written', async () => {
    const u = await createUser(s, `ssrf${++counter}`);
    const before = await settingOf(u.id);
    for (const url of [
      `https://127.0.0.1:${port}/hook`,
      'https://127.1.2.3/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0.0.0.0/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.8/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://100.64.0.1/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
    ]) {
      const res = await saveHook(u.client, url);
      expect(res.body, url).toEqual({ success: false, message: REFUSED });
    }
    expect(await settingOf(u.id)).toBe(before);
    expect(hook.received).toHaveLength(0);
    // Public addresses are fine (nothing is contacted when saving).
    expect((await saveHook(u.client, 'https://93.184.215.14/hook')).body).toMatchObject({ success: true });
  });

  it('refuses a name that resolves to loopback when saved', async () => {
    const u = await createUser(s, `ssrf${++counter}`);
    const res = await saveHook(u.client, `https://localhost:${port}/named`);
    expect(res.body).toEqual({ success: false, message: REFUSED });
    expect(JSON.parse((await settingOf(u.id)) || '{}').webhook_url).toBeUndefined();
  });

  it('refuses at connect time an address stored past the check: a name resolving to loopback, or a literal', async () => {
    const log = logSink();
    const named = await createUser(s, `ssrf${++counter}`);
    await storeSetting(named.id, { notify_type: 'webhook', webhook_url: `https://localhost:${port}/rebound`, webhook_secret: 's' });
    expect(await warn(named.id, log)).toBe('failed');
    const literal = await createUser(s, `ssrf${++counter}`);
    await storeSetting(literal.id, { notify_type: 'webhook', webhook_url: `https://127.0.0.1:${port}/stored`, webhook_secret: 's' });
    expect(await warn(literal.id, log)).toBe('failed');
    // Give a stray delivery time to land: nothing reached the receiver.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.received).toHaveLength(0);
    expect(log.lines.map((l) => l.details.reason)).toEqual(['webhook address is not public', 'webhook address is not public']);
    expect(JSON.stringify(log.lines)).not.toContain(port);
  });

  it('lets the operator allow private targets (root only), and refuses them again when switched off', async () => {
    const admin = await createUser(s, `ssrfadmin${++counter}`, 10);
    expect((await admin.client.put('/api/option/', { key: 'WebhookPrivateAddressEnabled', value: 'true' })).body.success).toBe(false);
    const u = await createUser(s, `ssrf${++counter}`);
    expect((await setSwitch(true)).body.success).toBe(true);
    try {
      expect((await saveHook(u.client, `https://localhost:${port}/allowed`)).body).toMatchObject({ success: true });
      expect(await warn(u.id)).toBe('sent');
      const got = await hook.next();
      expect(got.path).toBe('/allowed');
    } finally {
      expect((await setSwitch(false)).body.success).toBe(true);
    }
    const received = hook.received.length;
    const again = await createUser(s, `ssrf${++counter}`);
    await storeSetting(again.id, { notify_type: 'webhook', webhook_url: `https://localhost:${port}/allowed` });
    expect(await warn(again.id)).toBe('failed');
    expect((await saveHook(u.client, `https://localhost:${port}/allowed`)).body).toEqual({ success: false, message: REFUSED });
    expect(hook.received.length).toBe(received);
  });
});
