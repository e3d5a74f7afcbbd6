/**
 * The ledger's SQLite transactions keep statement journals in memory: a multi-row INSERT (its
 * log batches) past 64 KB of changed pages would otherwise spill its journal to a temporary
 * file and write every page a second time (bench/lib/log-insert.mjs measures it). The rest of
 * the connection keeps temporary storage on disk, where big sorts spill. SQLite opens such a
 * file and unlinks it at once, so it shows in /proc/self/fd as a deleted `etilqs_…` file
 * while the transaction is open.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { openDatabase, sqliteHandle } from '../../src/server/db/connect';
import { ledgerStore } from '../../src/server/relay/billing/ledger-store';

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

const ROWS = 256;
const INSERT = `INSERT INTO batch (a, b) VALUES ${Array.from({ length: ROWS }, () => '(?, ?)').join(', ')}`;

function createBatchTable(db: SQLite.Database): void {
  db.exec('CREATE TABLE batch (a INTEGER NOT NULL, b TEXT NOT NULL)');
  db.exec('CREATE INDEX batch_a ON batch (a)');
  db.exec('CREATE INDEX batch_b ON batch (b)');
}

/** The values of one of three statements; each one's keys fall between the earlier ones' (it changes pages that were there before it). */
function batchValues(statement: number, round = 0): (number | string)[] {
  const values: (number | string)[] = [];
  for (let i = 0; i < ROWS; i++) values.push(i * 3 + statement, `${String(i).padStart(4, '0')}-${statement}-${round}-${'x'.repeat(300)}`);
  return values;
}

/** ~250 KB of indexed rows in three multi-row statements, in a transaction of its own; answers the temp files open before COMMIT. */
function plainBatch(db: SQLite.Database, round: number): string[] {
  db.exec('BEGIN IMMEDIATE');
  for (let statement = 0; statement < 3; statement++) db.prepare(INSERT).run(...batchValues(statement, round));
  const open = openTempFiles();
  db.exec('COMMIT');
  return open;
}

describe('SQLite temporary storage', () => {
  it('a large multi-row insert spills its statement journal to a temporary file under SQLite’s default (the control)', () => {
    const db = new SQLite(tempFile());
    try {
      db.pragma('journal_mode = WAL');
      createBatchTable(db);
      expect(plainBatch(db, 0)).toHaveLength(1);
    } finally {
      db.close();
    }
  });

  it('the ledger’s transaction keeps it in memory, and only that transaction: the connection’s other writes and sorts still spill', async () => {
    const { db, close } = await openDatabase({ dialect: 'sqlite', location: tempFile() });
    try {
      const native = sqliteHandle(db)!;
      createBatchTable(native);
      const openInLedger = await ledgerStore(db, 'sqlite').transaction(async (runner) => {
        for (let statement = 0; statement < 3; statement++) await runner.run(INSERT, batchValues(statement));
        return openTempFiles();
      });
      expect(openInLedger).toEqual([]);
      expect(native.prepare('SELECT count(*) AS n FROM batch').get()).toEqual({ n: 768 });
      // The same work outside the ledger: SQLite's default again (disk).
      expect(plainBatch(native, 1)).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('gives the connection its default back when the ledger’s batch fails', async () => {
    const { db, close } = await openDatabase({ dialect: 'sqlite', location: tempFile() });
    try {
      const native = sqliteHandle(db)!;
      createBatchTable(native);
      const failing = ledgerStore(db, 'sqlite').transaction(async (runner) => {
        await runner.run(INSERT, batchValues(0));
        throw new Error('batch failed');
      });
      await expect(failing).rejects.toThrow('batch failed');
      expect(native.inTransaction).toBe(false);
      expect(native.prepare('SELECT count(*) AS n FROM batch').get()).toEqual({ n: 0 });
      expect(native.pragma('temp_store', { simple: true })).toBe(0);
    } finally {
      await close();
    }
  });
});
