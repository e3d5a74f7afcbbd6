/**
 * prom-client metrics whose values live in the measuring code's own plain numbers and are read
 * only when Prometheus scrapes. They are real prom-client Counters and Histograms (name, help,
 * label and bucket checks, type, aggregator, exposition and cluster aggregation are the
 * library's); only `get()` answers the accumulated values instead of the library's label map,
 * which its `inc`/`observe` would fill by hashing a label object on every request.
 */
import type { Counter, Histogram, LabelValues, MetricType } from 'prom-client';
import type { Buckets } from './buckets';
import type { PromClient } from './prom-client';

/** One labelled value of a counter. */
export interface CounterSample<T extends string> {
  labels: LabelValues<T>;
  value: number;
}

/** One labelled histogram (its bounds must be the metric's buckets, in milliseconds). */
export interface HistogramSample<T extends string> {
  labels: LabelValues<T>;
  buckets: Buckets;
}

/**
 * The two classes, made from the loaded library (they extend its Counter and Histogram, so they
 * exist only once prom-client is loaded: metrics/prom-client.ts).
 */
export function accumulatedMetricClasses(prom: PromClient) {
  class AccumulatedCounter<T extends string> extends prom.Counter<T> {
    readonly #read: () => Iterable<CounterSample<T>>;

    constructor(config: { name: string; help: string; labelNames: readonly T[]; registers: ConstructorParameters<typeof Counter>[0]['registers'] }, read: () => Iterable<CounterSample<T>>) {
      super(config);
      this.#read = read;
    }

    override async get(): ReturnType<Counter<T>['get']> {
      const base = await super.get();
      const values = [];
      for (const sample of this.#read()) values.push({ labels: sample.labels, value: sample.value });
      return { ...base, values };
    }
  }

  class AccumulatedHistogram<T extends string> extends prom.Histogram<T> {
    readonly #name: string;
    readonly #help: string;
    readonly #read: () => Iterable<HistogramSample<T>>;

    /** `boundsMs`: the Buckets' bounds, exported in seconds. */
    constructor(
      config: { name: string; help: string; labelNames: readonly T[]; registers: ConstructorParameters<typeof Histogram>[0]['registers'] },
      readonly boundsMs: readonly number[],
      read: () => Iterable<HistogramSample<T>>,
    ) {
      super({ ...config, buckets: boundsMs.map((ms) => ms / 1000) });
      this.#name = config.name;
      this.#help = config.help;
      this.#read = read;
    }

    /**
     * prom-client's Histogram answers `get()` through an untyped `getForPromString()` (series
     * labels kept apart from `le`), which the text exposition calls directly: both are answered
     * here, every value with its full labels (what both readers accept), never from the library's
     * own (empty) label map.
     */
    override async get(): ReturnType<Histogram<T>['get']> {
      const values: Awaited<ReturnType<Histogram<T>['get']>>['values'] = [];
      const name = this.#name;
      for (const { labels, buckets } of this.#read()) {
        if (buckets.count === 0) continue;
        let cumulative = 0;
        for (let i = 0; i < buckets.counts.length; i++) {
          cumulative += buckets.counts[i]!;
          const le = i < this.boundsMs.length ? this.boundsMs[i]! / 1000 : '+Inf';
          // `le` is the exposition's own label, which the metric's label type does not name.
          values.push({ labels: { ...labels, le } as LabelValues<T>, value: cumulative, metricName: `${name}_bucket` });
        }
        values.push({ labels, value: buckets.sumMs / 1000, metricName: `${name}_sum` });
        values.push({ labels, value: buckets.count, metricName: `${name}_count` });
      }
      // prom-client's typings declare `type` as an enum (the library uses the type's name) and a
      // `collect` in the answer, which no reader of it calls.
      return { name, help: this.#help, type: 'histogram' as unknown as MetricType, aggregator: 'sum', collect: () => undefined, values };
    }

    async getForPromString(): ReturnType<Histogram<T>['get']> {
      return this.get();
    }
  }

  return { AccumulatedCounter, AccumulatedHistogram };
}
