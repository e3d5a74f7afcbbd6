import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { apiFor, forRole, searchDefaults, toggleQuery, valuesToFilters } from './list-query';

describe('list query', () => {
  it('picks the admin collection for administrators only', () => {
    const logs = { api: '/api/log/self/', adminApi: '/api/log/' };
    expect(apiFor(logs, 1)).toBe('/api/log/self/');
    expect(apiFor(logs, 10)).toBe('/api/log/');
    expect(apiFor({ api: '/api/token/' }, 100)).toBe('/api/token/');
  });

  it('keeps what the role may see', () => {
    const items = [{ key: 'a' }, { key: 'b', minRole: 10 }];
    expect(forRole(items, 1).map((i) => i.key)).toEqual(['a']);
    expect(forRole(items, 10).map((i) => i.key)).toEqual(['a', 'b']);
  });

  it('starts date-time filters relative to now', () => {
    const now = dayjs('2031-05-06T10:20:30');
    const values = searchDefaults(
      [
        { field: 'start_timestamp', kind: 'datetime', placeholderKey: 'x', defaultTime: { base: 'today' } },
        { field: 'end_timestamp', kind: 'datetime', placeholderKey: 'x', defaultTime: { base: 'now', offsetSeconds: 3600 } },
        { field: 'model', kind: 'text', placeholderKey: 'x' },
      ],
      now,
    );
    expect((values.start_timestamp as dayjs.Dayjs).format('YYYY-MM-DD HH:mm:ss')).toBe('2031-05-06 00:00:00');
    expect((values.end_timestamp as dayjs.Dayjs).format('YYYY-MM-DD HH:mm:ss')).toBe('2031-05-06 11:20:30');
    expect(values).not.toHaveProperty('model');
  });

  it('sends date-times as unix seconds and switched-on toggles as true', () => {
    const at = dayjs.unix(1900000000);
    expect(valuesToFilters({ start_timestamp: at, type: 2 })).toEqual([
      { field: 'start_timestamp', operator: 'eq', value: 1900000000 },
      { field: 'type', operator: 'eq', value: 2 },
    ]);
    expect(toggleQuery({ id_sort: true, tag_mode: false })).toEqual({ id_sort: 'true' });
  });
});
