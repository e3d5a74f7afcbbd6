/**
 * Tells a value wider than its column. A database the reference made has narrower columns
 * than ours in places (`channels.base_url` is varchar(191) on its MySQL, `channels.group`
 * varchar(64), one-api's groups varchar(32)); PostgreSQL and strict MySQL refuse a longer
 * value, and nothing is written. Such a request is the client's mistake: a 400, not a 500.
 * SQLite stores any length.
 */
export function isValueTooLong(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return e?.code === '22001' || e?.code === 'ER_DATA_TOO_LONG';
}
