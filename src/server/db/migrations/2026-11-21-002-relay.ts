/**
 * The relay's quota journal: one row per open reservation (an estimate taken from a user
 * and token before an upstream call). Settlement deletes the row in the same transaction
 * that applies the final charge, so at every instant "quota taken = consume logs + open
 * reservations". Rows left by a crashed process are refunded when its node starts again.
 */
import type { Kysely } from 'kysely';
import { createIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('quota_reservations')
    .ifNotExists()
    // Made by the writer (instance id + counter), so a batch needs no RETURNING.
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    /** NODE_NAME of the process that took it: recovery at start only touches its own node. */
    .addColumn('node', 'varchar(128)', (col) => col.notNull())
    /** Random per process start: tells the previous run's rows from the live ones. */
    .addColumn('instance', 'varchar(32)', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull())
    /** 0 for the playground (no token). */
    .addColumn('token_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await createIndex(db, dialect, 'quota_reservations', ['node', 'instance']);
  await createIndex(db, dialect, 'quota_reservations', ['created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_reservations').ifExists().execute();
}
