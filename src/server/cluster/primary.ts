/**
 * Cluster mode (WORKERS > 1): this process forks the workers that serve, all listening on the
 * one port (Node's cluster module hands connections out in turn), and does no HTTP work itself.
 *
 * - Worker 1 starts alone and the others once it listens: it runs the migrations and the
 *   first-start seeding (it is the master process of a master node), so they never race.
 * - Each worker gets its index in SWITCHYARD_WORKER_INDEX, from which its configuration derives
 *   its NODE_NAME (`<name>-<index>`) and whether it runs the background loops (worker 1).
 * - A worker that dies is replaced under the same index, so the replacement replays and
 *   recovers what the dead one left in the ledger (its NODE_NAME) and nothing of a live sibling.
 *   One that dies before ever listening at start stops the whole start (a configuration error
 *   would otherwise be retried for ever).
 * - Without Redis the primary carries the workers' change signals to their siblings and keeps
 *   the mailed codes (cluster/worker-link.ts).
 * - `/metrics` (when on): the worker a scrape lands on asks the primary, which adds up every
 *   listening worker's figures (metrics/cluster.ts).
 * - SIGTERM/SIGINT: every worker is told to drain (each finishes its requests and writes its
 *   settlements, as a single process does) and the primary exits when the last one has.
 */
import cluster, { type Worker } from 'node:cluster';
import { hostname } from 'node:os';
import { WORKER_INDEX_ENV, type Config } from '../config';
import { MemoryCodeStore } from '../services/accounts/code-store';
import { CLUSTER_TAG, isClusterMessage, type ClusterMessage, type CodeRequest } from './worker-link';
import { MetricsGatherer } from '../metrics/cluster';

/**
 * Longer than a worker's own forced stop (15 s after its DRAIN_DELAY, main.ts): the primary
 * waits for a clean drain first.
 */
const STOP_TIMEOUT_MS = 20_000;
/** A worker that lived shorter than this before dying is restarted after a growing pause. */
const QUICK_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** Pino-shaped lines, like the workers' Fastify logger, so one log reads as one stream. */
function logLine(level: 'info' | 'warn' | 'error', msg: string): void {
  const levels = { info: 30, warn: 40, error: 50 } as const;
  process.stdout.write(JSON.stringify({ level: levels[level], time: Date.now(), pid: process.pid, hostname: hostname(), msg }) + '\n');
}

interface Slot {
  index: number;
  worker: Worker;
  startedAt: number;
  listened: boolean;
  /** Quick deaths in a row (restart back-off). */
  quickDeaths: number;
}

/**
 * `main`: the server's entry module (the bundle, or the source under tsx), which the workers
 * run; not the script that started this process (`npm start`'s build check need not run again).
 */
export function runPrimary(config: Config, main: string): void {
  // The workers inherit this process's Node flags (tsx's loader when run from source).
  cluster.setupPrimary({ exec: main });
  const slots = new Map<number, Slot>();
  const codes = new MemoryCodeStore();
  let stopping = false;
  let failed = false;
  let starting = true;

  const send = (worker: Worker, message: ClusterMessage) => {
    if (worker.isConnected()) worker.send(message, undefined, () => undefined);
  };
  const metrics = new MetricsGatherer(send);

  const answerCodes = (worker: Worker, request: CodeRequest) => {
    const run =
      request.op === 'put'
        ? codes.put(request.purpose, request.email, request.code, request.ttlSeconds).then(() => true)
        : request.op === 'consume'
          ? codes.consume(request.purpose, request.email, request.code)
          : codes.matches(request.purpose, request.email, request.code);
    run.then(
      (result) => send(worker, { tag: CLUSTER_TAG, kind: 'codes-reply', id: request.id, result }),
      (err: unknown) => send(worker, { tag: CLUSTER_TAG, kind: 'codes-reply', id: request.id, result: false, error: err instanceof Error ? err.message : String(err) }),
    );
  };

  const finishIfDone = () => {
    if (slots.size > 0) return;
    process.exit(failed ? 1 : 0);
  };

  const stopAll = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logLine('info', `${reason}: telling ${slots.size} workers to finish their requests, then stopping`);
    for (const slot of slots.values()) slot.worker.process.kill('SIGTERM');
    const stopTimeoutMs = config.drainDelaySeconds * 1000 + STOP_TIMEOUT_MS;
    const force = setTimeout(() => {
      logLine('error', `workers still running after ${stopTimeoutMs / 1000} s: killing them`);
      for (const slot of slots.values()) slot.worker.process.kill('SIGKILL');
      process.exit(1);
    }, stopTimeoutMs);
    force.unref();
    finishIfDone();
  };

  const fork = (index: number, quickDeaths = 0): Slot => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    const slot: Slot = { index, worker, startedAt: Date.now(), listened: false, quickDeaths };
    slots.set(index, slot);
    worker.on('message', (message: unknown) => {
      if (!isClusterMessage(message)) return;
      if (message.kind === 'change') {
        for (const other of slots.values()) if (other.worker !== worker) send(other.worker, message);
      } else if (message.kind === 'codes') {
        answerCodes(worker, message);
      } else if (message.kind === 'metrics-collect') {
        const listening = [...slots.values()].filter((s) => s.listened && s.worker.isConnected()).map((s) => s.worker);
        metrics.collect(worker, message.id, listening);
      } else if (message.kind === 'metrics-report') {
        metrics.report(worker, message);
      }
    });
    worker.on('listening', () => {
      slot.listened = true;
      slot.quickDeaths = 0;
    });
    worker.on('exit', (code, signal) => {
      if (slots.get(index)?.worker === worker) slots.delete(index);
      metrics.forget(worker);
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (stopping) {
        if (code !== 0) failed = true;
        logLine(code === 0 ? 'info' : 'error', `worker ${index} (pid ${worker.process.pid}) stopped with ${how}`);
        finishIfDone();
        return;
      }
      if (!slot.listened && starting) {
        logLine('error', `worker ${index} (pid ${worker.process.pid}) exited with ${how} before it listened: stopping`);
        failed = true;
        stopAll('start failed');
        return;
      }
      const quick = Date.now() - slot.startedAt < QUICK_DEATH_MS;
      const deaths = quick ? slot.quickDeaths + 1 : 0;
      const delay = quick ? Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (deaths - 1)) : 0;
      logLine('warn', `worker ${index} (pid ${worker.process.pid}) exited with ${how}: starting a replacement${delay ? ` in ${delay / 1000} s` : ''}`);
      setTimeout(() => {
        if (!stopping) fork(index, deaths);
      }, delay);
    });
    return slot;
  };

  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));

  logLine('info', `Switchyard ${config.version}: cluster of ${config.workers} workers on port ${config.port} (primary pid ${process.pid})`);
  const first = fork(1);
  first.worker.once('listening', () => {
    if (stopping) return;
    for (let index = 2; index <= config.workers; index++) fork(index);
    let waiting = config.workers - 1;
    if (waiting === 0) starting = false;
    for (const slot of slots.values()) {
      if (slot.index === 1) continue;
      slot.worker.once('listening', () => {
        if (--waiting === 0) {
          starting = false;
          logLine('info', `all ${config.workers} workers listen`);
        }
      });
    }
  });
}
