/**
 * Reads a `/metrics` scrape with a maintained parser of the text exposition format
 * (parse-prometheus-text-format): every family's type, and every sample's labels and value.
 *
 * That parser folds a histogram's `_bucket`/`_sum`/`_count` lines into one object per family
 * and loses their labels when the histogram has labels of its own, so histogram families are
 * handed to it as untyped: each of the three suffixed names then parses as a family of its own
 * with its full label set (the TYPE line is still read and kept as `histogram`).
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name → its declared type, lower-case (counter, gauge, histogram, …). */
  types: Map<string, string>;
  /** Sample name (a histogram's `_bucket`, `_sum`, `_count` apart) → its samples. */
  samples: Map<string, Sample[]>;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(name!, type!);
  const untypedHistograms = text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
  const samples = new Map<string, Sample[]>();
  for (const family of parsePrometheusTextFormat(untypedHistograms)) {
    const list = samples.get(family.name) ?? [];
    for (const metric of family.metrics) list.push({ labels: metric.labels ?? {}, value: Number(metric.value) });
    samples.set(family.name, list);
  }
  return { types, samples };
}

/** The samples of `name` whose labels include every one of `labels`. */
export function samplesOf(e: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return (e.samples.get(name) ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The value of the one sample of `name` with exactly these labels (0 when absent: a counter not yet moved). */
export function valueOf(e: Exposition, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.keys(labels).length;
  const found = samplesOf(e, name, labels).filter((s) => Object.keys(s.labels).length === wanted);
  if (found.length > 1) throw new Error(`${name}${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

/** A histogram's series with these labels: its cumulative buckets by `le`, sum and count. */
export function histogramOf(e: Exposition, name: string, labels: Record<string, string>): { buckets: Map<string, number>; sum: number; count: number } {
  const buckets = new Map<string, number>();
  for (const s of samplesOf(e, `${name}_bucket`, labels)) {
    if (Object.keys(s.labels).length === Object.keys(labels).length + 1) buckets.set(s.labels.le!, s.value);
  }
  return { buckets, sum: valueOf(e, `${name}_sum`, labels), count: valueOf(e, `${name}_count`, labels) };
}
