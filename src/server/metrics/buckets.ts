/**
 * A histogram's counts kept as plain numbers by the code that measures, and read by the
 * exporter at scrape time (accumulated.ts). Recording is a short loop over the bounds and three
 * additions: no labels hashed, no object made (prom-client's own `observe` builds a label
 * object and a label string on every call, which the relay's hot path cannot afford).
 */

export class Buckets {
  /** Per bound, not cumulative; the last slot is +Inf. */
  readonly counts: Float64Array;
  /** Sum of the observations, milliseconds. */
  sumMs = 0;
  count = 0;

  /** `boundsMs`: ascending upper bounds in milliseconds. */
  constructor(readonly boundsMs: readonly number[]) {
    this.counts = new Float64Array(boundsMs.length + 1);
  }

  observeMs(ms: number): void {
    const bounds = this.boundsMs;
    let i = 0;
    while (i < bounds.length && ms > bounds[i]!) i++;
    this.counts[i]!++;
    this.sumMs += ms;
    this.count++;
  }
}

/** Request latencies: 5 ms to 5 minutes (a long stream), milliseconds. */
export const LATENCY_BOUNDS_MS: readonly number[] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 120_000, 300_000];

/** Settlement lag: queued to committed (a batch waits at most 50 ms, plus its write), milliseconds. */
export const SETTLEMENT_BOUNDS_MS: readonly number[] = [10, 25, 50, 75, 100, 250, 500, 1000, 5000, 30_000];
