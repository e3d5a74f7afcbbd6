/**
 * How the ledger talks to the database: a handful of fixed statements run inside one
 * transaction per batch. They are the hottest queries of the product, so they skip the query
 * builder and are written once, in SQL every database understands (`?` placeholders, turned
 * into `$n` for PostgreSQL).
 *
 * SQLite: prepared statements are cached on the better-sqlite3 handle and run while Kysely's
 * single connection is held, so no other query can slip into (or collide with) the ledger's
 * transaction. PostgreSQL / MySQL: raw compiled queries on a Kysely transaction.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteHandle, type DialectName } from '../../db/connect';
import type { Database } from '../../db/tables';

export interface SqlResult {
  rows: Record<string, unknown>[];
  /** Rows changed (matched, on MySQL) by an UPDATE/DELETE/INSERT. */
  changes: number;
}

export interface SqlRunner {
  readonly dialect: DialectName;
  run(sql: string, params: readonly unknown[]): Promise<SqlResult>;
}

export interface LedgerStore {
  readonly dialect: DialectName;
  transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T>;
}

/** `?` → `$1, $2 …` for PostgreSQL (no statement of the ledger has a `?` inside a literal). */
function toPostgres(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Statements kept prepared at most (IN lists and multi-row inserts vary in length). */
const STATEMENT_CACHE = 512;

class SqliteStore implements LedgerStore {
  readonly dialect = 'sqlite' as const;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly native: BetterSqlite3.Database,
  ) {}

  #statement(sql: string): BetterSqlite3.Statement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      if (this.#statements.size >= STATEMENT_CACHE) this.#statements.clear();
      stmt = this.native.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  async transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    const runner: SqlRunner = {
      dialect: 'sqlite',
      run: async (sql, params) => {
        const stmt = this.#statement(sql);
        const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
        if (stmt.reader) return { rows: stmt.all(...values) as Record<string, unknown>[], changes: 0 };
        return { rows: [], changes: stmt.run(...values).changes };
      },
    };
    // Holding Kysely's only connection: every other query waits until the batch committed.
    return this.db.connection().execute(async () => {
      // A statement that writes many rows keeps a statement journal (the pages it changed, to
      // undo it alone); past 64 KB SQLite spills it to a temporary file, and the batch's log
      // INSERTs always pass that: every batch wrote its pages a second time, to a file deleted
      // right after. Kept in memory, a log row costs 8–31 % less CPU (bench/lib/log-insert.mjs).
      // Only for this transaction (SQLite decides it when the transaction begins): for the
      // other queries temporary storage stays on disk, where a sort or DISTINCT over millions
      // of rows spills instead of holding them all in memory.
      this.native.exec('PRAGMA temp_store = MEMORY');
      try {
        this.native.exec('BEGIN IMMEDIATE');
        const result = await work(runner);
        this.native.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.native.inTransaction) this.native.exec('ROLLBACK');
        throw err;
      } finally {
        // Outside any transaction again (SQLite refuses the change inside one).
        if (!this.native.inTransaction) this.native.exec('PRAGMA temp_store = DEFAULT');
      }
    });
  }
}

class KyselyStore implements LedgerStore {
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: DialectName,
  ) {}

  transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    const pg = this.dialect === 'postgres';
    return this.db.transaction().execute((trx) =>
      work({
        dialect: this.dialect,
        run: async (sql, params) => {
          const result = await trx.executeQuery(CompiledQuery.raw(pg ? toPostgres(sql) : sql, [...params]));
          return { rows: result.rows as Record<string, unknown>[], changes: Number(result.numAffectedRows ?? 0n) };
        },
      }),
    );
  }
}

export function ledgerStore(db: Kysely<Database>, dialect: DialectName): LedgerStore {
  const native = dialect === 'sqlite' ? sqliteHandle(db) : undefined;
  return native ? new SqliteStore(db, native) : new KyselyStore(db, dialect);
}
