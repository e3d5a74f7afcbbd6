/**
 * The wire conventions shared by the console and the server: every /api reply is an
 * envelope, and every paged list takes `p` (first page 0) and `page_size`.
 */

/** Every /api reply. Business failures are `success: false` with a message, HTTP 200. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

/** The one shape of a paged list reply (`data` of the envelope). */
export interface Page<T> {
  items: T[];
  total: number;
  /** The page that was served, counted from 0 as requested. */
  page: number;
  page_size: number;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

/** The largest page number served as asked; larger ones are the first page (see parsePageRequest). */
export const MAX_PAGE = 10_000_000;

/** A plain decimal count ("0", "42", surrounding blanks allowed) of a query value; the first of a repeated one. */
function plainCount(value: unknown): { negative: boolean; digits: string } | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number') return Number.isSafeInteger(first) ? { negative: first < 0, digits: String(Math.abs(first)) } : undefined;
  if (typeof first !== 'string') return undefined;
  const match = /^\s*([+-]?)0*(\d+)\s*$/.exec(first);
  return match ? { negative: match[1] === '-', digits: match[2]! } : undefined;
}

/**
 * Reads `p` and `page_size` (tokens also send `size`) the one way every list does. Paging
 * never refuses a request; bad values are clamped, never passed to the database:
 * - `p` is served as asked only when it is a plain decimal count from 0 to MAX_PAGE
 *   (ten million pages). Anything else is the first page (0): missing, negative (`-1`),
 *   absurd (`99999999999999999999`), or not a plain count (`1e300`, `0x10`, `1.5`, `abc`).
 *   The reply's `page` says which page was served.
 * - `page_size` is clamped to 1..MAX_PAGE_SIZE: a plain count above 100 (`5000`,
 *   `99999999999999999999`) is 100; missing, zero, negative or not a plain count (`1e9`,
 *   `0x10`) is the default 10, as the reference's integer parsing gives.
 */
/**
 * The paging fields as route schemas describe them (/api/openapi.json): described only, since
 * parsePageRequest reads any value (a bad one is the first page or a clamped size).
 */
export const PAGE_QUERY_FIELDS = {
  p: { description: 'Page number, from 0' },
  page_size: { description: `Rows per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})` },
} as const;

export function parsePageRequest(query: { p?: unknown; page_size?: unknown; size?: unknown }): PageRequest {
  const p = plainCount(query.p);
  const page = p && !p.negative && p.digits.length <= 8 && Number(p.digits) <= MAX_PAGE ? Number(p.digits) : 0;
  const s = plainCount(query.page_size ?? query.size);
  let pageSize = DEFAULT_PAGE_SIZE;
  if (s && !s.negative && s.digits !== '0') pageSize = s.digits.length > 3 ? MAX_PAGE_SIZE : Math.min(Number(s.digits), MAX_PAGE_SIZE);
  return { page, pageSize, offset: page * pageSize };
}
