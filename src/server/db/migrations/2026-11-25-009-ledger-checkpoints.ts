/**
 * How far each relay process's settlements reached the database (issue #12, kill -9): one row
 * per process start. A settlement is first appended to the node's local journal file (see
 * relay/billing/local-journal.ts), numbered; the batch that writes it also moves this row, in
 * the same transaction. After a crash the next start replays exactly the numbered settlements
 * this row does not cover, so an answer already delivered is billed once and only once.
 * `applied_low`: every number up to it is written; `applied_above`: numbers above it that are
 * written too (a comma list, short: batches commit nearly in order).
 */
import type { Kysely } from 'kysely';
import { createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('ledger_checkpoints')
    .ifNotExists()
    .addColumn('instance', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('node', 'varchar(128)', (col) => col.notNull())
    .addColumn('applied_low', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('applied_above', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await createIndex(db, dialect, 'ledger_checkpoints', ['node']);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await dropIndex(db, dialect, 'ledger_checkpoints', ['node']);
  await db.schema.dropTable('ledger_checkpoints').ifExists().execute();
}
