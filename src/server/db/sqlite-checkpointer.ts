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
 *
 * The worker rests while nothing is written (IDLE_AFTER_MS without a change on the main
 * connection): it holds ~10 MB (a V8 isolate with the driver loaded), a quarter of what an
 * idle gateway keeps above a bare Node process. Meanwhile the main connection has its
 * automatic checkpoints back, and a one-row query every CHECKPOINT_EVERY_MS (`total_changes()`)
 * starts the worker again at the first write, so a burst pays at most one tick of it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 1000;
/** Without a write for this long, the worker rests. */
const IDLE_AFTER_MS = 30_000;
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
  try { checkpoint(); } catch {}
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  /** Whether the worker is up (false while it rests). */
  readonly running: boolean;
  /** Stops the worker for good (the main connection checkpoints once more when it closes). */
  stop(): Promise<void>;
}

export interface CheckpointerTiming {
  everyMs?: number;
  idleAfterMs?: number;
}

/** Starts checkpointing `file` (a WAL database the main connection `main` has open) off the event loop. */
export async function startCheckpointer(main: BetterSqlite3.Database, file: string, timing: CheckpointerTiming = {}): Promise<Checkpointer> {
  const everyMs = timing.everyMs ?? CHECKPOINT_EVERY_MS;
  const idleAfterMs = timing.idleAfterMs ?? IDLE_AFTER_MS;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const changes = main.prepare('SELECT total_changes() AS n').pluck();
  const takeBack = () => {
    if (main.open) main.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };

  let worker: Worker | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;

  /** Starts the worker; the main connection stops checkpointing once it is ready. */
  const wake = (): Promise<void> =>
    (starting ??= new Promise<void>((resolve, reject) => {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs } });
      w.once('message', () => {
        // Once ready (until then it keeps a starting process alive): a worker must not keep the
        // process alive on its own (tests, scripts that forget to close).
        w.unref();
        worker = w;
        starting = undefined;
        if (closed) {
          w.postMessage('stop');
          return resolve();
        }
        main.pragma('wal_autocheckpoint = 0');
        resolve();
      });
      w.once('error', (err) => {
        starting = undefined;
        reject(err);
      });
      w.on('exit', () => {
        // Failed, or stopped to rest or for good: the main connection checkpoints again.
        if (worker === w) worker = undefined;
        takeBack();
      });
    }));

  const rest = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const w = worker;
      if (!w) return resolve();
      worker = undefined;
      takeBack();
      // Waited for, it must hold the process up until it exits: unref'd, a caller whose
      // event loop has nothing else left (a script awaiting `close()`) would end there,
      // with its await never settled (exit code 13), before the worker said it stopped.
      w.ref();
      w.once('exit', () => resolve());
      w.postMessage('stop');
    });

  await wake();
  let lastChanges = changes.get() as number;
  let lastWrite = Date.now();
  const watch = setInterval(() => {
    if (closed || !main.open) return;
    const now = changes.get() as number;
    if (now !== lastChanges) {
      lastChanges = now;
      lastWrite = Date.now();
      if (!worker && !starting) void wake().catch(() => undefined);
    } else if (worker && Date.now() - lastWrite >= idleAfterMs) void rest();
  }, everyMs);
  watch.unref();

  return {
    get running() {
      return worker !== undefined;
    },
    stop: async () => {
      closed = true;
      clearInterval(watch);
      await starting?.catch(() => undefined);
      await rest();
      takeBack();
    },
  };
}
