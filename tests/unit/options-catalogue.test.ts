/**
 * The options catalogue lint: the real schema files build (with Ajv in strict mode and every
 * default checked), the builder refuses broken catalogues, and every key and public status
 * field the documentation names is there (docs/options.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config';
import { loadOptionSchemas } from '../../src/server/services/options/options.service';
import { buildCatalogue, CatalogueError, type OptionProperty, type OptionSection } from '../../src/shared/options/catalogue';
import { OptionValidator } from '../../src/shared/options/validator';
import { CONSOLE_STATUS_FIELDS } from '../fixtures/status-fields';

const root = projectRoot();
const sections = loadOptionSchemas(join(root, 'schemas'));
const catalogue = buildCatalogue(sections);

/** The option keys the console uses, with the collective names spelt out. */
const SEED_KEYS = {
  text: [
    'Notice',
    'SystemName',
    'Logo',
    'Footer',
    'About',
    'HomePageContent',
    'ServerAddress',
    'WorkerUrl',
    'WorkerValidKey',
    'PayAddress',
    'EpayId',
    'EpayKey',
    'CustomCallbackAddress',
    'TopUpLink',
    'general_setting.docs_link',
    'TelegramBotToken',
    'TelegramBotName',
    'TurnstileSiteKey',
    'TurnstileSecretKey',
    'EmailDomainWhitelist',
    'SMTPServer',
    'SMTPAccount',
    'SMTPFrom',
    'SMTPToken',
    'GitHubClientId',
    'GitHubClientSecret',
    'LinuxDOClientId',
    'LinuxDOClientSecret',
    'oidc.client_id',
    'oidc.client_secret',
    'oidc.well_known',
    'oidc.authorization_endpoint',
    'oidc.token_endpoint',
    'oidc.user_info_endpoint',
    'WeChatServerAddress',
    'WeChatServerToken',
    'WeChatAccountQRCodeImageURL',
  ],
  numbers: [
    'Price',
    'MinTopUp',
    'QuotaPerUnit',
    'RetryTimes',
    'QuotaForNewUser',
    'PreConsumedQuota',
    'QuotaForInviter',
    'QuotaForInvitee',
    'QuotaRemindThreshold',
    'ChannelDisableThreshold',
    'StreamCacheQueueLength',
    'DataExportInterval',
    'SMTPPort',
    'ModelRequestRateLimitCount',
    'ModelRequestRateLimitSuccessCount',
    'ModelRequestRateLimitDurationMinutes',
    'claude.thinking_adapter_budget_tokens_percentage',
  ],
  switches: [
    'DisplayInCurrencyEnabled',
    'DisplayTokenStatEnabled',
    'DefaultCollapseSidebar',
    'DemoSiteEnabled',
    'SelfUseModeEnabled',
    'DrawingEnabled',
    'TaskEnabled',
    'MjNotifyEnabled',
    'MjAccountFilterEnabled',
    'MjModeClearEnabled',
    'MjForwardUrlEnabled',
    'MjActionCheckSuccessEnabled',
    'CheckSensitiveEnabled',
    'CheckSensitiveOnPromptEnabled',
    'StopOnSensitiveEnabled',
    'LogConsumeEnabled',
    'DataExportEnabled',
    'AutomaticDisableChannelEnabled',
    'AutomaticEnableChannelEnabled',
    'ModelRequestRateLimitEnabled',
    'claude.thinking_adapter_enabled',
    'global.pass_through_request_enabled',
    'PasswordLoginEnabled',
    'PasswordRegisterEnabled',
    'RegisterEnabled',
    'EmailVerificationEnabled',
    'GitHubOAuthEnabled',
    'LinuxDOOAuthEnabled',
    'WeChatAuthEnabled',
    'TelegramOAuthEnabled',
    'oidc.enabled',
    'TurnstileCheckEnabled',
    'EmailDomainRestrictionEnabled',
    'EmailAliasRestrictionEnabled',
    'SMTPSSLEnabled',
  ],
  lists: ['SensitiveWords', 'AutomaticDisableKeywords'],
  json: [
    'ModelPrice',
    'ModelRatio',
    'CacheRatio',
    'CompletionRatio',
    'GroupRatio',
    'UserUsableGroups',
    'Chats',
    'TopupGroupRatio',
    'gemini.safety_settings',
    'gemini.version_settings',
    'claude.model_headers_settings',
    'claude.default_max_tokens',
  ],
};

/** Facts the status route computes itself (src/server/api/status/status.routes.ts). */
const ROUTE_STATUS_FIELDS = ['version', 'start_time', 'chat_link', 'server_address', 'enable_online_topup', 'enable_batch_update', 'setup'];

/** A minimal valid section to break in the builder tests. */
function section(id: string, properties: Record<string, Partial<OptionProperty>>, extra: Partial<OptionSection> = {}): OptionSection {
  return { $id: id, title: id, type: 'object', 'x-tab': 'other', properties: properties as Record<string, OptionProperty>, ...extra };
}
const text = (extra: Partial<OptionProperty> = {}): Partial<OptionProperty> => ({ type: 'string', default: '', title: 'T', ...extra });

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the options catalogue in schemas/options', () => {
  it('builds, compiles in strict mode and every default passes its own rules', () => {
    expect(() => new OptionValidator(catalogue)).not.toThrow();
    expect(catalogue.keys.size).toBeGreaterThan(100);
  });

  it('names every file <tab>-<section>.json after its $id and tab', () => {
    const files = readdirSync(join(root, 'schemas', 'options')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(sections.length);
    for (const file of files) {
      const s = JSON.parse(readFileSync(join(root, 'schemas', 'options', file), 'utf8')) as OptionSection;
      expect(file).toBe(`${s.$id}.json`);
      expect(s.$id.startsWith(`${s['x-tab']}-`)).toBe(true);
      expect(s['x-i18n']?.zh?.title, s.$id).toBeTruthy();
    }
  });

  it('has every key the console uses with its type', () => {
    const typeOf = (key: string) => catalogue.keys.get(key)?.schema.type;
    for (const key of SEED_KEYS.text) expect(typeOf(key), key).toBe('string');
    for (const key of SEED_KEYS.numbers) expect(['integer', 'number'], key).toContain(typeOf(key));
    for (const key of SEED_KEYS.switches) expect(typeOf(key), key).toBe('boolean');
    for (const key of SEED_KEYS.lists) expect(catalogue.keys.get(key)?.schema['x-format'], key).toBe('lines');
    for (const key of SEED_KEYS.json) expect(catalogue.keys.get(key)?.json, key).toBe(true);
    expect(catalogue.keys.get('DataExportDefaultTime')?.schema.enum).toEqual(['hour', 'day', 'week']);
  });

  it('carries the reference defaults and ours', () => {
    const d = (key: string) => catalogue.keys.get(key)?.defaultText;
    expect(d('QuotaPerUnit')).toBe('500000');
    expect(d('DataExportInterval')).toBe('5');
    expect(d('SystemName')).toBe('Switchyard');
    expect(d('general_setting.docs_link')).toBe('');
    expect(d('ServerAddress')).toBe('');
    expect(d('Price')).toBe('7.3');
    expect(d('PreConsumedQuota')).toBe('500');
    expect(d('ModelRequestRateLimitSuccessCount')).toBe('1000');
    expect(d('claude.thinking_adapter_budget_tokens_percentage')).toBe('0.8');
    expect(JSON.parse(d('Chats')!)).toHaveLength(5);
    expect(JSON.parse(d('ModelRatio')!)['gpt-4o']).toBe(1.25);
    expect(JSON.parse(d('ModelPrice')!).mj_imagine).toBe(0.1);
    expect(JSON.parse(d('CompletionRatio')!)).toEqual({ 'gpt-4-gizmo-*': 2, 'gpt-4o-gizmo-*': 3, 'gpt-4-all': 2 });
    expect(d('AutomaticDisableKeywords')!.split('\n')).toHaveLength(7);
  });

  it('gives every key both languages', () => {
    for (const def of catalogue.keys.values()) {
      expect(def.schema.title, def.key).toBeTruthy();
      expect(def.schema['x-i18n']?.zh?.title, def.key).toBeTruthy();
    }
    expect(catalogue.keys.get('TopupGroupRatio')?.schema['x-i18n']?.zh?.title).toBe('充值分组倍率');
  });

  it('publishes every status field the console reads, from a key or from the status route', () => {
    const published = new Set([...catalogue.keys.values()].map((d) => d.publicName).filter(Boolean));
    for (const field of CONSOLE_STATUS_FIELDS) expect(published.has(field) || ROUTE_STATUS_FIELDS.includes(field), field).toBe(true);
    for (const field of ROUTE_STATUS_FIELDS) expect(published.has(field), `${field} is computed by the route`).toBe(false);
  });

  it('keeps the credentials secret and the system tab at root level', () => {
    const secrets = [...catalogue.keys.values()]
      .filter((d) => d.secret)
      .map((d) => d.key)
      .sort();
    expect(secrets).toEqual(
      ['EpayKey', 'GitHubClientSecret', 'LinuxDOClientSecret', 'SMTPToken', 'TelegramBotToken', 'TurnstileSecretKey', 'WeChatServerToken', 'WorkerValidKey', 'oidc.client_secret'].sort(),
    );
    for (const def of catalogue.keys.values()) {
      if (def.tab === 'system') expect(def.root, def.key).toBe(true);
    }
    expect(catalogue.keys.get('TopUpLink')?.root).toBe(true);
    expect(catalogue.keys.get('QuotaForNewUser')?.root).toBe(false);
  });

  it('has every key the server code reads', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/options\.(?:get|bool|number|json|lines)(?:<[^>]*>)?\('([^']+)'\)/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(0);
    for (const key of used) expect(catalogue.keys.has(key), key).toBe(true);
  });
});

describe('buildCatalogue and OptionValidator refuse a broken catalogue', () => {
  const build = (files: OptionSection[]) => () => new OptionValidator(buildCatalogue(files));

  it('accepts a minimal valid catalogue', () => {
    expect(build([section('other-a', { A: text() })])).not.toThrow();
  });

  it('refuses a key declared in two files', () => {
    expect(build([section('other-a', { A: text() }), section('other-b', { A: text() })])).toThrow(/declared twice/);
  });

  it('refuses a default of the wrong type or breaking its rules', () => {
    expect(build([section('other-a', { N: { type: 'integer', default: 'abc' as never, title: 'N' } })])).toThrow(CatalogueError);
    expect(build([section('other-a', { N: { type: 'integer', default: 1.5, title: 'N' } })])).toThrow(/integer/);
    expect(build([section('other-a', { N: { type: 'integer', default: 0, minimum: 1, title: 'N' } })])).toThrow(/>= 1/);
    expect(build([section('other-a', { E: text({ default: 'x', enum: ['a', 'b'] }) })])).toThrow(/allowed values/);
    expect(build([section('other-a', { J: text({ default: '{', 'x-format': 'json' }) })])).toThrow(/invalid JSON/);
    const shape = { type: 'object', additionalProperties: { type: 'number' } };
    expect(build([section('other-a', { J: text({ default: '{"a":"x"}', 'x-format': 'json', 'x-json-schema': shape }) })])).toThrow(/a must be number/);
    expect(build([section('other-a', { N: { type: 'integer', title: 'N' } as Partial<OptionProperty> })])).toThrow(/no default/);
  });

  it('refuses a secret that is also public', () => {
    expect(build([section('other-a', { S: text({ 'x-secret': true, 'x-public': 's' }) })])).toThrow(/secret cannot be public/);
  });

  it('refuses x-requires naming an unknown key', () => {
    const requires = { key: 'Nope', message: 'm' };
    expect(build([section('other-a', { On: { type: 'boolean', default: false, title: 'On', 'x-requires': requires } })])).toThrow(/unknown key Nope/);
  });

  it('refuses two keys published under one name, an unknown tab and a misspelt keyword', () => {
    expect(build([section('other-a', { A: text({ 'x-public': 'p' }), B: text({ 'x-public': 'p' }) })])).toThrow(/published as p/);
    expect(build([section('other-a', { A: text() }, { 'x-tab': 'nope' as never })])).toThrow(/x-tab/);
    expect(build([section('other-a', { A: text({ minimun: 1 } as Partial<OptionProperty>) })])).toThrow(/minimun/);
  });

  it('refuses annotations on the wrong type', () => {
    expect(build([section('other-a', { N: { type: 'integer', default: 0, title: 'N', 'x-format': 'json' } })])).toThrow(/x-format needs type string/);
    expect(build([section('other-a', { A: text({ 'x-json-schema': { type: 'object' } }) })])).toThrow(/x-json-schema needs x-format json/);
    expect(build([section('other-a', { E: text({ default: 'a', enum: ['a', 'b'], 'x-ui': { enumNames: ['A'] } }) })])).toThrow(/enumNames/);
  });
});
