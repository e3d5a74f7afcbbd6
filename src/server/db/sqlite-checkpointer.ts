/**
 * Moves SQLite's WAL checkpoints off the event loop.
 *
 * In WAL mode with `synchronous = NORMAL` a commit does not wait for the disk, but every
 * 1,000 pages the committing connection runs a checkpoint, which copies the log into the
 * database file and waits for two fsyncs. better-sqlite3 is synchronous, so that wait
 * stalls the whole process: every relay request and console call. On a busy disk it was
 * measured stalling the gateway most of the time (68 % of a profile spent in COMMIT, the
 * gateway at a quarter of its throughput).
 *
 * Here a worker thread with a connection of its own checkpoints every CHECKPOINT_EVERY_MS
 * (PASSIVE: it never waits for, nor blocks, the main connection's readers and writers), and
 * the main connection stops checkpointing by itself. Should the worker fail or exit, the
 * main connection takes its automatic checkpoints back, so the log never grows unbounded.
 * Durability is unchanged: the same commits, the same fsyncs, only on another thread.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 1000;
/** SQLite's own default, restored when the worker is gone. */
const AUTO_CHECKPOINT_PAGES = 1000;

/**
 * The worker's code (CommonJS, evaluated): it loads the same driver as the main thread (its
 * resolved path comes in workerData, so it works from the bundle, tsx and Vitest alike).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint(); } catch (err) { if (err && err.code !== 'SQLITE_BUSY' && err.code !== 'SQLITE_LOCKED') throw err; }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  /** Stops the worker (the main connection checkpoints once more when it closes). */
  stop(): Promise<void>;
}

/** Starts checkpointing `file` (a WAL database the main connection `main` has open) off the event loop. */
export async function startCheckpointer(main: BetterSqlite3.Database, file: string, everyMs = CHECKPOINT_EVERY_MS): Promise<Checkpointer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs } });
  let stopping = false;
  let exited = false;
  const takeBack = () => {
    if (main.open) main.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  main.pragma('wal_autocheckpoint = 0');
  worker.on('error', () => takeBack());
  worker.on('exit', () => {
    exited = true;
    if (!stopping) takeBack();
  });
  // A worker must not keep the process alive on its own (tests, scripts that forget to close).
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        takeBack();
        if (exited) return resolve();
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
