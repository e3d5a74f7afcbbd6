/**
 * The one way the log, drawing-task and music-task lists read their filters and serve a
 * page: query values arrive as text (validated by the routes' querystring schemas), a
 * filter left out, sent empty or (for a number) sent as no number at all does not filter,
 * and every page answers `{items, total, page, page_size}`.
 */
import { sql, type ComparisonOperatorExpression, type ReferenceExpression, type SelectQueryBuilder } from 'kysely';
import { PAGE_QUERY_FIELDS, type Page, type PageRequest } from '../../../shared/api/envelope';
import type { Database } from '../../db/tables';

/** Text that reads as a decimal number: sign, digits, fraction, exponent. */
const NUMBER_TEXT = '\\s*[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?\\s*';

/**
 * Querystring schema of a whole-number filter of at most `digits` digits. Text that is no
 * number at all (`NaN`, `abc`; the reference's console sends `NaN` for a date left empty,
 * and its binder reads such text as 0) passes and means "not given" (see intFilter); a
 * number must be a whole one within the digits, else the request is refused (400).
 */
function wholeNumberParam(digits: number) {
  return { type: 'string', pattern: `^(?!${NUMBER_TEXT}$)|^\\s*-?\\d{0,${digits}}\\s*$` } as const;
}

/** Querystring schema of a whole-number filter of a bigint column (unix seconds). */
export const INTEGER_PARAM = wholeNumberParam(15);
/**
 * Querystring schema of a whole-number filter of an integer column (ids, types): at most
 * nine digits, so the value always fits the column (PostgreSQL refuses to compare an
 * integer column with a larger number instead of matching nothing).
 */
export const INT32_PARAM = wholeNumberParam(9);
/** Querystring schema of a text filter (names, ids of upstream tasks). */
export const TEXT_PARAM = { type: 'string', maxLength: 191 } as const;

/**
 * The querystring schema of a list: the given filters. The paging fields `p` and
 * `page_size` are only described: parsePageRequest reads them the same way on every list
 * (bad values are the first page or a clamped size, never a refusal).
 */
/** Querystring schema of a filter that takes one of a few names (or '' for any). */
export type EnumParam = { readonly type: 'string'; readonly enum: readonly string[] };

export function listQuerySchema(filters: Record<string, typeof INTEGER_PARAM | typeof INT32_PARAM | typeof TEXT_PARAM | EnumParam>) {
  return {
    type: 'object',
    properties: { ...PAGE_QUERY_FIELDS, ...filters },
  } as const;
}

/** A whole-number filter; missing, empty or no number at all (`NaN`): undefined. */
export function intFilter(value: string | undefined): number | undefined {
  const text = value?.trim();
  return text && /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/** A filter where 0 means "any" (type, channel, time bounds): undefined for 0 too. */
export function nonZeroFilter(value: string | undefined): number | undefined {
  return intFilter(value) || undefined;
}

/** A text filter; missing or empty: undefined. */
export function textFilter(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/** One condition; skipped when its value is undefined. */
export type Condition<TB extends keyof Database> = readonly [ReferenceExpression<Database, TB>, ComparisonOperatorExpression, string | number | undefined];

/** Adds every condition whose value is given. Values are always bound as parameters. */
export function whereGiven<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>, conditions: readonly Condition<TB>[]): SelectQueryBuilder<Database, TB, O> {
  let q = query;
  for (const [column, op, value] of conditions) {
    if (value !== undefined) q = q.where(column, op, value as never);
  }
  return q;
}

/**
 * Fetches one page of the filtered rows and their total. `selectItems` adds the columns and
 * the order; `count` (by default COUNT(*) of the bare filtered query) runs only when the
 * page cannot tell the total itself: a page that is neither full nor past the end is the
 * last one, so the total is its offset plus its rows (counting a million matches costs more
 * than the page).
 */
export async function fetchPage<TB extends keyof Database, O>(
  filtered: SelectQueryBuilder<Database, TB, object>,
  selectItems: (query: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, O>,
  page: PageRequest,
  count: () => Promise<number> = async () => Number((await filtered.select(sql<number | string>`count(*)`.as('total')).executeTakeFirst())?.total ?? 0),
): Promise<Page<O>> {
  const items = await selectItems(filtered).limit(page.pageSize).offset(page.offset).execute();
  const isLast = items.length < page.pageSize && (items.length > 0 || page.offset === 0);
  return { items: items as O[], total: isLast ? page.offset + items.length : await count(), page: page.page, page_size: page.pageSize };
}

/**
 * Text columns without NOT NULL (content, prompt, other ...) may hold NULL in databases
 * written by older versions; replies carry '' instead.
 */
export function nullsToEmpty<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = value === null ? '' : value;
  return out as T;
}
