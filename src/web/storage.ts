/**
 * The console's locally stored items (docs/console.md#locally-stored-items), one key each, so
 * every reader and writer agrees on names and shapes.
 */

export const STORAGE_KEYS = {
  user: 'user',
  status: 'status',
  language: 'language',
  theme: 'theme-mode',
  pageSize: 'page-size',
  sidebarCollapsed: 'sidebar-collapsed',
  aff: 'aff',
  footerHtml: 'footer_html',
  chats: 'chats',
  noticeClosed: 'notice_close_date',
} as const;

/** Status fields also kept under their own names (docs/console.md#locally-stored-items). */
export const STATUS_MIRRORED_KEYS = ['enable_data_export', 'enable_drawing', 'enable_task', 'default_collapse_sidebar', 'chats', 'footer_html'] as const;

function store(): Storage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

export function readText(key: string): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeText(key: string, value: string): void {
  store()?.setItem(key, value);
}

export function removeItem(key: string): void {
  store()?.removeItem(key);
}

export function readJson<T>(key: string): T | undefined {
  const raw = readText(key);
  if (raw === null || raw === '') return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeText(key, JSON.stringify(value));
}

/** The column chooser's choice of one resource: column key → shown. */
export function columnsKey(resource: string): string {
  return `${resource}-table-columns`;
}
