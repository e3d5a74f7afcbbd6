/**
 * Billing state of asynchronous tasks (drawing `midjourneys`, music `tasks`), issue #17:
 * - `token_id`: the token that paid, so a refund goes back to it too (the reference refunds
 *   the user only, because its rows do not know the token);
 * - `billing`: where the task's money is, moved by conditional updates so it moves exactly
 *   once whatever node or restart does it: `held` (taken before the upstream call),
 *   `charged`, `released` (the upstream refused: given back), `refunded` (failed later:
 *   given back). Rows written by the reference keep '' and are treated as charged.
 * The reference's own columns are untouched, so a database shared with it stays readable.
 */
import type { Kysely } from 'kysely';
import { createIndex, dropIndex, type MigrationDialect } from '../schema-helpers';

const TABLES = ['midjourneys', 'tasks'] as const;

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('token_id', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('billing', 'varchar(12)', (col) => col.notNull().defaultTo(''))
      .execute();
    // The sweep of holds left by a crash looks for `held` rows only.
    await createIndex(db, dialect, table, ['billing']);
  }
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  for (const table of TABLES) {
    await dropIndex(db, dialect, table, ['billing']);
    await db.schema.alterTable(table).dropColumn('billing').execute();
    await db.schema.alterTable(table).dropColumn('token_id').execute();
  }
}
