/**
 * Opens the database named by the configuration: SQLite by default, PostgreSQL for
 * `postgres://` DSNs, MySQL/MariaDB for `mysql://` URLs or Go-style DSNs
 * (`user:pass@tcp(host:3306)/db?parseTime=true`, as one-api operators write them).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from './tables';
import { SqliteValuesPlugin } from './sqlite-values-plugin';
import { startCheckpointer } from './sqlite-checkpointer';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * The better-sqlite3 handle behind a SQLite Kysely instance, for the few hot paths that run
 * prepared statements directly (the relay's ledger). Use it only while holding Kysely's
 * connection (`db.connection().execute(...)`), so no Kysely query interleaves.
 */
const sqliteHandles = new WeakMap<Kysely<Database>, BetterSqlite3.Database>();

export function sqliteHandle(db: Kysely<Database>): BetterSqlite3.Database | undefined {
  return sqliteHandles.get(db);
}

export interface DbTarget {
  dialect: DialectName;
  /** Connection URL for PostgreSQL/MySQL, file path for SQLite. */
  location: string;
}

/** Decides which database a DSN names. An empty DSN (or one starting with `local`) is SQLite. */
export function parseDsn(sqlDsn: string, sqlitePath: string): DbTarget {
  const dsn = sqlDsn.trim();
  if (dsn === '' || dsn.startsWith('local')) return { dialect: 'sqlite', location: sqlitePath };
  if (dsn.startsWith('postgres://') || dsn.startsWith('postgresql://')) return { dialect: 'postgres', location: dsn };
  if (dsn.startsWith('mysql://')) return { dialect: 'mysql', location: dsn };
  if (dsn.startsWith('sqlite:')) return { dialect: 'sqlite', location: dsn.slice('sqlite:'.length).replace(/^\/\//, '') };
  // Go DSN: user:password@tcp(host:port)/dbname?params
  const go = /^([^:@]*)(?::([^@]*))?@(?:tcp\(([^)]*)\)|([^/]*))\/([^?]*)(?:\?(.*))?$/.exec(dsn);
  if (go) {
    const [, user, password, tcpHost, plainHost, dbName] = go;
    const host = tcpHost || plainHost || '127.0.0.1:3306';
    const auth = password ? `${encodeURIComponent(user ?? '')}:${encodeURIComponent(password)}` : encodeURIComponent(user ?? '');
    return { dialect: 'mysql', location: `mysql://${auth}@${host}/${dbName}` };
  }
  throw new Error('SQL_DSN is neither a postgres:// URL, a mysql:// URL nor a MySQL DSN (user:pass@tcp(host:port)/db)');
}

/**
 * Kysely's SQLite transactions, begun IMMEDIATE (taking the write lock at once) instead of
 * DEFERRED. Within one process it changes nothing (one connection, one transaction at a time).
 * With several processes on one file (cluster workers), a deferred transaction that reads and
 * then writes fails with SQLITE_BUSY at once, without waiting, when another process wrote in
 * between; an immediate one waits for the lock within the busy timeout, like the ledger's.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/** How long a SQLite writer waits for another process's write (the ledger's group commits take milliseconds). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Index entries ANALYZE reads per index (SQLite); see openDatabase. */
const SQLITE_ANALYSIS_LIMIT = 100_000;
/** How often a SQLite connection checks whether its statistics are stale. */
const SQLITE_OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/**
 * Refreshes SQLite's planner statistics where they are missing or stale (a no-op
 * otherwise). `everyTable` also looks at tables this connection has not queried yet, as
 * after opening or migrating.
 */
export async function optimizeSqlite(db: Kysely<any>, everyTable = false): Promise<void> {
  await sql.raw(everyTable ? 'PRAGMA optimize = 0x10002' : 'PRAGMA optimize').execute(db);
}

export interface OpenOptions {
  maxConnections?: number;
  /** Errors of pooled connections nobody was waiting on (they are dropped and replaced). */
  onError?: (err: Error) => void;
}

/** A database that does not answer a connection attempt this fast is treated as down. */
export const CONNECT_TIMEOUT_MS = 3000;
/** No statement of ours may wait longer (reads of big log ranges take well under this). */
export const STATEMENT_TIMEOUT_MS = 10_000;

export async function openDatabase(target: DbTarget, options: OpenOptions = {}): Promise<Db> {
  const max = options.maxConnections ?? 20;
  if (target.dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    if (target.location !== ':memory:') mkdirSync(dirname(target.location), { recursive: true });
    const database = new SQLite(target.location);
    // WAL lets readers run beside the one writer; the busy timeout makes a second writer
    // (another process on the same file: cluster workers) wait instead of failing with SQLITE_BUSY.
    database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = OFF');
    // Without statistics the planner cannot tell a filter on one of a hundred users from one
    // on one of three groups, and may read a third of the logs instead of a hundredth.
    // SQLite's advice for long-lived connections: optimize at open (0x10002: every table
    // that needs it, not only the ones this connection used) and again now and then, which
    // only re-analyzes a table once it has grown a lot. The limit bounds each index's scan
    // (close to exact up to that many rows) so a large database still opens quickly.
    database.pragma(`analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`);
    database.pragma('optimize = 0x10002');
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }), plugins: [new SqliteValuesPlugin()] });
    sqliteHandles.set(db, database);
    // Without the worker (a failed start), the connection keeps checkpointing by itself.
    const checkpointer = target.location === ':memory:' ? undefined : await startCheckpointer(database, target.location).catch(() => undefined);
    // Through Kysely, so it never runs inside one of its transactions.
    const optimizer = setInterval(() => void optimizeSqlite(db).catch(() => undefined), SQLITE_OPTIMIZE_EVERY_MS);
    optimizer.unref();
    return {
      db,
      dialect: 'sqlite',
      close: async () => {
        clearInterval(optimizer);
        await checkpointer?.stop();
        await db.destroy();
        // Kysely closes the handle only if a query ever went through it.
        if (database.open) database.close();
      },
    };
  }
  if (target.dialect === 'postgres') {
    const pg = await import('pg');
    // BIGINT (int8) and NUMERIC come back as strings by default; quota values fit in a double.
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    pg.default.types.setTypeParser(1700, (v: string) => Number(v));
    const pool = new pg.default.Pool({
      connectionString: target.location,
      max,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // The server stops a statement at the limit (and frees its connection); the client gives
      // up a little later when not even that answer comes (a network that went silent).
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 1000,
      keepAlive: true,
    });
    // An idle pooled connection that dies (server restart, failover, pg_terminate_backend, a
    // network reset) is reported here; without a listener it would end the process. The pool
    // drops it and opens a new one when next needed.
    pool.on('error', (err) => options.onError?.(err));
    // The pool listens only while a connection is idle; one checked out (between two queries
    // of a transaction, say) reports to itself, and unheard that ends the process too.
    pool.on('connect', (client) => client.on('error', (err) => options.onError?.(err)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const mysql = await import('mysql2');
  const pool = mysql.createPool({
    uri: target.location,
    connectionLimit: max,
    // Keep DECIMAL/BIGINT as numbers, dates as UTC.
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    timezone: 'Z',
    charset: 'utf8mb4',
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableKeepAlive: true,
  });
  // As for PostgreSQL: a dead connection is reported, never fatal.
  pool.on('error' as 'connection', (err: unknown) => options.onError?.(err as Error));
  pool.on('connection', (connection) => boundStatements(connection as unknown as import('mysql2').PoolConnection, STATEMENT_TIMEOUT_MS));
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', close: () => db.destroy() };
}

/**
 * mysql2 bounds a statement only when asked per query: every query of a new connection is
 * given the deadline here (a connection whose statement timed out is closed by mysql2 and
 * dropped from the pool). Without it a query on a connection whose server stopped answering
 * waits for ever. The connection's own `query` is wrapped once, so the pool keeps handing out
 * the very same objects (a wrapper object would not be recognised when released).
 */
function boundStatements(connection: import('mysql2').PoolConnection, timeoutMs: number): void {
  type Callback = (err: unknown, result: unknown) => void;
  const query = connection.query as unknown as (q: unknown, v?: unknown, cb?: Callback) => unknown;
  (connection as unknown as { query: typeof query }).query = function (this: unknown, sql: unknown, values?: unknown, callback?: Callback) {
    const bounded = typeof sql === 'string' ? { sql, timeout: timeoutMs } : sql;
    const done: Callback | undefined = callback
      ? (err, result) => {
          if ((err as { code?: unknown } | null)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
          callback(err, result);
        }
      : undefined;
    return query.call(connection, bounded, values, done);
  };
}
