import { describe, expect, it } from 'vitest';
import type { OptionSection } from '../../shared/options/catalogue';
import { CATALOGUE } from './catalogue-source';
import { buildSettingsModel, fieldName, WIDGET_NAMES, type SectionModel, type TabModel } from './settings-model';

const FILES: OptionSection[] = CATALOGUE.sections;

function section(tabs: TabModel[], id: string): SectionModel {
  const found = tabs.flatMap((t) => t.sections).find((s) => s.id === id);
  if (!found) throw new Error(`no section ${id}`);
  return found;
}

describe('settings model', () => {
  it('renders every schema file as one section of its tab, in x-order', () => {
    const tabs = buildSettingsModel(FILES, { lang: 'zh', role: 100 });
    expect(tabs.map((t) => t.tab)).toEqual(['operation', 'ratelimit', 'models', 'system', 'other']);
    expect(tabs.flatMap((t) => t.sections).length).toBe(FILES.length);
    const operation = tabs[0].sections.map((s) => s.id);
    expect(operation[0]).toBe('operation-general');
    expect(operation.indexOf('operation-drawing')).toBeLessThan(operation.indexOf('operation-log'));
  });

  it('adds a key written into a copy of a schema file to its tab, titled in both languages, with no other edit', () => {
    const copy = structuredClone(FILES);
    const rateLimit = copy.find((f) => f.$id === 'ratelimit-model')!;
    rateLimit.properties['ModelRequestRateLimitBurst'] = {
      type: 'integer',
      default: 5,
      minimum: 0,
      title: 'Burst size',
      description: 'Requests allowed at once',
      'x-i18n': { zh: { title: '突发请求数', description: '允许同时发起的请求数' } },
      'x-ui': { widget: 'updown', unit: 'minutes' },
    };
    const name = fieldName('ModelRequestRateLimitBurst');
    for (const [lang, title, description] of [
      ['zh', '突发请求数', '允许同时发起的请求数'],
      ['en', 'Burst size', 'Requests allowed at once'],
    ] as const) {
      const tab = buildSettingsModel(copy, { lang, role: 10 }).find((t) => t.tab === 'ratelimit')!;
      const form = tab.sections[0];
      expect(form.fields.map((f) => f.key)).toContain('ModelRequestRateLimitBurst');
      expect(form.schema.properties?.[name]).toEqual({ type: 'integer', minimum: 0, title, description });
      expect(form.uiSchema[name]).toEqual({ 'ui:widget': 'updown', 'ui:options': { unit: 'minutes' } });
      expect(form.uiSchema['ui:order']).toContain(name);
    }
    expect(
      buildSettingsModel(FILES, { lang: 'en', role: 10 })
        .find((t) => t.tab === 'ratelimit')!
        .sections[0].fields.map((f) => f.key),
    ).not.toContain('ModelRequestRateLimitBurst');
  });

  it('gives titles, descriptions and enum labels in the language asked, English as the fallback', () => {
    const zh = section(buildSettingsModel(FILES, { lang: 'zh', role: 100 }), 'operation-dashboard');
    const en = section(buildSettingsModel(FILES, { lang: 'en', role: 100 }), 'operation-dashboard');
    expect(zh.title).toBe('数据看板设置');
    expect(en.title).toBe('Data dashboard');
    expect(zh.schema.properties?.DataExportInterval).toMatchObject({ title: '数据看板更新间隔', description: '汇总用量数据的间隔（分钟）', minimum: 1 });
    expect(zh.uiSchema.DataExportDefaultTime['ui:options'].enumNames).toEqual(['小时', '天', '周']);
    expect(en.uiSchema.DataExportDefaultTime['ui:options'].enumNames).toEqual(['Hour', 'Day', 'Week']);
    const fr = section(buildSettingsModel(FILES, { lang: 'fr', role: 100 }), 'operation-dashboard');
    expect(fr.title).toBe('Data dashboard');
  });

  it('maps the x-ui vocabulary to registered widget names and picks by type otherwise', () => {
    const tabs = buildSettingsModel(FILES, { lang: 'en', role: 100 });
    const widget = (id: string, key: string) => section(tabs, id).fields.find((f) => f.key === key)!.widget;
    expect(widget('operation-general', 'Chats')).toBe('json');
    expect(widget('operation-general', 'DisplayInCurrencyEnabled')).toBe('switch');
    expect(widget('operation-general', 'TopUpLink')).toBe('text');
    expect(widget('operation-dashboard', 'DataExportDefaultTime')).toBe('select');
    expect(widget('operation-quota', 'QuotaForNewUser')).toBe('quota');
    expect(widget('operation-sensitive', 'SensitiveWords')).toBe('lines');
    expect(widget('system-email-domain', 'EmailDomainWhitelist')).toBe('list');
    expect(widget('system-smtp', 'SMTPToken')).toBe('password');
    expect(widget('system-oidc', 'oidc.well_known')).toBe('action');
    expect(widget('other-content', 'Notice')).toBe('textarea');
    for (const f of tabs.flatMap((t) => t.sections).flatMap((s) => s.fields)) expect(WIDGET_NAMES).toContain(f.widget);
  });

  it('keeps option keys with dots as safe field names and carries the hints', () => {
    const tabs = buildSettingsModel(FILES, { lang: 'en', role: 100 });
    const oidc = section(tabs, 'system-oidc');
    expect(oidc.fields[0]).toMatchObject({ key: 'oidc.well_known', name: 'oidc__well_known' });
    expect(oidc.uiSchema.oidc__well_known['ui:options'].action).toBe('oidc-discover');
    expect(section(tabs, 'system-login').uiSchema.PasswordLoginEnabled['ui:options'].confirmOff).toBe(true);
    expect(section(tabs, 'operation-ratios').subTabs).toEqual(['json', 'ratio-table', 'unpriced-models']);
    expect(section(tabs, 'operation-log').actions).toEqual(['log-cleanup']);
    expect(section(tabs, 'system-general').fields[0].trimTrailingSlash).toBe(true);
    expect(
      section(tabs, 'operation-ratios')
        .fields.filter((f) => f.ratioColumn)
        .map((f) => f.ratioColumn),
    ).toEqual(['price', 'ratio', 'completionRatio']);
    expect(section(tabs, 'operation-general').schema.properties?.QuotaPerUnit).not.toHaveProperty('default');
  });

  it('shows root-only sections to the super administrator alone and disables root-only keys for admins', () => {
    const admin = buildSettingsModel(FILES, { lang: 'zh', role: 10 });
    expect(admin.map((t) => t.tab)).toEqual(['operation', 'ratelimit', 'models', 'other']);
    expect(section(admin, 'operation-general').uiSchema.TopUpLink['ui:disabled']).toBe(true);
    const root = buildSettingsModel(FILES, { lang: 'zh', role: 100 });
    expect(section(root, 'operation-general').uiSchema.TopUpLink['ui:disabled']).toBeUndefined();
  });

  it('refuses a widget name nobody registered', () => {
    const copy = structuredClone(FILES);
    copy[0].properties[Object.keys(copy[0].properties)[0]]['x-ui'] = { widget: 'colour-wheel' };
    expect(() => buildSettingsModel(copy, { lang: 'en', role: 100 })).toThrow(/colour-wheel/);
  });
});
