/**
 * /api/option and /api/status over the options catalogue: listing with secrets hidden,
 * validated writes that change nothing when refused, role levels, the model-ratio reset,
 * a key added by editing one schema file, and option changes reaching a second node.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config';
import { createAccount } from '../../src/server/services/users/user.service';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { CONSOLE_STATUS_FIELDS } from '../fixtures/status-fields';

const FORBIDDEN = '无权进行此操作，权限不足';
const REDIS = process.env.TEST_REDIS_URL;

/** A copy of schemas/ with one key added to one file: the whole "add a key" edit. */
function schemasWithNewKey(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-schemas-'));
  cpSync(join(projectRoot(), 'schemas'), dir, { recursive: true });
  const file = join(dir, 'options', 'operation-log.json');
  const section = JSON.parse(readFileSync(file, 'utf8'));
  section.properties.LogRetentionDays = {
    type: 'integer',
    default: 30,
    minimum: 1,
    title: 'Log retention',
    description: 'Days logs are kept',
    'x-i18n': { zh: { title: '日志保留天数' } },
    'x-public': 'log_retention_days',
    'x-ui': { widget: 'updown', unit: 'days' },
  };
  writeFileSync(file, JSON.stringify(section, null, 2));
  return dir;
}

describeEachDialect('options', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let schemasDir: string;
  const configure = (c: { schemasDir: string }) => {
    c.schemasDir = schemasDir;
  };
  const env: Record<string, string> = REDIS ? { REDIS_CONN_STRING: REDIS } : {};

  beforeAll(async () => {
    schemasDir = schemasWithNewKey();
    s = await startTestServer(dialect, { env, configure });
    root = await s.root();
  });
  afterAll(async () => {
    await s?.close();
    if (schemasDir) rmSync(schemasDir, { recursive: true, force: true });
  });

  /** Every option as a key → entry map, read through the API as root. */
  async function options(): Promise<Map<string, { key: string; value: string }>> {
    const res = await root.get('/api/option/');
    expect(res.body.success).toBe(true);
    return new Map(res.body.data.map((e: { key: string }) => [e.key, e]));
  }
  const value = async (key: string) => (await options()).get(key)?.value;
  const put = (key: string, v: unknown, client = root) => client.put('/api/option/', { key, value: v });
  const status = async () => (await s.client().get('/api/status')).body.data;

  it('lists every key with its default but the secrets, which /api/option/secrets reports as set or not', async () => {
    const all = await options();
    expect(all.get('SystemName')).toEqual({ key: 'SystemName', value: 'Switchyard' });
    expect(all.get('QuotaPerUnit')?.value).toBe('500000');
    expect(all.get('DataExportInterval')?.value).toBe('5');
    expect(all.has('SMTPToken')).toBe(false);
    const secrets = async () => new Map((await root.get('/api/option/secrets')).body.data.map((e: { key: string; is_set: boolean }) => [e.key, e.is_set]));
    expect((await secrets()).get('SMTPToken')).toBe(false);
    expect((await put('SMTPToken', 'smtp-secret-value')).body).toEqual({ success: true, message: '' });
    const after = await options();
    expect(after.has('SMTPToken')).toBe(false);
    expect((await secrets()).get('SMTPToken')).toBe(true);
    expect(JSON.stringify([...after.values()])).not.toContain('smtp-secret-value');
    expect(JSON.stringify((await root.get('/api/option/secrets')).body)).not.toContain('smtp-secret-value');
    expect(JSON.stringify(await status())).not.toContain('smtp-secret-value');
  });

  it('stores a write and reflects it in GET /api/option and /api/status', async () => {
    expect((await put('SystemName', 'Yard')).body.success).toBe(true);
    expect((await put('QuotaPerUnit', '1000')).body.success).toBe(true);
    expect((await put('DisplayInCurrencyEnabled', 'false')).body.success).toBe(true);
    const chats = [{ Mine: 'https://chat.example.com/?key={key}' }];
    expect((await put('Chats', JSON.stringify(chats))).body.success).toBe(true);
    expect(await value('SystemName')).toBe('Yard');
    expect(await value('DisplayInCurrencyEnabled')).toBe('false');
    const st = await status();
    expect(st).toMatchObject({ system_name: 'Yard', quota_per_unit: 1000, display_in_currency: false, chats });
  });

  it('refuses invalid JSON with its message and keeps the old value', async () => {
    const before = await value('GroupRatio');
    expect((await put('GroupRatio', '{"vip": 1,')).body).toEqual({ success: false, message: '分组倍率不是合法的 JSON 字符串' });
    expect((await put('TopupGroupRatio', 'not json')).body).toEqual({ success: false, message: '充值分组倍率不是合法的 JSON 字符串' });
    expect(await value('GroupRatio')).toBe(before);
    expect(await value('TopupGroupRatio')).toBe('{"default":1,"vip":1,"svip":1}');
  });

  it('refuses JSON of the wrong shape', async () => {
    const before = await value('GroupRatio');
    for (const bad of ['{"vip":-1}', '{"vip":"1"}', '[1,2]']) {
      const res = await put('GroupRatio', bad);
      expect(res.body.success, bad).toBe(false);
      expect(res.body.message).toMatch(/^输入不合法 GroupRatio/);
    }
    expect((await put('Chats', '{"a":"b"}')).body.success).toBe(false);
    expect((await put('Chats', '[{"a":"b","c":"d"}]')).body.success).toBe(false);
    expect((await put('UserUsableGroups', '{"vip":1}')).body.success).toBe(false);
    expect(await value('GroupRatio')).toBe(before);
    expect((await put('GroupRatio', '{"default":1,"vip":0.5}')).body.success).toBe(true);
  });

  it('answers HTTP 400 无效的参数 for a value that is not a string', async () => {
    for (const v of [false, 5, { a: 1 }]) {
      const res = await put('RegisterEnabled', v);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: '无效的参数' });
    }
    // null is "no value" (as the reference's console sends empty fields): "" for a switch,
    // which is refused by the key's own rule, and nothing changes.
    const empty = await put('RegisterEnabled', null);
    expect(empty.body).toEqual({ success: false, message: '输入不合法 RegisterEnabled: must be true or false' });
    expect(await value('RegisterEnabled')).toBe('true');
  });

  it('refuses an unknown key and stores nothing', async () => {
    const res = await put('NoSuchOption', 'x');
    expect(res.body).toEqual({ success: false, message: '配置项不存在：NoSuchOption' });
    const row = await s.app.ctx.db.selectFrom('options').select('key').where('key', '=', 'NoSuchOption').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses values of the wrong type', async () => {
    for (const [key, bad] of [
      ['QuotaForNewUser', 'abc'],
      ['QuotaForNewUser', '1.5'],
      ['QuotaForNewUser', ''],
      ['RegisterEnabled', 'yes'],
      ['RegisterEnabled', 'TRUE'],
    ] as const) {
      const res = await put(key, bad);
      expect(res.body.success, `${key}=${bad}`).toBe(false);
      expect(res.body.message).toMatch(new RegExp(`^输入不合法 ${key}: `));
    }
    expect(await value('QuotaForNewUser')).toBe('0');
    expect(await value('RegisterEnabled')).toBe('true');
  });

  it('enforces minimum, maximum and enum', async () => {
    const refused = [
      ['DataExportInterval', '0'],
      ['QuotaRemindThreshold', '-1'],
      ['ModelRequestRateLimitCount', '-2'],
      ['ModelRequestRateLimitSuccessCount', '0'],
      ['claude.thinking_adapter_budget_tokens_percentage', '1.5'],
      ['claude.thinking_adapter_budget_tokens_percentage', '0.05'],
      ['DataExportDefaultTime', 'month'],
      ['SMTPPort', '70000'],
      ['QuotaPerUnit', '0'],
    ];
    for (const [key, bad] of refused) expect((await put(key!, bad)).body.success, `${key}=${bad}`).toBe(false);
    expect((await put('DataExportDefaultTime', 'month')).body.message).toContain('hour, day, week');
    expect(await value('DataExportInterval')).toBe('5');
    for (const [key, good] of [
      ['DataExportInterval', '1'],
      ['ModelRequestRateLimitCount', '-1'],
      ['claude.thinking_adapter_budget_tokens_percentage', '0.1'],
      ['DataExportDefaultTime', 'week'],
    ]) {
      expect((await put(key!, good)).body.success, `${key}=${good}`).toBe(true);
    }
    expect((await status()).data_export_default_time).toBe('week');
  });

  it('applies x-requires, then strips trailing slashes from addresses', async () => {
    expect((await put('PayAddress', 'https://pay.example.com')).body).toEqual({ success: false, message: '请先填写服务器地址' });
    expect((await put('GitHubOAuthEnabled', 'true')).body).toEqual({
      success: false,
      message: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    });
    expect((await put('oidc.enabled', 'true')).body.message).toBe('无法启用 OIDC 登录，请先填入 OIDC Client Id 以及 OIDC Client Secret！');
    expect((await put('GitHubOAuthEnabled', 'false')).body.success).toBe(true);
    expect((await put('GitHubClientId', 'gh-client')).body.success).toBe(true);
    expect((await put('GitHubOAuthEnabled', 'true')).body.success).toBe(true);

    expect((await put('ServerAddress', 'https://gw.example.com///')).body.success).toBe(true);
    expect((await put('PayAddress', 'https://pay.example.com/')).body.success).toBe(true);
    expect(await value('ServerAddress')).toBe('https://gw.example.com');
    expect(await value('PayAddress')).toBe('https://pay.example.com');
    // A pattern's failure is told in the key's own words (its x-messages), not a generic one.
    const notUrl = await put('ServerAddress', 'gw.example.com');
    expect({ status: notUrl.status, body: notUrl.body }).toEqual({ status: 400, body: { success: false, message: '服务器地址必须以 http:// 或 https:// 开头，例如 https://yourdomain.com' } });
    expect((await put('WorkerUrl', 'worker.example.com')).body).toEqual({ success: false, message: 'Worker 地址必须以 http:// 或 https:// 开头' });
    expect(await status()).toMatchObject({ server_address: 'https://gw.example.com', github_oauth: true, github_client_id: 'gh-client' });
  });

  describe('roles', () => {
    let admin: ApiClient;
    let common: ApiClient;
    beforeAll(async () => {
      const adminId = await createAccount(s.app.ctx, { username: 'optadmin', password: 'admin-pass-1' });
      await s.app.ctx.db.updateTable('users').set({ role: 10 }).where('id', '=', adminId).execute();
      await createAccount(s.app.ctx, { username: 'optuser', password: 'user-pass-1' });
      admin = await s.login('optadmin', 'admin-pass-1');
      common = await s.login('optuser', 'user-pass-1');
    });

    it('lets an admin read and change operation keys but not system keys', async () => {
      expect((await admin.get('/api/option/')).body.success).toBe(true);
      expect((await put('QuotaForNewUser', '100', admin)).body).toEqual({ success: true, message: '' });
      expect(await value('QuotaForNewUser')).toBe('100');
      for (const key of ['ServerAddress', 'SMTPServer', 'PasswordLoginEnabled', 'Price', 'TopUpLink']) {
        expect((await put(key, key === 'PasswordLoginEnabled' ? 'false' : '1', admin)).body, key).toEqual({ success: false, message: FORBIDDEN });
      }
      expect(await value('PasswordLoginEnabled')).toBe('true');
    });

    it('refuses a common user', async () => {
      expect((await common.get('/api/option/')).body).toEqual({ success: false, message: FORBIDDEN });
      expect((await put('SystemName', 'x', common)).body).toEqual({ success: false, message: FORBIDDEN });
      expect((await common.post('/api/option/rest_model_ratio')).body).toEqual({ success: false, message: FORBIDDEN });
    });
  });

  it('restores the default model ratios with rest_model_ratio', async () => {
    const original = await value('ModelRatio');
    expect(JSON.parse(original!)['gpt-4o']).toBe(1.25);
    expect((await put('ModelRatio', '{"my-model":3}')).body.success).toBe(true);
    expect((await put('CompletionRatio', '{"my-model":2}')).body.success).toBe(true);
    expect((await root.post('/api/option/rest_model_ratio')).body).toEqual({ success: true, message: '重置模型倍率成功' });
    expect(await value('ModelRatio')).toBe(original);
    expect(await value('CompletionRatio')).toBe('{"my-model":2}');
    // Reset means "the built-in table": the row goes rather than holding a copy of it.
    expect(await s.app.ctx.db.selectFrom('options').select('key').where('key', '=', 'ModelRatio').executeTakeFirst()).toBeUndefined();
  });

  it('publishes every status field the console reads', async () => {
    const st = await status();
    for (const field of CONSOLE_STATUS_FIELDS) expect(st, field).toHaveProperty([field]);
    expect(st).toMatchObject({ price: 7.3, min_topup: 1, docs_link: '', enable_drawing: true, mj_notify_enabled: false });
  });

  describe('a key added by editing one schema file', () => {
    it('is answered with its default and never written to the options table', async () => {
      expect(await value('LogRetentionDays')).toBe('30');
      const row = await s.app.ctx.db.selectFrom('options').select('value').where('key', '=', 'LogRetentionDays').executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('is listed, validated, stored and published', async () => {
      expect(await value('LogRetentionDays')).toBe('30');
      expect((await status()).log_retention_days).toBe(30);
      expect((await put('LogRetentionDays', '0')).body.message).toMatch(/^输入不合法 LogRetentionDays: must be >= 1/);
      expect((await put('LogRetentionDays', 'ten')).body.success).toBe(false);
      expect((await put('LogRetentionDays', '45')).body.success).toBe(true);
      expect(await value('LogRetentionDays')).toBe('45');
      expect((await status()).log_retention_days).toBe(45);
    });
  });

  describe.skipIf(!REDIS)('two nodes over one database and Redis', () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startTestServer(dialect, { env: { ...env, NODE_TYPE: 'slave' }, configure, database: s.database });
    });
    afterAll(async () => {
      await second?.close();
    });

    /** Polls `read` until it returns `expected`, for at most one second. */
    async function within1s(read: () => Promise<unknown>, expected: unknown): Promise<unknown> {
      const deadline = Date.now() + 1000;
      let seen = await read();
      while (seen !== expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        seen = await read();
      }
      return seen;
    }

    it('sees an option change of the other node within a second', async () => {
      const nameOn = (server: TestServer) => async () => (await server.client().get('/api/status')).body.data.system_name;
      expect((await put('SystemName', 'Node A wrote this')).body.success).toBe(true);
      expect(await within1s(nameOn(second), 'Node A wrote this')).toBe('Node A wrote this');
      const secondRoot = await second.root();
      expect((await secondRoot.put('/api/option/', { key: 'SystemName', value: 'Node B wrote this' })).body.success).toBe(true);
      expect(await within1s(nameOn(s), 'Node B wrote this')).toBe('Node B wrote this');
    });

    it('sees a reset to the built-in default of the other node within a second', async () => {
      const secondRoot = await second.root();
      const ratiosOnSecond = async () => ((await secondRoot.get('/api/option/')).body.data as { key: string; value: string }[]).find((o) => o.key === 'ModelRatio')?.value;
      expect((await put('ModelRatio', '{"only-model":2}')).body.success).toBe(true);
      expect(await within1s(ratiosOnSecond, '{"only-model":2}')).toBe('{"only-model":2}');
      expect((await root.post('/api/option/rest_model_ratio')).body.success).toBe(true);
      const builtIn = s.app.ctx.options.def('ModelRatio')!.defaultText;
      expect(await within1s(ratiosOnSecond, builtIn)).toBe(builtIn);
    });
  });
});
