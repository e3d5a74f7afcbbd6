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

/**
 * Whether an index of this name exists on the table. SQLite and PostgreSQL answer it with
 * IF NOT EXISTS; MySQL has no such clause, so it is looked up.
 */
async function mysqlIndexExists(db: Kysely<any>, table: string, name: string): Promise<boolean> {
  const row = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = ${table} AND index_name = ${name}`.execute(db);
  return Number(row.rows[0]?.n ?? 0) > 0;
}

/**
 * Creates `idx_<table>_<cols>` unless an index of that name exists already, on every
 * database: a database the reference made has many of the same names, and a MySQL
 * migration that stopped half-way (its DDL is not transactional) must be able to run again.
 */
export async function createIndex(db: Kysely<any>, dialect: MigrationDialect, table: string, cols: string[]): Promise<void> {
  const name = `idx_${table}_${cols.join('_')}`;
  if (dialect === 'mysql') {
    if (await mysqlIndexExists(db, table, name)) return;
    await db.schema.createIndex(name).on(table).columns(cols).execute();
    return;
  }
  await db.schema.createIndex(name).ifNotExists().on(table).columns(cols).execute();
}

/** The column names of a table (in the schema the connection uses); empty when it does not exist. */
export async function columnsOf(db: Kysely<any>, dialect: MigrationDialect, table: string): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`
      : dialect === 'postgres'
        ? sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`
        : sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ${table}`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** Drops `idx_<table>_<cols>` made by `createIndex`; MySQL needs the table named. */
export async function dropIndex(db: Kysely<any>, dialect: MigrationDialect, table: string, cols: string[]): Promise<void> {
  const name = `idx_${table}_${cols.join('_')}`;
  // MySQL has no DROP INDEX IF EXISTS.
  if (dialect === 'mysql') {
    if (await mysqlIndexExists(db, table, name)) await db.schema.dropIndex(name).on(table).execute();
    return;
  }
  await db.schema.dropIndex(name).ifExists().execute();
}
