/** Reading the small pieces of a request that several route modules share. */
import { AppError, MSG } from '../errors';

/** The largest record id: ids are integer columns, which PostgreSQL will not compare with larger numbers. */
const MAX_RECORD_ID = 2147483647;

/** A record id from the path: a positive integer; 0 is the reference's `id 为空！`. */
export function parseIdParam(raw: string | undefined): number {
  const text = (raw ?? '').trim();
  if (!/^\d{1,15}$/.test(text) || Number(text) > MAX_RECORD_ID) throw new AppError(MSG.invalidParams, 400);
  const id = Number(text);
  if (id === 0) throw new AppError(MSG.idEmpty);
  return id;
}

/** `?status_only=<anything non-empty>` turns a PUT into a status change (the reference's rule). */
export function isStatusOnly(query: unknown): boolean {
  const value = (query as { status_only?: unknown } | undefined)?.status_only;
  return typeof value === 'string' ? value !== '' : value !== undefined && value !== null;
}

/** A query value as text: the first one when repeated, '' when absent. */
export function queryText(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/**
 * Text no database stores as sent: NUL (PostgreSQL refuses it in text, so a filter or name
 * with one failed there with a 500) and lone UTF-16 surrogates (`\ud800` without its pair:
 * every driver writes U+FFFD instead, so what was stored would not read back as sent).
 * Both are refused with 400 on every database, before any query (see `findUnstorableText`).
 * A well-formed pair (an emoji) is one code point and is stored unchanged.
 */
const UNSTORABLE_TEXT = /[\0\p{Cs}]/u;

/** Whether `text` holds a NUL character or a lone surrogate. */
export function isUnstorableText(text: string): boolean {
  return UNSTORABLE_TEXT.test(text);
}

/**
 * Where the first text holding a NUL or a lone surrogate is in a parsed request part
 * (`query.keyword`, `body.items.0.name`; object keys count too), or undefined. Walks
 * without recursion, so a deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(value: unknown, where: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return path;
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push([item[i], `${path}.${i}`]);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      for (const [key, child] of Object.entries(item)) {
        if (isUnstorableText(key)) return path;
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
  return undefined;
}

/**
 * Refuses a request whose path parameters, query or body carry text no database stores as
 * sent (`isUnstorableText`) with 400 `无效的参数: <where> ...`, before any route reads it:
 * one check for every text filter, name and setting of /api.
 */
export function refuseUnstorableText(request: { params?: unknown; query?: unknown; body?: unknown }): void {
  const where = findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'query') ?? findUnstorableText(request.body, 'body');
  if (where) throw new AppError(`${MSG.invalidParams}: ${where} contains a NUL character or an unpaired surrogate`, 400);
}
