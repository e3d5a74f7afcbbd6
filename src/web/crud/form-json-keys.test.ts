import { describe, expect, it } from 'vitest';
import type { FormFieldDef } from '../../shared/resources/forms';
import { followJsonKeys, jsonKeyValues, mergeJsonKeys, readJsonKey, writeJsonKey } from './form-json-keys';
import { formValuesFromRecord, submittedValues } from './form-values';

const fields: FormFieldDef[] = [
  { field: 'name', kind: 'text', labelKey: 'n' },
  { field: 'proxy', kind: 'text', labelKey: 'p', jsonKeyOf: { field: 'setting', key: 'proxy' } },
  { field: 'setting', kind: 'json', labelKey: 's' },
];

describe('JSON key fields', () => {
  it('reads the key from the JSON text', () => {
    expect(readJsonKey('{"proxy":"socks5://h:1080","force_format":true}', 'proxy')).toBe('socks5://h:1080');
    expect(readJsonKey('{"force_format":true}', 'proxy')).toBe('');
    expect(readJsonKey('', 'proxy')).toBe('');
    expect(readJsonKey(null, 'proxy')).toBe('');
    expect(readJsonKey('{"proxy":', 'proxy')).toBeUndefined();
    expect(readJsonKey('[1]', 'proxy')).toBeUndefined();
  });

  it('writes the key into the JSON text, keeping the other keys and an unchanged text as it is', () => {
    expect(writeJsonKey('{"force_format":true}', 'proxy', 'http://h:3128')).toBe('{"force_format":true,"proxy":"http://h:3128"}');
    expect(writeJsonKey('', 'proxy', ' http://h:3128 ')).toBe('{"proxy":"http://h:3128"}');
    expect(writeJsonKey('{"force_format":true,"proxy":"http://h:3128"}', 'proxy', '')).toBe('{"force_format":true}');
    expect(writeJsonKey('{"proxy":"http://h:3128"}', 'proxy', '')).toBe('');
    const laidOut = '{\n  "proxy": "http://h:3128"\n}';
    expect(writeJsonKey(laidOut, 'proxy', 'http://h:3128')).toBe(laidOut);
    expect(writeJsonKey('{"proxy":', 'proxy', 'http://h:3128')).toBeUndefined();
  });

  it('starts the key field from the record', () => {
    expect(jsonKeyValues(fields, { setting: '{"proxy":"socks5://h"}' })).toEqual({ proxy: 'socks5://h' });
    expect(formValuesFromRecord(fields, { name: 'c', setting: '' })).toEqual({ name: 'c', setting: '', proxy: '' });
  });

  it('lets each side follow the other while the user types', () => {
    expect(followJsonKeys(fields, { proxy: 'http://h:1' }, { proxy: 'http://h:1', setting: '{"force_format":true}' })).toEqual({ setting: '{"force_format":true,"proxy":"http://h:1"}' });
    expect(followJsonKeys(fields, { setting: '{"proxy":"socks5://x"}' }, { proxy: '', setting: '{"proxy":"socks5://x"}' })).toEqual({ proxy: 'socks5://x' });
    // Half-typed JSON leaves the field alone; a change elsewhere moves nothing.
    expect(followJsonKeys(fields, { setting: '{"proxy":"so' }, { proxy: 'http://h:1', setting: '{"proxy":"so' })).toBeUndefined();
    expect(followJsonKeys(fields, { name: 'x' }, { name: 'x', proxy: 'http://h:1', setting: '{"proxy":"http://h:1"}' })).toBeUndefined();
  });

  it('sends the key inside its JSON text, never on its own', () => {
    expect(mergeJsonKeys(fields, { name: 'c', proxy: 'http://h:1', setting: '' }, { proxy: 'http://h:1' })).toEqual({ name: 'c', setting: '{"proxy":"http://h:1"}' });
    expect(submittedValues(fields, { name: 'c', proxy: 'socks5://h', setting: '{"force_format":true}' })).toEqual({ name: 'c', setting: '{"force_format":true,"proxy":"socks5://h"}' });
    expect(submittedValues(fields, { name: 'c', proxy: '', setting: '{"proxy":"socks5://h"}' })).toEqual({ name: 'c', setting: '' });
  });
});
