/**
 * The only place where column types differ between SQLite, PostgreSQL and MySQL.
 * Migrations call these helpers and stay free of engine-specific SQL.
 */
import { sql, type ColumnDataType, type ColumnDefinitionBuilder, type Expression, type Kysely } from 'kysely';
import type { DialectName } from './connect';

export type MigrationDialect = DialectName;

export interface ColumnKit {
  /** Primary key column type: integer on SQLite (rowid alias), serial-compatible elsewhere. */
  id: ColumnDataType;
  autoId(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  timestamp: ColumnDataType;
  double: ColumnDataType;
  /** Default value for a boolean column that holds false. */
  false: Expression<unknown>;
}

export function columns(dialect: MigrationDialect): ColumnKit {
  switch (dialect) {
    case 'sqlite':
      return {
        id: 'integer',
        autoId: (col) => col.primaryKey().autoIncrement(),
        timestamp: 'datetime',
        double: 'real',
        false: sql`0`,
      };
    case 'postgres':
      return {
        id: 'serial',
        autoId: (col) => col.primaryKey(),
        timestamp: 'timestamptz',
        double: 'double precision',
        false: sql`false`,
      };
    case 'mysql':
      return {
        id: 'integer',
        autoId: (col) => col.primaryKey().autoIncrement(),
        timestamp: 'datetime(3)',
        double: 'double precision',
        false: sql`false`,
      };
  }
}

/** Creates `idx_<table>_<cols>`; PostgreSQL and SQLite skip it when it exists already. */
export async function createIndex(db: Kysely<any>, dialect: MigrationDialect, table: string, cols: string[]): Promise<void> {
  let builder = db.schema.createIndex(`idx_${table}_${cols.join('_')}`).on(table).columns(cols);
  if (dialect !== 'mysql') builder = builder.ifNotExists();
  await builder.execute();
}

/** Drops `idx_<table>_<cols>` made by `createIndex`; MySQL needs the table named. */
export async function dropIndex(db: Kysely<any>, dialect: MigrationDialect, table: string, cols: string[]): Promise<void> {
  const name = `idx_${table}_${cols.join('_')}`;
  // MySQL has no DROP INDEX IF EXISTS; the migrations that call this drop what an earlier one made.
  await (dialect === 'mysql' ? db.schema.dropIndex(name).on(table) : db.schema.dropIndex(name).ifExists()).execute();
}
