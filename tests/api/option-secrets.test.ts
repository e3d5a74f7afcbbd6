/**
 * Secrets survive a round trip (issue #13, item 3). GET /api/option/ leaves every x-secret key
 * out, as the reference does, so a script that reads every option and writes each one back
 * (the way the reference's console and operators' scripts do) never blanks a secret; the
 * console reads whether each secret is set from GET /api/option/secrets. A write without a
 * value (the reference's console sends a secret it never loaded that way) keeps the secret;
 * only an explicit "" clears one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';

describeEachDialect('option secrets', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  /** Every key marked x-secret in schemas/options, with the value the test stores in it. */
  let secrets: Map<string, string>;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    const keys = [...s.app.ctx.options.catalogue.keys.values()].filter((d) => d.secret).map((d) => d.key);
    secrets = new Map(keys.map((key) => [key, `stored-${key}-0123456789`]));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The value in the options table itself, not what the API says. */
  async function stored(key: string): Promise<string | null | undefined> {
    const row = await s.app.ctx.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async function storeEverySecret(): Promise<void> {
    for (const [key, value] of secrets) {
      expect((await root.put('/api/option/', { key, value })).body, key).toEqual({ success: true, message: '' });
    }
  }

  async function expectSecretsUnchanged(): Promise<void> {
    for (const [key, value] of secrets) expect(await stored(key), key).toBe(value);
  }

  it('covers the secrets of the catalogue: SMTP, payment, OAuth, Turnstile, Telegram, WeChat, worker', () => {
    for (const key of ['SMTPToken', 'EpayKey', 'GitHubClientSecret', 'LinuxDOClientSecret', 'oidc.client_secret', 'TurnstileSecretKey', 'TelegramBotToken', 'WeChatServerToken', 'WorkerValidKey']) {
      expect(secrets.has(key), key).toBe(true);
    }
  });

  it('a script that reads every option and writes each one back changes no secret', async () => {
    await storeEverySecret();
    const read = await root.get('/api/option/');
    expect(read.body.success).toBe(true);
    const entries = read.body.data as Array<{ key: string; value: string }>;
    expect(entries.length).toBeGreaterThan(50);
    // The secrets are not in the list at all, neither their keys nor their values.
    expect(entries.filter((e) => secrets.has(e.key))).toEqual([]);
    for (const value of secrets.values()) expect(JSON.stringify(read.body)).not.toContain(value);
    // Written back exactly as read, one call per key, as the reference's console saves.
    for (const { key, value } of entries) {
      expect((await root.put('/api/option/', { key, value })).body, key).toEqual({ success: true, message: '' });
    }
    await expectSecretsUnchanged();
  });

  it('the console learns only whether each secret is set', async () => {
    const res = await root.get('/api/option/secrets');
    expect(res.body.success).toBe(true);
    const status = new Map((res.body.data as Array<{ key: string; is_set: boolean }>).map((e) => [e.key, e.is_set]));
    expect([...status.keys()].sort()).toEqual([...secrets.keys()].sort());
    for (const key of secrets.keys()) expect(status.get(key), key).toBe(true);
    for (const value of secrets.values()) expect(JSON.stringify(res.body)).not.toContain(value);
    expect((await s.client().get('/api/option/secrets')).status).toBe(401);
  });

  it('a write that leaves the value out keeps the secret (the reference console saving a section it never loaded the secret of)', async () => {
    for (const key of ['EpayKey', 'TelegramBotToken', 'SMTPToken']) {
      const res = await root.put('/api/option/', { key });
      // Whatever the answer, nothing is blanked.
      expect(res.body.success === true || res.status === 400, key).toBe(true);
    }
    await expectSecretsUnchanged();
  });

  it('an explicit empty value still clears a secret', async () => {
    expect((await root.put('/api/option/', { key: 'WorkerValidKey', value: '' })).body).toEqual({ success: true, message: '' });
    expect(await stored('WorkerValidKey')).toBe('');
    const res = await root.get('/api/option/secrets');
    expect(res.body.data.find((e: { key: string }) => e.key === 'WorkerValidKey')).toEqual({ key: 'WorkerValidKey', is_set: false });
  });
});
