import { describe, expect, it } from 'vitest';
import type { ColumnDef } from '../../shared/resources/columns';
import { parsePageSize, visibleColumns } from './list-prefs';

const columns: ColumnDef[] = [
  { field: 'id', titleKey: 'id', hideable: false },
  { field: 'name', titleKey: 'name' },
  { field: 'email', titleKey: 'email', defaultHidden: true },
];

describe('list preferences', () => {
  it('shows defaults until the user chooses', () => {
    expect(visibleColumns(columns, {}).map((c) => c.field)).toEqual(['id', 'name']);
  });

  it('follows the stored choice but never hides fixed columns', () => {
    expect(visibleColumns(columns, { id: false, name: false, email: true }).map((c) => c.field)).toEqual(['id', 'email']);
  });

  it('accepts only the offered page sizes', () => {
    expect(parsePageSize('50')).toBe(50);
    expect(parsePageSize('100')).toBe(100);
    expect(parsePageSize('30')).toBe(10);
    expect(parsePageSize(null)).toBe(10);
  });
});
