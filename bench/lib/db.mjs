// Direct database access for seeding and for reading the ledger back: the gateway's SQLite
// file (better-sqlite3) or its PostgreSQL database (pg). Queries use `?` placeholders.
export async function openBenchDb({ sqlDsn, sqlitePath }) {
  if (!sqlDsn) {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(sqlitePath);
    db.pragma('busy_timeout = 5000');
    return {
      dialect: 'sqlite',
      all: async (sql, params = []) => db.prepare(sql).all(...params),
      exec: async (sql) => void db.exec(sql),
      close: async () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: sqlDsn });
  await client.connect();
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    dialect: 'postgres',
    all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows,
    exec: async (sql) => void (await client.query(sql)),
    close: async () => client.end(),
  };
}
