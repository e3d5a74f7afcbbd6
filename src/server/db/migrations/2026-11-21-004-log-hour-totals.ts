/**
 * Hourly totals of the logs, per type (issue #6): rows and quota of every hour, kept exact
 * by triggers in the same transaction as each insert, delete or update of a log. The
 * console's totals over a type and a time range (no filter, last 24 hours, consumption of
 * the month ...) then read a few hundred hour rows plus the rows of the partial hours at
 * the range's two ends, instead of counting up to every log: COUNT(*) over a million logs
 * costs PostgreSQL some 60 ms of CPU and grows with the table.
 *
 * SQLite and PostgreSQL only. On MySQL, CREATE TRIGGER needs SUPER whenever binary logging
 * is on (the default), which managed MySQL rarely grants; it keeps counting the logs (see
 * `hasHourTotals` in the log repository).
 *
 * `hour` is `created_at - created_at % 3600`: the hour's first second for every timestamp
 * from 1970-01-01 on.
 */
import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../schema-helpers';

const TOTALS_OF_EXISTING_LOGS = sql`
  INSERT INTO log_hour_totals (hour, type, n, quota)
  SELECT created_at - created_at % 3600, type, count(*), sum(quota) FROM logs GROUP BY created_at - created_at % 3600, type`;

/** Adds a new log row to its hour (SQLite trigger step). */
const SQLITE_ADD_NEW = `INSERT INTO log_hour_totals (hour, type, n, quota) VALUES (NEW.created_at - NEW.created_at % 3600, NEW.type, 1, NEW.quota)
  ON CONFLICT (hour, type) DO UPDATE SET n = n + 1, quota = quota + excluded.quota;`;
/** Takes an old log row from its hour, and the hour away once it holds no log. */
const SQLITE_TAKE_OLD = `UPDATE log_hour_totals SET n = n - 1, quota = quota - OLD.quota WHERE hour = OLD.created_at - OLD.created_at % 3600 AND type = OLD.type;
  DELETE FROM log_hour_totals WHERE hour = OLD.created_at - OLD.created_at % 3600 AND type = OLD.type AND n = 0;`;

async function upSqlite(db: Kysely<any>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction; the table must not exist without
  // its triggers or its first totals (a crash in between would count some logs twice).
  await db.transaction().execute(async (trx) => {
    await sql`CREATE TABLE log_hour_totals (
      hour bigint NOT NULL, type integer NOT NULL, n bigint NOT NULL, quota bigint NOT NULL,
      PRIMARY KEY (hour, type)) WITHOUT ROWID`.execute(trx);
    await sql.raw(`CREATE TRIGGER logs_hour_totals_insert AFTER INSERT ON logs BEGIN ${SQLITE_ADD_NEW} END`).execute(trx);
    await sql.raw(`CREATE TRIGGER logs_hour_totals_delete AFTER DELETE ON logs BEGIN ${SQLITE_TAKE_OLD} END`).execute(trx);
    await sql.raw(`CREATE TRIGGER logs_hour_totals_update AFTER UPDATE OF created_at, type, quota ON logs BEGIN ${SQLITE_TAKE_OLD} ${SQLITE_ADD_NEW} END`).execute(trx);
    await TOTALS_OF_EXISTING_LOGS.execute(trx);
  });
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE log_hour_totals (
    hour bigint NOT NULL, type integer NOT NULL, n bigint NOT NULL, quota bigint NOT NULL,
    PRIMARY KEY (hour, type))`.execute(db);
  // Statement-level triggers: one upsert per hour and type a statement touched, however many
  // rows it wrote (the relay inserts its logs in batches). Sorted, so two transactions lock
  // the same hour rows in the same order. A trigger with transition tables serves one event
  // only, hence four triggers sharing one function.
  await sql`
    CREATE FUNCTION logs_hour_totals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM log_hour_totals;
        RETURN NULL;
      END IF;
      IF TG_OP = 'INSERT' THEN
        INSERT INTO log_hour_totals AS t (hour, type, n, quota)
        SELECT created_at - created_at % 3600, type, count(*), sum(quota) FROM new_logs GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (hour, type) DO UPDATE SET n = t.n + excluded.n, quota = t.quota + excluded.quota;
        RETURN NULL;
      END IF;
      IF TG_OP = 'DELETE' THEN
        INSERT INTO log_hour_totals AS t (hour, type, n, quota)
        SELECT created_at - created_at % 3600, type, -count(*), -sum(quota) FROM old_logs GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (hour, type) DO UPDATE SET n = t.n + excluded.n, quota = t.quota + excluded.quota;
      ELSE
        INSERT INTO log_hour_totals AS t (hour, type, n, quota)
        SELECT hour, type, sum(n), sum(quota) FROM (
          SELECT created_at - created_at % 3600 AS hour, type, -1 AS n, -quota AS quota FROM old_logs
          UNION ALL
          SELECT created_at - created_at % 3600, type, 1, quota FROM new_logs
        ) AS delta GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(quota) <> 0 ORDER BY 1, 2
        ON CONFLICT (hour, type) DO UPDATE SET n = t.n + excluded.n, quota = t.quota + excluded.quota;
      END IF;
      -- An hour whose logs all went (the clean-up of old logs) goes too.
      DELETE FROM log_hour_totals WHERE n = 0 AND (hour, type) IN (SELECT created_at - created_at % 3600, type FROM old_logs);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER logs_hour_totals_insert AFTER INSERT ON logs REFERENCING NEW TABLE AS new_logs FOR EACH STATEMENT EXECUTE FUNCTION logs_hour_totals()`.execute(db);
  await sql`CREATE TRIGGER logs_hour_totals_delete AFTER DELETE ON logs REFERENCING OLD TABLE AS old_logs FOR EACH STATEMENT EXECUTE FUNCTION logs_hour_totals()`.execute(db);
  await sql`CREATE TRIGGER logs_hour_totals_update AFTER UPDATE ON logs REFERENCING OLD TABLE AS old_logs NEW TABLE AS new_logs FOR EACH STATEMENT EXECUTE FUNCTION logs_hour_totals()`.execute(db);
  await sql`CREATE TRIGGER logs_hour_totals_truncate AFTER TRUNCATE ON logs FOR EACH STATEMENT EXECUTE FUNCTION logs_hour_totals()`.execute(db);
  // Kysely runs PostgreSQL migrations in one transaction, and CREATE TRIGGER above holds a
  // lock that keeps other writers' logs out until it commits: nothing is missed or doubled.
  await TOTALS_OF_EXISTING_LOGS.execute(db);
}

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
  else if (dialect === 'postgres') await upPostgres(db);
}

export async function down(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'mysql') return;
  for (const event of ['insert', 'delete', 'update', 'truncate']) {
    if (dialect === 'sqlite' && event === 'truncate') continue;
    await sql.raw(`DROP TRIGGER IF EXISTS logs_hour_totals_${event}${dialect === 'postgres' ? ' ON logs' : ''}`).execute(db);
  }
  if (dialect === 'postgres') await sql`DROP FUNCTION IF EXISTS logs_hour_totals()`.execute(db);
  await sql`DROP TABLE IF EXISTS log_hour_totals`.execute(db);
}
