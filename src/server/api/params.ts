/** Reading the small pieces of a request that several route modules share. */
import { AppError, MSG } from '../errors';

/** A record id from the path: a positive integer; 0 is the reference's `id 为空！`. */
export function parseIdParam(raw: string | undefined): number {
  const text = (raw ?? '').trim();
  if (!/^\d{1,15}$/.test(text)) throw new AppError(MSG.invalidParams, 400);
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
