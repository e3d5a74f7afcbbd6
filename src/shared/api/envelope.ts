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

/**
 * Reads `p` and `page_size` (tokens also send `size`) the one way every list does:
 * missing or negative page → 0; missing, zero or negative size → 10; size capped at 100.
 */
export function parsePageRequest(query: { p?: unknown; page_size?: unknown; size?: unknown }): PageRequest {
  const pNum = Number(query.p);
  const page = Number.isInteger(pNum) && pNum > 0 ? pNum : 0;
  const rawSize = query.page_size ?? query.size;
  const sNum = Number(rawSize);
  const pageSize = Number.isInteger(sNum) && sNum > 0 ? Math.min(sNum, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  return { page, pageSize, offset: page * pageSize };
}
