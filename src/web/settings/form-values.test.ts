import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './catalogue-source';
import { changedOptions, secretsSet, sectionProblems, toFormData, type OptionEntry } from './form-values';
import { buildSettingsModel, type SectionModel } from './settings-model';

const tabs = buildSettingsModel(CATALOGUE.sections, { lang: 'zh', role: 100 });
const section = (id: string): SectionModel => tabs.flatMap((t) => t.sections).find((s) => s.id === id)!;
const entries = (rows: OptionEntry[]) => new Map(rows.map((r) => [r.key, r]));

describe('settings form values', () => {
  it('decodes stored strings by type, pretty-prints JSON and blanks secrets', () => {
    const general = section('operation-general');
    const data = toFormData(
      general,
      entries([
        { key: 'QuotaPerUnit', value: '500000' },
        { key: 'DisplayInCurrencyEnabled', value: 'false' },
        { key: 'Chats', value: '[{"a":"b"}]' },
      ]),
    );
    expect(data.QuotaPerUnit).toBe(500000);
    expect(data.DisplayInCurrencyEnabled).toBe(false);
    expect(data.Chats).toBe('[\n  {\n    "a": "b"\n  }\n]');
    expect(data.RetryTimes).toBe(0);
    const smtp = section('system-smtp');
    const rows = entries([{ key: 'SMTPToken', value: '', is_set: true }]);
    expect(toFormData(smtp, rows).SMTPToken).toBe('');
    expect(secretsSet(smtp, rows)).toEqual({ SMTPToken: true });
  });

  it('sends one update per changed key, booleans as true/false, nothing for untouched ones', () => {
    const general = section('operation-general');
    const baseline = toFormData(general, entries([]));
    expect(changedOptions(general, baseline, { ...baseline })).toEqual([]);
    const changed = changedOptions(general, baseline, { ...baseline, DisplayInCurrencyEnabled: false, RetryTimes: 3 });
    expect(changed).toEqual([
      { key: 'RetryTimes', value: '3' },
      { key: 'DisplayInCurrencyEnabled', value: 'false' },
    ]);
  });

  it('uses the option key (with dots) on the wire and treats an emptied text as ""', () => {
    const docs = section('operation-general');
    const baseline = toFormData(docs, entries([{ key: 'general_setting.docs_link', value: 'https://d' }]));
    expect(changedOptions(docs, baseline, { ...baseline, general_setting__docs_link: undefined })).toEqual([{ key: 'general_setting.docs_link', value: '' }]);
  });

  it('strips trailing slashes from addresses and sends a secret only when typed', () => {
    const general = section('system-general');
    const baseline = toFormData(general, entries([{ key: 'ServerAddress', value: 'https://a.example' }]));
    expect(changedOptions(general, baseline, { ServerAddress: 'https://a.example//' })).toEqual([]);
    expect(changedOptions(general, baseline, { ServerAddress: 'https://b.example/' })).toEqual([{ key: 'ServerAddress', value: 'https://b.example' }]);
    const smtp = section('system-smtp');
    const base = toFormData(smtp, entries([]));
    expect(changedOptions(smtp, base, { ...base })).toEqual([]);
    expect(changedOptions(smtp, base, { ...base, SMTPToken: 'new-secret' })).toEqual([{ key: 'SMTPToken', value: 'new-secret' }]);
  });

  it('reports JSON that does not parse and numbers left empty', () => {
    const general = section('operation-general');
    const data = toFormData(general, entries([]));
    expect(sectionProblems(general, data)).toEqual([]);
    expect(sectionProblems(general, { ...data, Chats: '[{', RetryTimes: undefined })).toEqual([
      { name: 'RetryTimes', kind: 'number' },
      { name: 'Chats', kind: 'json' },
    ]);
  });
});
