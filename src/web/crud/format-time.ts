/** Times as the console shows them (docs/console.md#lists-and-forms): `YYYY-MM-DD HH:mm:ss`. */
import dayjs from 'dayjs';

/** Unix seconds (or ISO text) as `YYYY-MM-DD HH:mm:ss`; '' for none (0, empty). */
export function formatTimestamp(value: unknown): string {
  if (value === null || value === undefined || value === '' || value === 0) return '';
  const d = typeof value === 'number' ? dayjs.unix(value) : dayjs(String(value));
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(value);
}
