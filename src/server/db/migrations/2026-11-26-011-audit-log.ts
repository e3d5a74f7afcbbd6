/**
 * The audit log of administrative changes (issue #19): one row per write of an option,
 * channel, token, user or redemption made through the console's API, with who made it
 * (user id, name, IP), when, what (kind, action, target) and the changed fields before and
 * after as JSON, secrets masked. Indexed for the admin screen's filters: time alone, and
 * actor or kind each followed by time.
 */
import type { Kysely } from 'kysely';
import { columns, createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const kit = columns(dialect);
  await db.schema
    .createTable('audit_logs')
    .ifNotExists()
    .addColumn('id', kit.id, kit.autoId)
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('username', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('kind', 'varchar(32)', (col) => col.notNull())
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('target', 'varchar(191)', (col) => col.notNull().defaultTo(''))
    .addColumn('changes', 'text')
    .execute();
  await createIndex(db, dialect, 'audit_logs', ['created_at']);
  await createIndex(db, dialect, 'audit_logs', ['username', 'created_at']);
  await createIndex(db, dialect, 'audit_logs', ['kind', 'created_at']);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await dropIndex(db, dialect, 'audit_logs', ['kind', 'created_at']);
  await dropIndex(db, dialect, 'audit_logs', ['username', 'created_at']);
  await dropIndex(db, dialect, 'audit_logs', ['created_at']);
  await db.schema.dropTable('audit_logs').ifExists().execute();
}
