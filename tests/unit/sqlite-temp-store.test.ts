/**
 * The server's SQLite connection keeps statement journals in memory: a multi-row INSERT (the
 * ledger's log batches) past 64 KB of changed pages would otherwise spill its journal to a
 * temporary file and write every page a second time (bench/lib/log-insert.mjs measures it).
 * SQLite opens that file and unlinks it at once, so it shows in /proc/self/fd as a deleted
 * `etilqs_…` file while the transaction is open.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { openDatabase, sqliteHandle } from '../../src/server/db/connect';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-temp-store-'));
  dirs.push(dir);
  return join(dir, 'test.db');
}

/** SQLite's temporary files this process holds open (they are unlinked when opened). */
function openTempFiles(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_')) out.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** Inserts ~250 KB of indexed rows in three multi-row statements, one transaction; answers the temp files open before COMMIT. */
function bigBatch(db: SQLite.Database): string[] {
  db.exec('CREATE TABLE batch (a INTEGER NOT NULL, b TEXT NOT NULL)');
  db.exec('CREATE INDEX batch_a ON batch (a)');
  db.exec('CREATE INDEX batch_b ON batch (b)');
  const rows = 256;
  const insert = db.prepare(`INSERT INTO batch (a, b) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`);
  db.exec('BEGIN IMMEDIATE');
  for (let statement = 0; statement < 3; statement++) {
    const values: (number | string)[] = [];
    // Each statement's keys fall between the earlier ones': it changes pages that were there before it.
    for (let i = 0; i < rows; i++) values.push(i * 3 + statement, `${String(i).padStart(4, '0')}-${statement}-${'x'.repeat(300)}`);
    insert.run(...values);
  }
  const open = openTempFiles();
  db.exec('COMMIT');
  return open;
}

describe('SQLite temporary storage', () => {
  it('a large multi-row insert spills its statement journal to a temporary file under SQLite’s default (the control)', () => {
    const db = new SQLite(tempFile());
    try {
      db.pragma('journal_mode = WAL');
      expect(bigBatch(db)).toHaveLength(1);
    } finally {
      db.close();
    }
  });

  it('the server’s connection keeps it in memory: no temporary file, the rows all there', async () => {
    const { db, close } = await openDatabase({ dialect: 'sqlite', location: tempFile() });
    try {
      const native = sqliteHandle(db)!;
      expect(bigBatch(native)).toEqual([]);
      expect(native.prepare('SELECT count(*) AS n FROM batch').get()).toEqual({ n: 768 });
    } finally {
      await close();
    }
  });
});
