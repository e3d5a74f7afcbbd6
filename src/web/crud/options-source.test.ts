import { describe, expect, it } from 'vitest';
import { fetchedOptions, staticOptions } from './options-source';

const source = { kind: 'fetch', url: '/api/group/' } as const;

describe('option sources', () => {
  it('reads lists of names', () => {
    expect(fetchedOptions(['default', 'vip'], source)).toEqual([
      { value: 'default', label: 'default' },
      { value: 'vip', label: 'vip' },
    ]);
  });

  it('reads lists of objects with chosen fields', () => {
    const data = [{ id: 1, name: 'OpenAI' }, { id: 14, name: 'Claude' }, { name: 'no id' }];
    expect(fetchedOptions(data, { ...source, valueField: 'id', labelField: 'name' })).toEqual([
      { value: 1, label: 'OpenAI' },
      { value: 14, label: 'Claude' },
    ]);
  });

  it('reads objects keyed by value, and nothing else', () => {
    expect(fetchedOptions({ default: { ratio: 1 }, vip: { ratio: 2 } }, source).map((o) => o.value)).toEqual(['default', 'vip']);
    expect(fetchedOptions(null, source)).toEqual([]);
  });

  it('translates static labels', () => {
    expect(staticOptions({ kind: 'static', options: [{ value: 1, labelKey: 'a' }] }, (k) => `t:${k}`)).toEqual([{ value: 1, label: 't:a' }]);
  });
});
