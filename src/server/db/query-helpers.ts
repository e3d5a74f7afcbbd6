/**
 * Query pieces every list and search shares: one page plus the count of all matches (the
 * one paging rule), and LIKE patterns whose wildcards in user input are taken literally.
 * Search text always travels as a bound parameter, never inside the SQL text.
 */
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Page, PageRequest } from '../../shared/api/envelope';

/**
 * Runs `query` (filtered, selected and ordered) for one page, and counts every match with
 * the same filter. The count is skipped when the first page is not full (it is the total).
 */
export async function pageRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, page: PageRequest): Promise<{ rows: O[]; total: number }> {
  const rows = await query.limit(page.pageSize).offset(page.offset).execute();
  if (page.offset === 0 && rows.length < page.pageSize) return { rows, total: rows.length };
  const counted = (await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow()) as { n: number | string | bigint };
  return { rows, total: Number(counted.n) };
}

/** The reply shape of every paged list. */
export function toPage<Row, Item>(page: PageRequest, result: { rows: Row[]; total: number }, map: (row: Row) => Item): Page<Item> {
  return { items: result.rows.map(map), total: result.total, page: page.page, page_size: page.pageSize };
}

/** Escapes LIKE's wildcards and the escape character itself (`!`). */
function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

/** `%text%`: contains `text` literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** `text%`: starts with `text` literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/** `column LIKE pattern`, with the escape character of the patterns above. */
export function likeMatch(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
}

/** Case-insensitive `column LIKE pattern` on every database and collation. */
export function likeMatchIgnoringCase(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '!'`;
}
