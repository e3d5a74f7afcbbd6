// The SQLite checkpointer: the main connection stops checkpointing by itself, a worker thread
// copies the log into the database file, and the log restarts instead of growing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../src/server/db/sqlite-checkpointer';
import { openDatabase, sqliteHandle } from '../../src/server/db/connect';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openWal(file: string): SQLite.Database {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
  return db;
}

/** Writes about `mb` MB in transactions of 16 rows of 4 KB. */
function write(db: SQLite.Database, mb: number): void {
  const insert = db.prepare('INSERT INTO t (payload) VALUES (?)');
  const payload = 'x'.repeat(4096);
  for (let batch = 0; batch < mb * 16; batch++)
    db.transaction(() => {
      for (let i = 0; i < 16; i++) insert.run(payload);
    })();
}

const size = (file: string) => statSync(file).size;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/** Waits until `measure` stays the same for `stillMs`. */
async function untilStill(measure: () => number, stillMs: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  let last = measure();
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    const now = measure();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= stillMs) return true;
  }
  return false;
}

/** A fresh WAL database with a checkpointer every 50 ms (resting after 30 s), for the length of `work`. */
async function withCheckpointer(work: (db: SQLite.Database, file: string) => Promise<void>): Promise<void> {
  const file = tempFile();
  const db = openWal(file);
  const checkpointer = await startCheckpointer(db, file, { everyMs: 50 });
  try {
    await work(db, file);
  } finally {
    await checkpointer.stop();
    db.close();
  }
}

describe('SQLite checkpointer', () => {
  it('takes checkpoints off the main connection and copies the log into the database file', () =>
    withCheckpointer(async (db, file) => {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const before = size(file);
      write(db, 4);
      // Written by the worker, not by a commit: the main connection no longer checkpoints.
      expect(await until(() => size(file) - before >= 4 * 1024 * 1024, 5000)).toBe(true);
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 4 * 16 * 16 });
    }));

  it('keeps the log from growing: once checkpointed, the next writes reuse it from the start', () =>
    withCheckpointer(async (db, file) => {
      for (let round = 0; round < 4; round++) {
        const target = size(file) + 2 * 1024 * 1024;
        write(db, 2);
        expect(await until(() => size(file) >= target, 5000)).toBe(true);
        // The file reaches its size before the checkpoint has finished (the log restarts only
        // once every frame is copied): wait until the worker stopped writing.
        expect(await untilStill(() => size(file), 200, 5000)).toBe(true);
      }
      // 8 MB went through a log that never held more than about one round of it.
      expect(size(`${file}-wal`)).toBeLessThan(4 * 1024 * 1024);
    }));

  it('rests while nothing is written, with the automatic checkpoints back, and wakes at the next write', async () => {
    const file = tempFile();
    const db = openWal(file);
    const checkpointer = await startCheckpointer(db, file, { everyMs: 50, idleAfterMs: 300 });
    try {
      expect(checkpointer.running).toBe(true);
      write(db, 1);
      // Busy: it keeps running while writes come.
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 100));
        db.prepare('INSERT INTO t (payload) VALUES (?)').run('x');
      }
      expect(checkpointer.running).toBe(true);
      // Quiet: it rests, and the main connection checkpoints by itself meanwhile.
      expect(await until(() => !checkpointer.running, 3000)).toBe(true);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      // A write wakes it, and the main connection stops checkpointing again.
      const before = size(file);
      write(db, 2);
      expect(await until(() => checkpointer.running, 3000)).toBe(true);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      expect(await until(() => size(file) - before >= 2 * 1024 * 1024, 5000)).toBe(true);
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 3 * 16 * 16 + 6 });
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('gives the main connection its automatic checkpoints back when it stops', async () => {
    const file = tempFile();
    const db = openWal(file);
    const checkpointer = await startCheckpointer(db, file, { everyMs: 50 });
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
    db.close();
  });

  it('runs under every SQLite file database the server opens, and not under :memory:', async () => {
    const file = tempFile();
    const onFile = await openDatabase({ dialect: 'sqlite', location: file });
    const inMemory = await openDatabase({ dialect: 'sqlite', location: ':memory:' });
    try {
      expect(sqliteHandle(onFile.db)!.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      expect(sqliteHandle(inMemory.db)!.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      await onFile.close();
      await inMemory.close();
    }
    // Closed cleanly: the last connection folded the log into the file and removed it.
    expect(() => statSync(`${file}-wal`)).toThrow();
  });

  it('lets a script whose only work left is `await close()` run to its end (the stopping worker holds the process up)', () => {
    // A process of its own, started from a module file (an entry module's top-level await
    // that never settles ends the process with exit code 13; a test runner never shows it).
    const file = tempFile();
    const script = join(dirname(file), 'close.mts');
    const connect = new URL('../../src/server/db/connect.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        `import { openDatabase } from ${JSON.stringify(connect)};`,
        `const { db, close } = await openDatabase({ dialect: 'sqlite', location: ${JSON.stringify(file)} });`,
        "await db.selectNoFrom((eb) => eb.lit(1).as('n')).execute();",
        'await close();',
        "process.stdout.write('closed');",
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: 'closed' });
    expect(() => statSync(`${file}-wal`)).toThrow();
  });
});
