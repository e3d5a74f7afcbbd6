/**
 * Where a scrape's text comes from. One process: its own registry. Cluster mode (WORKERS > 1):
 * Prometheus reaches whichever worker the connection landed on, so that worker asks the primary,
 * which asks every listening worker for its figures (prom-client's `getMetricsAsJSON`) and adds
 * them up with prom-client's AggregatorRegistry (each metric by its aggregator: counters and
 * histograms summed, worst or oldest gauges by max). A scrape thus always reads the whole host,
 * whichever worker answers it. A worker that does not answer in time fails the scrape (503)
 * rather than giving sums without it, which Prometheus would read as counter resets.
 */
import type { Worker } from 'node:cluster';
import type { AggregatorRegistry, Registry } from 'prom-client';
import { promClient } from './prom-client';
import { CLUSTER_TAG, isClusterMessage, toPrimary, type ClusterMessage, type MetricsCollect, type MetricsReport } from '../cluster/worker-link';

export interface MetricsSource {
  readonly contentType: string;
  /** The exposition text of this scrape. */
  text(): Promise<string>;
  close(): void;
}

/** The process's own registry (no cluster). */
export function localMetrics(registry: Registry): MetricsSource {
  return { contentType: registry.contentType, text: () => registry.metrics(), close: () => undefined };
}

/** How long a worker waits for the primary's sum (the primary's own wait is shorter). */
const COLLECT_TIMEOUT_MS = 5000;
/** How long the primary waits for every worker's figures. */
const GATHER_TIMEOUT_MS = 4000;

/** A cluster worker's side: answers the primary's requests for its figures and asks it for the sum. */
export function workerMetrics(registry: Registry): MetricsSource {
  let next = 0;
  const pending = new Map<number, { resolve(text: string): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  const onMessage = (message: unknown) => {
    if (!isClusterMessage(message)) return;
    if (message.kind === 'metrics-request') {
      const id = message.id;
      registry.getMetricsAsJSON().then(
        (metrics) => toPrimary({ tag: CLUSTER_TAG, kind: 'metrics-report', id, metrics }),
        (err: unknown) => toPrimary({ tag: CLUSTER_TAG, kind: 'metrics-report', id, error: err instanceof Error ? err.message : String(err) }),
      );
    } else if (message.kind === 'metrics-collected') {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.text !== undefined) waiting.resolve(message.text);
      else waiting.reject(new Error(message.error ?? 'no metrics'));
    }
  };
  process.on('message', onMessage);
  return {
    contentType: registry.contentType,
    text() {
      if (!process.send || !process.connected) return Promise.reject(new Error('cluster primary unreachable'));
      const id = ++next;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('cluster primary did not answer'));
        }, COLLECT_TIMEOUT_MS);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        const ask: MetricsCollect = { tag: CLUSTER_TAG, kind: 'metrics-collect', id };
        toPrimary(ask);
      });
    },
    close() {
      process.off('message', onMessage);
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error('stopping'));
      }
      pending.clear();
    },
  };
}

interface Gathering {
  waiting: Set<Worker>;
  reports: unknown[][];
  finish(text?: string, error?: string): void;
}

/**
 * The primary's side: `collect` answers one worker's scrape with every listening worker's
 * figures added up; `report` takes the workers' answers (the primary routes them here).
 */
export class MetricsGatherer {
  #next = 0;
  readonly #gatherings = new Map<number, Gathering>();

  constructor(private readonly send: (worker: Worker, message: ClusterMessage) => void) {}

  collect(asker: Worker, askId: number, workers: Worker[]): void {
    const id = ++this.#next;
    const timer = setTimeout(() => {
      const g = this.#gatherings.get(id);
      g?.finish(undefined, `${g.waiting.size} of ${workers.length} workers did not report their metrics in time`);
    }, GATHER_TIMEOUT_MS);
    const gathering: Gathering = {
      waiting: new Set(workers),
      reports: [],
      finish: (text, error) => {
        clearTimeout(timer);
        this.#gatherings.delete(id);
        this.send(asker, { tag: CLUSTER_TAG, kind: 'metrics-collected', id: askId, ...(text !== undefined ? { text } : { error: error ?? 'no metrics' }) });
      },
    };
    this.#gatherings.set(id, gathering);
    if (workers.length === 0) return gathering.finish(undefined, 'no worker listens');
    for (const worker of workers) this.send(worker, { tag: CLUSTER_TAG, kind: 'metrics-request', id });
  }

  report(worker: Worker, message: MetricsReport): void {
    const g = this.#gatherings.get(message.id);
    if (!g || !g.waiting.delete(worker)) return;
    if (message.error !== undefined || !message.metrics) return g.finish(undefined, message.error ?? 'no metrics');
    g.reports.push(message.metrics);
    if (g.waiting.size > 0) return;
    // AggregatorRegistry.aggregate takes what getMetricsAsJSON gave (typed loosely by prom-client).
    promClient()
      .AggregatorRegistry.aggregate(g.reports as Parameters<typeof AggregatorRegistry.aggregate>[0])
      .metrics()
      .then(
        (text) => g.finish(text),
        (err: unknown) => g.finish(undefined, err instanceof Error ? err.message : String(err)),
      );
  }

  /** A worker that exits during a scrape fails it: its counters would vanish from the sum. */
  forget(worker: Worker): void {
    for (const g of this.#gatherings.values()) {
      if (!g.waiting.has(worker)) continue;
      g.finish(undefined, `worker pid ${worker.process.pid} exited during the scrape`);
    }
  }
}
