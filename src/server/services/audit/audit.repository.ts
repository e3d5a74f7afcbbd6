/**
 * Reads the audit log for the admin screen: newest first, filtered by actor (user name),
 * kind and time range, each served by an index of migration 2026-11-26-011-audit-log.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Page, PageRequest } from '../../../shared/api/envelope';
import type { AuditLogsTable, Database } from '../../db/tables';
import { fetchPage, whereGiven } from '../logs/filtered-list';

export interface AuditFilter {
  actor?: string;
  kind?: string;
  /** Unix seconds, inclusive. */
  start?: number;
  end?: number;
}

export type AuditItem = Selectable<AuditLogsTable>;

export async function listAuditPage(db: Kysely<Database>, filter: AuditFilter, page: PageRequest): Promise<Page<AuditItem>> {
  const filtered = whereGiven(db.selectFrom('audit_logs'), [
    ['username', '=', filter.actor],
    ['kind', '=', filter.kind],
    ['created_at', '>=', filter.start],
    ['created_at', '<=', filter.end],
  ]);
  const page_ = await fetchPage(filtered, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
  return { ...page_, items: page_.items.map((row) => ({ ...row, changes: row.changes ?? '' })) };
}
