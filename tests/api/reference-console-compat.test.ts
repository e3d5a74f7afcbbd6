/**
 * The reference's web console against our server (issue #13): the console API calls its
 * pages make (Calcium-Ion/new-api web/src, April 2025, axios 0.27), replayed with the
 * method, path, query and body exactly as they send them, including the records they read
 * and send back whole, the fields of later versions (`original_password`), `aff_code: null`,
 * `NaN` time filters and bodiless POST/DELETE calls. Every call must succeed: a stricter
 * server fails here first.
 *
 * Newer consoles of the same product send more fields (records grew: a channel's `settings`,
 * `remark`, `channel_info`; a token's `cross_group_retry`, `billing_type`; more notification
 * channels); they ride along in the calls below as a newer console sends them, and are dropped.
 *
 * Where our answer deliberately differs from the reference (paging shape, time units of the
 * drawing log), our documented rule wins (docs/console-api.md#paging,
 * docs/tasks.md#task-lists) and the call still succeeds; see the notes beside the calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { describeEachDialect } from '../helpers/dialects';
import { ApiClient, startTestServer, type ApiResponse, type TestServer } from '../helpers/server';
import { createAccount } from '../../src/server/services/users/user.service';

/** Fields a newer console's channel record and form carry (model/channel.go of later versions). */
const NEWER_CHANNEL_FIELDS = {
  settings: '{}',
  remark: '',
  header_override: '',
  channel_info: { is_multi_key: false, multi_key_size: 0, multi_key_status_list: null, multi_key_polling_index: 0, multi_key_mode: '' },
};
/** Fields a newer console's token record and form carry (model/token.go of later versions). */
const NEWER_TOKEN_FIELDS = { cross_group_retry: false, billing_type: 0 };

/** Fields no version sends: what a script might add. */
const EXTRA = { comment: 'sent by a script', client_version: 2 };

/** The reference console's `timestamp2string` (local time, `YYYY-MM-DD HH:mm:ss`). */
function timestamp2string(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** What the console's `Date.parse(text) / 1000` puts into a URL (`NaN` for an empty field). */
function parsedSeconds(text: string): string {
  return String(Date.parse(text) / 1000);
}

/**
 * The console's axios instance: the New-API-User and Cache-Control headers on every call;
 * a body only when the call passes data (axios 0.27 then sends JSON; without data it sends
 * no Content-Type and no body).
 */
class ReferenceConsole {
  constructor(readonly client: ApiClient) {}

  private headers(): Record<string, string> {
    return { 'cache-control': 'no-store', accept: 'application/json, text/plain, */*' };
  }
  get(url: string): Promise<ApiResponse> {
    return this.client.request('GET', url, undefined, this.headers());
  }
  delete(url: string): Promise<ApiResponse> {
    return this.client.request('DELETE', url, undefined, this.headers());
  }
  post(url: string, data?: unknown): Promise<ApiResponse> {
    return this.client.request('POST', url, data === undefined ? undefined : JSON.stringify(data), this.headers());
  }
  put(url: string, data: unknown): Promise<ApiResponse> {
    return this.client.request('PUT', url, JSON.stringify(data), this.headers());
  }
}

/** The console's `const { success, message, data } = res.data; if (success) ...`. */
function succeeded(res: ApiResponse, what: string): any {
  expect({ call: what, status: res.status, success: res.body?.success, message: res.body?.message }).toEqual({
    call: what,
    status: 200,
    success: true,
    message: expect.any(String),
  });
  return res.body.data;
}

describeEachDialect('the reference console against our server', (dialect) => {
  let s: TestServer;
  let admin: ReferenceConsole;
  let user: ReferenceConsole;
  let userId: number;
  let fake: FakeOpenAI;
  const now = Math.floor(Date.now() / 1000);

  /** LoginForm.js: `POST /api/user/login?turnstile=` with `{username, password}`; the reply's id becomes New-API-User. */
  async function signIn(username: string, password: string): Promise<ReferenceConsole> {
    const session = new ReferenceConsole(new ApiClient(s.url));
    const data = succeeded(await session.post('/api/user/login?turnstile=', { username, password }), 'login');
    expect(data.id).toEqual(expect.any(Number));
    return session;
  }

  beforeAll(async () => {
    s = await startTestServer(dialect);
    fake = await startFakeOpenAI({ keys: ['sk-compat-good'], models: ['gpt-4o', 'compat-model'] });
    admin = await signIn('root', '123456');
    userId = await createAccount(s.app.ctx, { username: 'compat_user', password: 'compat-pass-1' });
    user = await signIn('compat_user', 'compat-pass-1');
  });
  afterAll(async () => {
    await fake?.close();
    await s?.close();
  });

  describe('accounts', () => {
    it('RegisterForm.js: registers without an invitation (aff_code null) and with one', async () => {
      const guest = new ReferenceConsole(new ApiClient(s.url));
      succeeded(await guest.get('/api/status'), 'status');
      // `inputs.aff_code = affCode` where affCode is localStorage.getItem('aff'): null without an invitation.
      const inputs = { username: 'compat_reg', password: 'compat-pass-1', password2: 'compat-pass-1', email: '', verification_code: '', aff_code: null };
      succeeded(await guest.post('/api/user/register?turnstile=', inputs), 'register, aff_code null');
      const code = succeeded(await admin.get('/api/user/aff'), 'own invite code');
      succeeded(
        await guest.post('/api/user/register?turnstile=', { username: 'compat_inv', password: 'compat-pass-2', password2: 'compat-pass-2', email: '', verification_code: '', aff_code: code }),
        'register with an invitation',
      );
      await signIn('compat_reg', 'compat-pass-1');
    });

    it('PersonalSetting.js and EditUser.js: reads the own record, edits it whole, changes the password', async () => {
      const self = succeeded(await user.get('/api/user/self'), 'GET self');
      succeeded(await user.get('/api/user/models'), 'own models');
      succeeded(await user.get('/api/user/self/groups'), 'own groups');
      succeeded(await user.get('/api/user/token'), 'system access token');
      succeeded(await user.get('/api/user/aff'), 'invite code');
      // EditUser.js without an id: the record it read, password blanked, sent back whole.
      succeeded(await user.put('/api/user/self', { ...self, password: '', display_name: 'Compat User' }), 'PUT self, whole record');
      // PersonalSetting.js (April 2025): only the new password.
      succeeded(await user.put('/api/user/self', { password: 'compat-pass-3' }), 'PUT self, password');
      // Later consoles send the current password beside the new one; fields this server does
      // not know (a newer client's) are dropped.
      succeeded(await user.put('/api/user/self', { original_password: 'compat-pass-3', password: 'compat-pass-4', sidebar_modules: '{}', remark: '' }), 'PUT self, original_password');
      user = await signIn('compat_user', 'compat-pass-4');
      expect((await s.app.ctx.db.selectFrom('users').select('display_name').where('id', '=', userId).executeTakeFirstOrThrow()).display_name).toBe('Compat User');
    });

    it('PersonalSetting.js: saves notification settings and transfers invitation rewards', async () => {
      succeeded(
        await user.put('/api/user/setting', {
          notify_type: 'email',
          quota_warning_threshold: parseFloat('500000'),
          webhook_url: '',
          webhook_secret: '',
          notification_email: '',
          accept_unset_model_ratio_model: false,
        }),
        'PUT setting',
      );
      // A newer console's saveNotificationSettings(): more notification channels and switches.
      succeeded(
        await user.put('/api/user/setting', {
          notify_type: 'email',
          quota_warning_threshold: parseFloat('500000'),
          webhook_url: '',
          webhook_secret: '',
          notification_email: '',
          bark_url: '',
          gotify_url: '',
          gotify_token: '',
          gotify_priority: 5,
          upstream_model_update_notify_enabled: false,
          accept_unset_model_ratio_model: false,
          record_ip_log: false,
        }),
        'PUT setting, newer console',
      );
      expect(JSON.parse((await s.app.ctx.db.selectFrom('users').select('setting').where('id', '=', userId).executeTakeFirstOrThrow()).setting ?? '{}')).not.toHaveProperty('bark_url');
      await s.app.ctx.db.updateTable('users').set({ aff_quota: 1000000 }).where('id', '=', userId).execute();
      succeeded(await user.post('/api/user/aff_transfer', { quota: 500000 }), 'aff_transfer');
    });

    it('UsersTable.js, AddUser.js, EditUser.js: lists, searches, creates, edits whole and manages a user', async () => {
      succeeded(await admin.get('/api/user/?p=0&page_size=10'), 'user list');
      succeeded(await admin.get('/api/user/search?keyword=compat&group=&p=0&page_size=10'), 'user search');
      succeeded(await admin.get('/api/group/'), 'groups');
      succeeded(await admin.post('/api/user/', { username: 'compat_new', display_name: 'Compat New', password: 'compat-pass-5', remark: '' }), 'add user');
      const id = (await s.app.ctx.db.selectFrom('users').select('id').where('username', '=', 'compat_new').executeTakeFirstOrThrow()).id;
      const record = succeeded(await admin.get(`/api/user/${id}`), 'GET user');
      record.password = '';
      // submit(): `{ ...inputs, id: parseInt(userId) }`, quota parsed when the quota dialog left a string.
      succeeded(await admin.put('/api/user/', { ...record, id, quota: parseInt('1000'), remark: 'newer record field' }), 'PUT user, whole record');
      for (const action of ['disable', 'enable', 'promote', 'demote']) {
        succeeded(await admin.post('/api/user/manage', { id, action }), `manage ${action}`);
      }
    });
  });

  describe('settings (SystemSetting.js, OperationSetting.js, SettingsLog.js, ModelRatioSettings.js)', () => {
    it('reads the options and saves them one call each, with and without a value', async () => {
      succeeded(await admin.get('/api/option/'), 'options');
      succeeded(await admin.put('/api/option/', { key: 'Notice', value: 'compat notice' }), 'PUT option');
      succeeded(await admin.put('/api/option/', { key: 'DisplayTokenStatEnabled', value: true.toString() }), 'PUT switch option');
      // `{ key, value: inputs.WorkerValidKey }` for a secret the list left out: undefined, so no value at all.
      succeeded(await admin.put('/api/option/', { key: 'WorkerUrl', value: '' }), 'PUT option, empty value');
      succeeded(await admin.put('/api/option/', { key: 'TopUpLink' }), 'PUT option without a value');
      expect((await s.client().get('/api/notice')).body.data).toBe('compat notice');
    });

    it('resets the model ratios and cleans logs with bodiless calls', async () => {
      // As the console sends them: no data, so no Content-Type and no body.
      succeeded(await admin.post('/api/option/rest_model_ratio'), 'rest_model_ratio');
      succeeded(await admin.delete(`/api/log/?target_timestamp=${Date.parse(timestamp2string(now - 86400)) / 1000}`), 'DELETE logs');
      // Scripts and other clients: `Content-Type: application/json` with an empty body.
      const json = { 'content-type': 'application/json' };
      succeeded(await admin.client.request('POST', '/api/option/rest_model_ratio', '', json), 'rest_model_ratio, empty JSON body');
      succeeded(await admin.client.request('DELETE', `/api/log/?target_timestamp=${now - 86400}`, '', json), 'DELETE logs, empty JSON body');
      succeeded(await admin.client.request('POST', '/api/channel/fix', '', json), 'channel fix, empty JSON body');
    });
  });

  describe('channels (ChannelsTable.js, EditChannel.js, EditTagModal.js)', () => {
    let ids: number[] = [];

    it('creates a channel from the form, edits it whole, changes status, priority and weight from the table', async () => {
      succeeded(await admin.get('/api/channel/?p=0&page_size=10&id_sort=false&tag_mode=false'), 'channel list');
      succeeded(await admin.get('/api/channel/search?keyword=&group=&model=&id_sort=false&tag_mode=false'), 'channel search');
      succeeded(await admin.get('/api/channel/models'), 'channel models');
      succeeded(await admin.get('/api/models'), 'models by type');
      // EditChannel.js submit() on create: the form's inputs, models joined, group from groups.
      const localInputs = {
        name: 'compat-channel',
        type: 1,
        key: 'sk-compat-good\nsk-compat-two',
        openai_organization: '',
        max_input_tokens: 0,
        base_url: fake.url,
        other: '',
        model_mapping: '',
        status_code_mapping: '',
        models: ['gpt-4o', 'compat-model'].join(','),
        auto_ban: 1,
        test_model: '',
        groups: ['default'],
        priority: 0,
        weight: 0,
        tag: 'compat-tag',
        group: ['default'].join(','),
      };
      succeeded(await admin.post('/api/channel/fetch_models', { base_url: localInputs.base_url, type: localInputs.type, key: localInputs.key }), 'fetch_models by key');
      succeeded(await admin.post('/api/channel/', localInputs), 'create channel');
      ids = (await s.app.ctx.db.selectFrom('channels').select('id').where('name', '=', 'compat-channel').orderBy('id').execute()).map((r) => r.id);
      expect(ids).toHaveLength(2);

      // loadChannel(): models and group split into lists, model_mapping pretty-printed when set.
      const data = succeeded(await admin.get(`/api/channel/${ids[0]}`), 'GET channel');
      data.models = data.models === '' ? [] : data.models.split(',');
      data.groups = data.group === '' ? [] : data.group.split(',');
      if (data.model_mapping !== '') data.model_mapping = JSON.stringify(JSON.parse(data.model_mapping), null, 2);
      succeeded(await admin.get(`/api/channel/fetch_models/${ids[0]}`), 'fetch_models by id');
      // submit() on edit.
      const edited = { ...data, name: 'compat-channel-edited', auto_ban: 0, models: data.models.join(','), group: data.groups.join(',') };
      succeeded(await admin.put('/api/channel/', { ...edited, id: parseInt(String(ids[0])) }), 'PUT channel, whole record');
      // A newer console's record carries more fields.
      succeeded(await admin.put('/api/channel/', { ...edited, ...NEWER_CHANNEL_FIELDS, id: ids[0] }), 'PUT channel, newer record');
      succeeded(await admin.post('/api/channel/', { ...localInputs, ...NEWER_CHANNEL_FIELDS, name: 'compat-channel-newer', tag: '' }), 'create channel, newer form');
      // manageChannel(): `{ id, status | priority | weight }`.
      succeeded(await admin.put('/api/channel/', { id: ids[0], status: 2 }), 'disable channel');
      succeeded(await admin.put('/api/channel/', { id: ids[0], status: 1 }), 'enable channel');
      succeeded(await admin.put('/api/channel/', { id: ids[0], priority: parseInt('5') }), 'channel priority');
      succeeded(await admin.put('/api/channel/', { id: ids[0], weight: parseInt('3') }), 'channel weight');
      // The same calls from a client that sends more (a script, a newer console): the extra fields are dropped.
      succeeded(await admin.put('/api/channel/', { id: ids[0], status: 1, ...EXTRA }), 'channel status, extra fields');
      succeeded(await admin.put('/api/channel/', { id: ids[0], priority: 5, ...EXTRA }), 'channel priority, extra fields');
      succeeded(await admin.get('/api/channel/models_enabled'), 'enabled models');
    });

    it('edits, enables and disables a tag; copies, batch-tags, fixes and deletes channels', async () => {
      succeeded(await admin.get('/api/channel/?p=0&page_size=10&id_sort=true&tag_mode=true'), 'tag mode list');
      // EditTagModal.js handleSave() with nothing changed: `data.new_tag = inputs.new_tag` is null, so it is sent.
      succeeded(await admin.put('/api/channel/tag', { tag: 'compat-tag', new_tag: null }), 'tag edit changing nothing');
      succeeded(
        await admin.put('/api/channel/tag', { tag: 'compat-tag', model_mapping: '{"gpt-4o":"compat-model"}', groups: ['default'].join(','), models: ['gpt-4o'].join(','), new_tag: null }),
        'tag edit',
      );
      // submitTagEdit('priority' | 'weight', { tag: record.key, ... }) after parseInt.
      succeeded(await admin.put('/api/channel/tag', { tag: 'compat-tag', priority: parseInt('7') }), 'tag priority');
      succeeded(await admin.put('/api/channel/tag', { tag: 'compat-tag', weight: parseInt('2') }), 'tag weight');
      succeeded(await admin.post('/api/channel/tag/disabled', { tag: 'compat-tag' }), 'disable tag');
      succeeded(await admin.post('/api/channel/tag/enabled', { tag: 'compat-tag' }), 'enable tag');
      succeeded(await admin.put('/api/channel/tag', { tag: 'compat-tag', priority: 7, ...EXTRA }), 'tag edit, extra fields');
      succeeded(await admin.post('/api/channel/tag/enabled', { tag: 'compat-tag', ...EXTRA }), 'enable tag, extra fields');
      succeeded(await admin.put('/api/channel/tag', { tag: 'compat-tag', new_tag: 'compat-tag-2' }), 'rename tag');

      // copySelectedChannel(): the list row with a new name and reset counters, `id: undefined`
      // (left out by JSON). Lists never carry keys (the reference's neither), so the copy has
      // none: refused for that with the form's message, like a create without a key (the
      // reference fails it too, with its database's error), never for the row's other fields.
      const list = succeeded(await admin.get('/api/channel/?p=0&page_size=10&id_sort=false&tag_mode=false'), 'channel list');
      const row = list.items.find((c: { id: number }) => c.id === ids[0]);
      expect(row).not.toHaveProperty('key');
      const copy = await admin.post('/api/channel/', { ...row, name: `${row.name}_复制`, created_time: null, balance: 0, used_quota: 0, id: undefined });
      expect({ status: copy.status, body: copy.body }).toEqual({ status: 200, body: { success: false, message: '请填写渠道名称和渠道密钥！' } });
      // With a key typed in, the same row is a new channel.
      succeeded(
        await admin.post('/api/channel/', { ...row, name: `${row.name}_复制`, created_time: null, balance: 0, used_quota: 0, id: undefined, key: 'sk-compat-copy' }),
        'copy channel with a key',
      );
      succeeded(await admin.post('/api/channel/batch/tag', { ids, tag: 'compat-batch' }), 'batch tag');
      succeeded(await admin.post('/api/channel/batch/tag', { ids, tag: 'compat-batch', ...EXTRA }), 'batch tag, extra fields');
      succeeded(await admin.post('/api/channel/fix'), 'fix');
      succeeded(await admin.delete(`/api/channel/${ids[1]}/`), 'delete channel');
      succeeded(await admin.post('/api/channel/batch', { ids: [ids[0]], ...EXTRA }), 'batch delete, extra fields');
      succeeded(await admin.delete('/api/channel/disabled'), 'delete disabled channels');
    });
  });

  describe('tokens (TokensTable.js, EditToken.js)', () => {
    it('creates tokens from the form, edits one whole, toggles and deletes it', async () => {
      succeeded(await user.get('/api/token/?p=0&size=10'), 'token list');
      succeeded(await user.get('/api/token/search?keyword=&token='), 'token search');
      // submit() on create: tokenCount calls, names after the first with a random suffix.
      const inputs = { name: 'compat-token', remain_quota: 500000, expired_time: -1, unlimited_quota: false, model_limits_enabled: false, model_limits: [] as string[], allow_ips: '', group: '' };
      for (const name of ['compat-token', 'compat-token-Ab12Cd']) {
        succeeded(await user.post('/api/token/', { ...inputs, name, remain_quota: parseInt(String(inputs.remain_quota)), model_limits: inputs.model_limits.join(',') }), 'create token');
      }
      const id = (await s.app.ctx.db.selectFrom('tokens').select('id').where('name', '=', 'compat-token').executeTakeFirstOrThrow()).id;
      // loadToken(): expiry shown as text, model limits split; submit() parses them back.
      const data = succeeded(await user.get(`/api/token/${id}`), 'GET token');
      data.model_limits = data.model_limits !== '' ? data.model_limits.split(',') : [];
      const expiry = timestamp2string(now + 86400);
      const localInputs = {
        ...data,
        name: 'compat-token-edited',
        remain_quota: parseInt(String(data.remain_quota)),
        expired_time: Math.ceil(Date.parse(expiry) / 1000),
        model_limits: data.model_limits.join(','),
      };
      succeeded(await user.put('/api/token/', { ...localInputs, id: parseInt(String(id)) }), 'PUT token, whole record');
      // A newer console's token form and record.
      succeeded(await user.post('/api/token/', { ...inputs, name: 'compat-token-newer', model_limits: '', ...NEWER_TOKEN_FIELDS }), 'create token, newer form');
      succeeded(await user.put('/api/token/', { ...localInputs, ...NEWER_TOKEN_FIELDS, id }), 'PUT token, newer record');
      // manageToken(): `{ id, status }` with ?status_only=true.
      succeeded(await user.put('/api/token/?status_only=true', { id, status: 2 }), 'disable token');
      succeeded(await user.put('/api/token/?status_only=true', { id, status: 1 }), 'enable token');
      succeeded(await user.put('/api/token/?status_only=true', { id, status: 1, ...NEWER_TOKEN_FIELDS, ...EXTRA }), 'status only, extra fields');
      succeeded(await user.delete(`/api/token/${id}/`), 'delete token');
    });
  });

  describe('redemption codes (RedemptionsTable.js, EditRedemption.js) and the wallet (TopUp)', () => {
    it('creates codes from the form, edits one whole, toggles, redeems and deletes', async () => {
      succeeded(await admin.get('/api/redemption/?p=0&page_size=10'), 'redemption list');
      succeeded(await admin.get('/api/redemption/search?keyword=&p=0&page_size=10'), 'redemption search');
      const inputs = { name: 'compat-code', quota: 100000, count: 2 };
      const keys = succeeded(await admin.post('/api/redemption/', { ...inputs, count: parseInt(String(inputs.count)), quota: parseInt(String(inputs.quota)) }), 'create codes');
      expect(keys).toHaveLength(2);
      const [first, second] = await s.app.ctx.db.selectFrom('redemptions').select(['id', 'key']).where('name', '=', 'compat-code').orderBy('id').execute();
      // Editing: the record read, `count` parsed from nothing (NaN, which JSON sends as null).
      const record = succeeded(await admin.get(`/api/redemption/${first!.id}`), 'GET redemption');
      const localInputs = { ...record, count: parseInt(record.count), quota: parseInt('200000'), name: record.name };
      expect(JSON.parse(JSON.stringify(localInputs)).count).toBeNull();
      succeeded(await admin.put('/api/redemption/', { ...localInputs, id: parseInt(String(first!.id)) }), 'PUT redemption, whole record');
      // Fields this server does not know (a newer client's) are dropped on create and edit.
      succeeded(await admin.post('/api/redemption/', { name: 'compat-newer', quota: 1000, count: 1, expired_time: 0, remark: '' }), 'create code, extra fields');
      succeeded(await admin.put('/api/redemption/', { ...localInputs, id: first!.id, expired_time: 0, remark: '' }), 'PUT redemption, extra fields');
      succeeded(await admin.put('/api/redemption/?status_only=true', { id: first!.id, status: 1, remark: '' }), 'status only, extra fields');
      succeeded(await admin.put('/api/redemption/?status_only=true', { id: first!.id, status: 2 }), 'disable code');
      succeeded(await admin.put('/api/redemption/?status_only=true', { id: first!.id, status: 1 }), 'enable code');
      succeeded(await user.post('/api/user/topup', { key: second!.key }), 'redeem code');
      succeeded(await admin.delete(`/api/redemption/${first!.id}/`), 'delete code');
    });
  });

  describe('logs, drawing and music task logs, dashboard (LogsTable.js, MjLogsTable.js, TaskLogsTable.js, Detail)', () => {
    const start = timestamp2string(now - 3600);
    const end = timestamp2string(now + 3600);

    it('usage logs and their stats, with dates and with empty dates (NaN)', async () => {
      for (const [startText, endText] of [
        [start, end],
        ['', ''],
      ] as const) {
        const from = parsedSeconds(startText);
        const to = parsedSeconds(endText);
        // loadLogs(): the admin and the self URL, encodeURI'd. Its pages count from 1, ours from
        // 0 (docs/console-api.md#paging): p=1 is our second page, still a success.
        succeeded(
          await admin.get(encodeURI(`/api/log/?p=1&page_size=10&type=0&username=&token_name=&model_name=&start_timestamp=${from}&end_timestamp=${to}&channel=&group=`)),
          `admin logs ${from}..${to}`,
        );
        succeeded(await user.get(encodeURI(`/api/log/self/?p=1&page_size=10&type=0&token_name=&model_name=&start_timestamp=${from}&end_timestamp=${to}&group=`)), `own logs ${from}..${to}`);
        succeeded(await admin.get(encodeURI(`/api/log/stat?type=0&username=&token_name=&model_name=&start_timestamp=${from}&end_timestamp=${to}&channel=&group=`)), `admin stat ${from}..${to}`);
        succeeded(await user.get(encodeURI(`/api/log/self/stat?type=0&token_name=&model_name=&start_timestamp=${from}&end_timestamp=${to}&group=`)), `own stat ${from}..${to}`);
      }
    });

    it('drawing log (times in milliseconds, as its console sends them) and music task log (end time NaN first)', async () => {
      // MjLogsTable.js: Date.parse without /1000. Our drawing filters are in seconds
      // (docs/tasks.md#task-lists), so such a range matches nothing, but the call succeeds.
      const mjFrom = String(Date.parse(timestamp2string(now - 2592000)));
      const mjTo = String(Date.parse(end));
      succeeded(await admin.get(`/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=${mjFrom}&end_timestamp=${mjTo}`), 'admin drawing log');
      succeeded(await user.get(`/api/mj/self/?p=0&mj_id=&start_timestamp=${mjFrom}&end_timestamp=${mjTo}`), 'own drawing log');
      // TaskLogsTable.js: end_timestamp starts as '' so parseInt(Date.parse('') / 1000) is NaN.
      const taskFrom = String(parseInt(String(Date.parse(timestamp2string(now - 86400)) / 1000)));
      const taskTo = String(parseInt(String(Date.parse('') / 1000)));
      expect(taskTo).toBe('NaN');
      succeeded(await admin.get(`/api/task/?p=0&channel_id=&task_id=&start_timestamp=${taskFrom}&end_timestamp=${taskTo}`), 'admin task log');
      succeeded(await user.get(`/api/task/self?p=0&task_id=&start_timestamp=${taskFrom}&end_timestamp=${taskTo}`), 'own task log');
      succeeded(await admin.get(`/api/task/?p=0&channel_id=&task_id=&start_timestamp=NaN&end_timestamp=NaN`), 'admin task log, no dates');
    });

    it('dashboard data with and without dates; public pages; sign-out', async () => {
      for (const [from, to] of [
        [parsedSeconds(start), parsedSeconds(end)],
        ['NaN', 'NaN'],
      ]) {
        succeeded(await admin.get(`/api/data/?username=&start_timestamp=${from}&end_timestamp=${to}&default_time=hour`), `admin data ${from}..${to}`);
        succeeded(await user.get(`/api/data/self/?start_timestamp=${from}&end_timestamp=${to}&default_time=hour`), `own data ${from}..${to}`);
      }
      const guest = new ReferenceConsole(new ApiClient(s.url));
      succeeded(await guest.get('/api/pricing'), 'pricing');
      succeeded(await guest.get('/api/notice'), 'notice');
      succeeded(await guest.get('/api/about'), 'about');
      succeeded(await guest.get('/api/home_page_content'), 'home page content');
      succeeded(await user.get('/api/user/logout'), 'logout');
    });
  });
});
