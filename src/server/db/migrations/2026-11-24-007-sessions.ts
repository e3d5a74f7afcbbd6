/**
 * Server-side console sessions (issue #12): one row per signed-in browser. The cookie carries
 * a random key; the row holds its SHA-256 (`id`), the user and the expiry (unix seconds),
 * which slides forward while the session is used. Logout deletes the row; a password change,
 * a ban or a deletion deletes the user's rows, so every node sharing the database refuses
 * those cookies at once. `expires_at` is indexed for the sweep of expired rows.
 */
import type { Kysely } from 'kysely';
import { createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await createIndex(db, dialect, 'sessions', ['user_id']);
  await createIndex(db, dialect, 'sessions', ['expires_at']);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await dropIndex(db, dialect, 'sessions', ['expires_at']);
  await dropIndex(db, dialect, 'sessions', ['user_id']);
  await db.schema.dropTable('sessions').ifExists().execute();
}
