/**
 * The documented messages (issue #13, item 6): every message of docs/messages.md (validation
 * rules and console failures) checked against what we say, in one table. A row
 * names the rule and the exact message; `server` is a request that triggers the rule
 * (the reply must carry exactly that message), `console` the key of src/web/locales/zh.json
 * the console shows (its text must be exactly that message). Rules only the console checks
 * (two password entries, a selection, a typed confirmation) have no `server`; rules only the
 * server decides have no `console`. Where the reference's server said something else
 * (`输入不合法 password must have 8-20 characters`, `无效的参数`, `未提供兑换码`, `划转失败
 * 转移额度最小为…！`), the documented words win. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type ApiResponse, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';
import { channelsResource } from '../../resources/channels';
import { redemptionsResource } from '../../resources/redemptions';
import { tokensResource } from '../../resources/tokens';
import { usersResource } from '../../resources/users';
import type { BatchActionDef, RowActionDef } from '../../src/shared/resources/actions';
import type { ResourceDefinition } from '../../src/shared/resources/definition';
import type { FieldKind, FieldOf } from '../../src/shared/resources/forms';
import { isBilingual, type Bilingual, type Label } from '../../src/shared/resources/label';

interface Clients {
  s: TestServer;
  root: ApiClient;
  alice: TestUser;
  anonymous: ApiClient;
  /** A channel that exists. */
  channelId: number;
}

/** A declaration's inline text; a locale key (or nothing) there fails the row. */
function inlineText(label: Label | undefined): Bilingual {
  if (!isBilingual(label)) throw new Error(`not an inline text: ${String(label)}`);
  return label;
}

const formField = (resource: ResourceDefinition, field: string) => resource.form?.fields.find((f) => f.field === field);
/** A form field, row action or batch action of the given kind, with that kind's options. */
const fieldOf = <K extends FieldKind>(resource: ResourceDefinition, field: string, kind: K) => resource.form?.fields.find((f): f is FieldOf<K> => f.field === field && f.kind === kind);
const rowAction = <K extends RowActionDef['kind']>(resource: ResourceDefinition, key: string, kind: K) =>
  resource.rowActions?.find((a): a is Extract<RowActionDef, { kind: K }> => a.key === key && a.kind === kind);
const batchAction = <K extends BatchActionDef['kind']>(resource: ResourceDefinition, key: string, kind: K) =>
  resource.batchActions?.find((a): a is Extract<BatchActionDef, { kind: K }> => a.key === key && a.kind === kind);

interface Row {
  /** The section of docs/messages.md that lists it. */
  doc: string;
  rule: string;
  message: string;
  /** A request that breaks the rule; answers the reply whose message must be `message`. */
  server?: (c: Clients) => Promise<ApiResponse>;
  /** Where the message is not `message` of the envelope (the top-up replies put it in data). */
  replyText?: (body: any) => unknown;
  /**
   * zh.json key, and the values its placeholders take when the console shows it; or the
   * declaration's own `{ zh, en }` text where a resource carries its words inline.
   */
  console?: string | [key: string, values: Record<string, string>] | Bilingual;
}

const put = (c: Clients, key: string, value: string) => c.root.put('/api/option/', { key, value });
const channel = (extra: Record<string, unknown>) => ({ type: 1, name: 'seed-channel', key: 'sk-upstream', models: 'gpt-4o', group: 'default', ...extra });

/** The JSON options of docs/messages.md#accounts-and-settings with their Chinese titles (schemas/options). */
const JSON_OPTIONS: Array<[key: string, title: string]> = [
  ['GroupRatio', '分组倍率'],
  ['UserUsableGroups', '用户可选分组'],
  ['ModelPrice', '模型固定价格'],
  ['ModelRatio', '模型倍率'],
  ['CacheRatio', '提示缓存倍率'],
  ['CompletionRatio', '模型补全倍率'],
  ['Chats', '聊天配置'],
  ['gemini.safety_settings', 'Gemini安全设置'],
  ['gemini.version_settings', 'Gemini版本设置'],
  ['claude.model_headers_settings', 'Claude请求头覆盖'],
  ['claude.default_max_tokens', '缺省 MaxTokens'],
];

const ROWS: Row[] = [
  // docs/messages.md#accounts-and-settings
  {
    doc: 'accounts-and-settings',
    rule: 'add user: username and password not empty',
    message: '用户名和密码不能为空！',
    server: (c) => c.root.post('/api/user/', { username: '', display_name: 'x', password: '' }),
    console: inlineText(formField(usersResource, 'username')?.requiredMessageKey),
  },
  { doc: 'accounts-and-settings', rule: 'add user: password not empty', message: '用户名和密码不能为空！', server: (c) => c.root.post('/api/user/', { username: 'nopass', password: '' }) },
  {
    doc: 'accounts-and-settings',
    rule: 'register: password at least 8 characters',
    message: '密码长度不得小于 8 位！',
    server: (c) => c.anonymous.post('/api/user/register', { username: 'newbie', password: 'short12', password2: 'short12' }),
    console: 'auth.register.passwordTooShort',
  },
  {
    doc: 'accounts-and-settings',
    rule: 'register: password at least 8 characters (none sent)',
    message: '密码长度不得小于 8 位！',
    server: (c) => c.anonymous.post('/api/user/register', { username: 'newbie' }),
  },
  {
    doc: 'accounts-and-settings',
    rule: 'register: both passwords equal (the server reads one password, as the reference)',
    message: '两次输入的密码不一致',
    console: 'auth.register.passwordMismatch',
  },
  {
    doc: 'accounts-and-settings',
    rule: 'login: both fields required',
    message: '请输入用户名和密码！',
    server: (c) => c.anonymous.post('/api/user/login', { username: '', password: '' }),
    console: 'auth.login.missing',
  },
  { doc: 'accounts-and-settings', rule: 'login: both fields required (no password)', message: '请输入用户名和密码！', server: (c) => c.anonymous.post('/api/user/login', { username: 'root' }) },
  {
    doc: 'accounts-and-settings',
    rule: 'email bind: email non-empty (sending the code)',
    message: '请输入邮箱！',
    server: (c) => c.alice.client.get('/api/verification?email='),
    console: 'auth.register.emailMissing',
  },
  { doc: 'accounts-and-settings', rule: 'email bind: email non-empty', message: '请输入邮箱！', server: (c) => c.alice.client.get('/api/oauth/email/bind?email=&code=abc123') },
  {
    doc: 'accounts-and-settings',
    rule: 'email bind: code non-empty',
    message: '请输入邮箱验证码！',
    server: (c) => c.alice.client.get('/api/oauth/email/bind?email=alice%40example.com&code='),
    console: 'auth.register.codeMissing',
  },
  { doc: 'accounts-and-settings', rule: 'password change: both entries equal', message: '两次输入的密码不一致！', console: 'personal.security.mismatch' },
  { doc: 'accounts-and-settings', rule: 'account deletion: typed text equals own username', message: '请输入你的账户名以确认删除！', console: 'personal.security.typeUsername' },
  {
    doc: 'accounts-and-settings',
    rule: 'affiliate transfer: at least one quota unit',
    message: '划转金额最低为 ＄1.000000 额度',
    server: (c) => c.alice.client.post('/api/user/aff_transfer', { quota: 1 }),
    console: ['personal.invite.minimum', { amount: '＄1.000000 额度' }],
  },
  {
    doc: 'accounts-and-settings',
    rule: 'TopupGroupRatio: valid JSON',
    message: '充值分组倍率不是合法的 JSON 字符串',
    server: (c) => put(c, 'TopupGroupRatio', 'not json'),
    console: ['settings.jsonInvalid', { title: '充值分组倍率' }],
  },
  ...JSON_OPTIONS.map(([key, title]): Row => ({
    doc: 'accounts-and-settings',
    rule: `${key}: valid JSON`,
    message: `${title}不是合法的 JSON 字符串`,
    server: (c) => put(c, key, '{"broken"'),
    console: ['settings.jsonInvalid', { title }],
  })),
  { doc: 'accounts-and-settings', rule: 'payment save: ServerAddress filled', message: '请先填写服务器地址', server: (c) => put(c, 'PayAddress', 'https://pay.example.com') },
  { doc: 'accounts-and-settings', rule: 'price table and visual ratios: values numeric', message: '请输入数字', console: 'settings.ratio.numberOnly' },
  { doc: 'accounts-and-settings', rule: 'settings: a number left empty', message: '请输入数字', console: 'settings.errors.number' },
  { doc: 'accounts-and-settings', rule: 'add model: name not already present', message: '模型名称已存在', console: 'settings.ratio.errors.exists' },
  { doc: 'accounts-and-settings', rule: 'batch set: selection required', message: '请先选择需要批量设置的模型', console: 'settings.ratio.errors.noSelection' },
  { doc: 'accounts-and-settings', rule: 'batch set: fill value required', message: '请输入填充值', console: 'settings.ratio.errors.noValue' },
  { doc: 'accounts-and-settings', rule: 'batch set (combined mode): both values required', message: '请输入模型倍率和补全倍率', console: 'settings.ratio.errors.noCombined' },
  { doc: 'accounts-and-settings', rule: 'batch set: numeric', message: '请输入有效的数字', console: 'settings.ratio.errors.invalidNumber' },
  { doc: 'accounts-and-settings', rule: 'save with no change', message: '你似乎并没有修改什么', console: 'settings.noChange' },
  { doc: 'accounts-and-settings', rule: 'save with failed validation', message: '请检查输入', console: 'settings.checkInput' },
  { doc: 'console-failures', rule: 'settings: part of a save failed', message: '部分保存失败，请重试', console: 'settings.partialFailure' },
  { doc: 'console-failures', rule: 'settings: the whole save failed', message: '保存失败，请重试', console: 'settings.saveFailed' },
  { doc: 'console-failures', rule: 'settings: loading the options failed', message: '刷新失败', console: 'settings.refreshFailed' },

  // docs/messages.md#gateway-resources and docs/messages.md#console-failures
  {
    doc: 'gateway-resources',
    rule: 'channel create: name and key required',
    message: '请填写渠道名称和渠道密钥！',
    server: (c) => c.root.post('/api/channel/', channel({ name: '', key: '' })),
    console: inlineText(formField(channelsResource, 'name')?.requiredMessageKey),
  },
  { doc: 'gateway-resources', rule: 'channel create: key required', message: '请填写渠道名称和渠道密钥！', server: (c) => c.root.post('/api/channel/', channel({ key: '' })) },
  {
    doc: 'gateway-resources',
    rule: 'channel: at least one model',
    message: '请至少选择一个模型！',
    server: (c) => c.root.post('/api/channel/', channel({ models: '' })),
    console: inlineText(formField(channelsResource, 'models')?.requiredMessageKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'channel: model_mapping valid JSON',
    message: '模型映射必须是合法的 JSON 格式！',
    server: (c) => c.root.post('/api/channel/', channel({ model_mapping: '{"gpt-4o":' })),
    console: inlineText(fieldOf(channelsResource, 'model_mapping', 'json')?.jsonMessageKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'fetching models on create needs a key',
    message: '请填写密钥',
    server: (c) => c.root.post('/api/channel/fetch_models', { base_url: 'https://api.example.com', type: 1, key: '' }),
    console: 'channels.messages.keyNeeded',
  },
  { doc: 'gateway-resources', rule: 'custom model already present', message: '某些模型已存在！', console: 'channels.messages.modelExists' },
  {
    doc: 'gateway-resources',
    rule: 'tag edit that changes nothing (the server answers success, issue #13)',
    message: '没有任何修改！',
    console: inlineText(rowAction(channelsResource, 'tagEdit', 'dialog')?.dialog.noChangeKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'batch tag: tag non-empty',
    message: '标签不能为空！',
    server: (c) => c.root.post('/api/channel/batch/tag', { ids: [c.channelId], tag: '' }),
    console: inlineText(batchAction(channelsResource, 'tag', 'dialog')?.dialog.fields[0]?.requiredMessageKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'batch delete: a selection',
    message: '请先选择要删除的通道！',
    server: (c) => c.root.post('/api/channel/batch', { ids: [] }),
    console: inlineText(channelsResource.batchActions?.find((a) => a.key === 'delete')?.emptySelectionKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'token: expiry that cannot be parsed',
    message: '过期时间格式错误！',
    server: (c) => c.alice.client.post('/api/token/', { name: 'seed-token', expired_time: 0, remain_quota: 1, unlimited_quota: false }),
    console: inlineText(fieldOf(tokensResource, 'expired_time', 'expiry')?.invalidMessageKey),
  },
  { doc: 'gateway-resources', rule: 'token copy: a selection', message: '请至少选择一个令牌！', console: inlineText(tokensResource.batchActions?.find((a) => a.key === 'copy')?.emptySelectionKey) },
  { doc: 'gateway-resources', rule: 'duplicate submit', message: '提交失败，请勿重复提交！', console: 'crud.messages.duplicateSubmit' },
  { doc: 'gateway-resources', rule: 'token group: none made available', message: '管理员未设置用户可选分组', console: inlineText(fieldOf(tokensResource, 'group', 'select')?.emptyOptionsKey) },
  {
    doc: 'gateway-resources',
    rule: 'redemption copy: a selection',
    message: '请至少选择一个兑换码！',
    console: inlineText(redemptionsResource.batchActions?.find((a) => a.key === 'copy')?.emptySelectionKey),
  },
  {
    doc: 'gateway-resources',
    rule: 'wallet: empty redemption code',
    message: '请输入兑换码！',
    server: (c) => c.alice.client.post('/api/user/topup', { key: '  ' }),
    console: 'wallet.messages.codeMissing',
  },
  {
    doc: 'gateway-resources',
    rule: 'online top-up: amount not below the minimum',
    message: '充值数量不能小于 1',
    server: (c) => c.alice.client.post('/api/user/amount', { amount: 0, top_up_code: '' }),
    replyText: (body) => body.data,
  },
  { doc: 'gateway-resources', rule: 'online top-up: amount not below the minimum (console)', message: '充值数量不能小于', console: 'wallet.messages.belowMin' },
  { doc: 'console-failures', rule: 'fetching models failed', message: '获取模型列表失败', console: 'channels.messages.fetchModelsFailed' },
  { doc: 'console-failures', rule: 'fetching enabled models failed', message: '获取启用模型失败', console: 'channels.messages.enabledModelsFailed' },
  {
    doc: 'console-failures',
    rule: 'copy of a channel that cannot be found',
    message: '渠道未找到，请刷新页面后重试。',
    console: inlineText(rowAction(channelsResource, 'copy', 'duplicate')?.notFoundKey),
  },
  { doc: 'console-failures', rule: 'channel copy failed', message: '渠道复制失败', console: inlineText(rowAction(channelsResource, 'copy', 'duplicate')?.failedKey) },
  { doc: 'console-failures', rule: 'chat link without an enabled token', message: '当前没有可用的启用令牌，请确认是否有令牌处于启用状态！', console: 'chat.messages.noToken' },
  { doc: 'console-failures', rule: 'chat link misconfigured', message: '聊天链接配置错误，请联系管理员', console: 'chat.messages.badLink' },
  { doc: 'console-failures', rule: 'chat link not configured', message: '请联系管理员配置聊天链接', console: 'chat.messages.notConfigured' },
  { doc: 'console-failures', rule: 'top-up link not set', message: '超级管理员未设置充值链接！', console: 'wallet.messages.noTopUpLink' },
  { doc: 'console-failures', rule: 'online top-up off', message: '管理员未开启在线充值！', console: 'wallet.messages.onlineDisabled' },
  { doc: 'console-failures', rule: 'top-up request failed', message: '请求失败', console: 'wallet.messages.requestFailed' },
];

/** A Chinese console text by its dotted key: the first page's (zh.json) or the signed-in screens' (zh-console.json). */
function zhText(key: string): unknown {
  const read = (file: string) => JSON.parse(readFileSync(join(projectRoot(), 'src/web/locales', file), 'utf8')) as Record<string, unknown>;
  const zh = { ...read('zh.json'), ...read('zh-console.json') };
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), zh);
}

describe('the documented messages in the console (src/web/locales/zh*.json and inline texts)', () => {
  for (const row of ROWS.filter((r) => r.console)) {
    it(`${row.doc} ${row.rule}: ${row.message}`, () => {
      if (isBilingual(row.console)) return void expect(row.console.zh).toBe(row.message);
      const [key, values] = typeof row.console === 'string' ? [row.console, {}] : row.console!;
      const text = zhText(key);
      expect(typeof text, key).toBe('string');
      const shown = (text as string).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => values[name] ?? `{{${name}}}`);
      expect(shown, key).toBe(row.message);
    });
  }
});

describeEachDialect('the documented messages from the server', (dialect) => {
  let c: Clients;

  beforeAll(async () => {
    const s = await startTestServer(dialect);
    const root = await s.root();
    const alice = await createUser(s, 'alice');
    await s.app.ctx.db.updateTable('users').set({ aff_quota: 10_000_000 }).where('id', '=', alice.id).execute();
    await s.app.ctx.options.setInternal('PayAddress', '');
    await s.app.ctx.options.setInternal('ServerAddress', '');
    const created = await root.post('/api/channel/', channel({ name: 'existing' }));
    expect(created.body.success, JSON.stringify(created.body)).toBe(true);
    const channelId = (await s.app.ctx.db.selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
    c = { s, root, alice, anonymous: s.client(), channelId };
  });
  afterAll(async () => {
    await c?.s.close();
  });

  for (const row of ROWS.filter((r) => r.server)) {
    it(`${row.doc} ${row.rule}: ${row.message}`, async () => {
      const res = await row.server!(c);
      const text = row.replyText ? row.replyText(res.body) : res.body.message;
      expect(text, JSON.stringify(res.body)).toBe(row.message);
      if (!row.replyText) expect(res.body.success).toBe(false);
    });
  }
});
