/**
 * Drops the logs' (token_id, created_at) index: no query filters logs by token id (the console
 * filters by token name), and every index costs each log insert, the relay's most frequent
 * write (issue #6: about 1–1.5 µs a row, and one more page dirtied per row and commit).
 */
import type { Kysely } from 'kysely';
import { createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await dropIndex(db, dialect, 'logs', ['token_id', 'created_at']);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await createIndex(db, dialect, 'logs', ['token_id', 'created_at']);
}
