/**
 * The database matrix of the tests: SQLite always, PostgreSQL and MySQL/MariaDB when
 * TEST_POSTGRES_URL / TEST_MYSQL_URL are set (.ci/run sets them). Suites for a database
 * that is not configured are reported as skipped, never silently passed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import type { DialectName } from '../../src/server/db/connect';

export interface DialectCase {
  name: DialectName;
  /** Server URL for PostgreSQL/MySQL; undefined when not configured (suite skipped). */
  url: string | undefined;
}

export const DIALECTS: DialectCase[] = [
  { name: 'sqlite', url: 'sqlite' },
  { name: 'postgres', url: process.env.TEST_POSTGRES_URL || undefined },
  { name: 'mysql', url: process.env.TEST_MYSQL_URL || undefined },
];

/** Runs `body` once per database of the matrix; unconfigured ones are skipped. */
export function describeEachDialect(title: string, body: (dialect: DialectCase) => void): void {
  for (const dialect of DIALECTS) {
    describe.skipIf(!dialect.url)(`${title} [${dialect.name}]`, () => body(dialect));
  }
}

export interface TestDatabase {
  /** Value for SQL_DSN (empty for SQLite). */
  sqlDsn: string;
  sqlitePath: string;
  dataDir: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

/** A fresh, empty database of the given kind, dropped again by `drop()`. */
export async function createTestDatabase(dialect: DialectCase): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const name = `sy_test_${randomBytes(6).toString('hex')}`;
  if (dialect.name === 'sqlite') {
    return { sqlDsn: '', sqlitePath: join(dataDir, 'test.db'), dataDir, drop: async () => removeDir() };
  }
  if (dialect.name === 'postgres') {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: dialect.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      sqlDsn: withDatabase(dialect.url!, name),
      sqlitePath: join(dataDir, 'unused.db'),
      dataDir,
      drop: async () => {
        const c = new pg.Client({ connectionString: dialect.url });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
        removeDir();
      },
    };
  }
  const mysql = await import('mysql2/promise');
  const admin = await mysql.createConnection({ uri: dialect.url! });
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
  return {
    sqlDsn: withDatabase(dialect.url!, name),
    sqlitePath: join(dataDir, 'unused.db'),
    dataDir,
    drop: async () => {
      const c = await mysql.createConnection({ uri: dialect.url! });
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
      removeDir();
    },
  };
}
