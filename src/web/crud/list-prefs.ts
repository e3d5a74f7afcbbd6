/**
 * The list choices a user keeps locally: which columns show (`<resource>-table-columns`,
 * column field → shown) and the page size (`page-size`, one of 10/20/50/100).
 */
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../shared/api/envelope';
import type { ColumnDef } from '../../shared/resources/columns';
import { columnsKey, readJson, readText, STORAGE_KEYS, writeJson, writeText } from '../storage';

export type ColumnPrefs = Record<string, boolean>;

export function isColumnShown(column: ColumnDef, prefs: ColumnPrefs): boolean {
  if (column.hideable === false) return true;
  return prefs[column.field] ?? !column.defaultHidden;
}

export function visibleColumns(columns: ColumnDef[], prefs: ColumnPrefs): ColumnDef[] {
  return columns.filter((c) => isColumnShown(c, prefs));
}

export function loadColumnPrefs(resource: string): ColumnPrefs {
  const prefs = readJson<ColumnPrefs>(columnsKey(resource));
  return prefs && typeof prefs === 'object' ? prefs : {};
}

export function saveColumnPrefs(resource: string, prefs: ColumnPrefs): void {
  writeJson(columnsKey(resource), prefs);
}

/** A stored page size, when it is one of the offered sizes. */
export function parsePageSize(raw: string | null): number {
  const n = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

export function loadPageSize(): number {
  return parsePageSize(readText(STORAGE_KEYS.pageSize));
}

export function savePageSize(size: number): void {
  writeText(STORAGE_KEYS.pageSize, String(parsePageSize(String(size))));
}
