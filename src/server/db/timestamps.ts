/** A database timestamp (Date, or SQLite's text) as RFC 3339, or null. */
export function toRfc3339(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  // SQLite stores `YYYY-MM-DD HH:MM:SS[.sss]` in UTC.
  const iso = value.includes('T') ? value : value.replace(' ', 'T') + 'Z';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}
