/**
 * The dashboard's numbers (docs/console.md#dashboard-page): hourly usage rows from `/api/data/`
 * grouped into hour, day or week buckets per model, totals and averages over the range.
 * Pure, so each rule is unit-tested; times are unix seconds read in local time.
 */
import dayjs from 'dayjs';

export type Granularity = 'hour' | 'day' | 'week';
export type Metric = 'quota' | 'count' | 'token_used';

export interface UsageRow {
  model_name: string;
  /** The hour, unix seconds. */
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

const DAY = 86400;
/** A user may read at most 30 days at once; the week view asks for a little less. */
const DEFAULT_SPAN: Record<Granularity, number> = { hour: DAY, day: 7 * DAY, week: 29 * DAY };

/** The default range of a granularity, ending an hour from now. */
export function defaultRange(granularity: Granularity, now: number): { start: number; end: number } {
  return { start: now - DEFAULT_SPAN[granularity], end: now + 3600 };
}

/** The start of the bucket holding `ts`: the hour, the local day, or the local week from Monday. */
export function bucketStart(ts: number, granularity: Granularity): number {
  const d = dayjs.unix(ts);
  if (granularity === 'hour') return d.startOf('hour').unix();
  if (granularity === 'day') return d.startOf('day').unix();
  const day = d.startOf('day');
  return day.subtract((day.day() + 6) % 7, 'day').unix();
}

export function bucketLabel(ts: number, granularity: Granularity): string {
  return dayjs.unix(ts).format(granularity === 'hour' ? 'MM-DD HH:00' : 'MM-DD');
}

export interface Summary {
  quota: number;
  count: number;
  tokens: number;
  /** Requests and tokens per minute over the range. */
  rpm: number;
  tpm: number;
}

export function summarize(rows: readonly UsageRow[], start: number, end: number): Summary {
  const minutes = Math.max(1, (end - start) / 60);
  const sum = (f: (r: UsageRow) => number) => rows.reduce((s, r) => s + (Number(f(r)) || 0), 0);
  const count = sum((r) => r.count);
  const tokens = sum((r) => r.token_used);
  return { quota: sum((r) => r.quota), count, tokens, rpm: round2(count / minutes), tpm: round2(tokens / minutes) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Whether the range has any usage to chart: without requests, tokens or quota the charts
 * would only draw empty axes (five `$0.00` ticks), so the page says there is nothing yet.
 */
export function hasUsage(summary: Summary): boolean {
  return summary.count > 0 || summary.tokens > 0 || summary.quota > 0;
}

/** Models by their total of `metric`, largest first. */
export function modelTotals(rows: readonly UsageRow[], metric: Metric): { model: string; value: number }[] {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.model_name, (totals.get(r.model_name) ?? 0) + (Number(r[metric]) || 0));
  return [...totals].map(([model, value]) => ({ model, value })).sort((a, b) => b.value - a.value || a.model.localeCompare(b.model));
}

export const OTHER_MODELS = '\u0000other';

export interface Series {
  /** Bucket starts in order, every bucket with data. */
  buckets: number[];
  /** The largest models, then OTHER_MODELS when more exist. */
  models: string[];
  /** models[i] → value per bucket. */
  values: number[][];
}

/** Every bucket start from the one holding `start` to the one holding `end`. */
export function bucketsBetween(start: number, end: number, granularity: Granularity): number[] {
  const unit = granularity === 'hour' ? 'hour' : granularity === 'day' ? 'day' : 'week';
  const out: number[] = [];
  const last = bucketStart(end, granularity);
  for (let at = dayjs.unix(bucketStart(start, granularity)); at.unix() <= last && out.length < 1000; at = at.add(1, unit)) out.push(at.unix());
  return out;
}

export interface SeriesOptions {
  granularity: Granularity;
  metric: Metric;
  /** The shown range: every bucket in it appears, with or without data. */
  range?: { start: number; end: number };
  top?: number;
}

/** Per-bucket values of the `top` largest models (the rest summed as OTHER_MODELS). */
export function seriesOf(rows: readonly UsageRow[], { granularity, metric, range, top = 6 }: SeriesOptions): Series {
  const ranked = modelTotals(rows, metric).map((m) => m.model);
  const models = ranked.length > top ? [...ranked.slice(0, top), OTHER_MODELS] : ranked;
  const withData = rows.map((r) => bucketStart(r.created_at, granularity));
  const buckets = [...new Set([...(range ? bucketsBetween(range.start, range.end, granularity) : []), ...withData])].sort((a, b) => a - b);
  const values = models.map(() => buckets.map(() => 0));
  for (const r of rows) {
    const m = models.indexOf(r.model_name);
    const mi = m >= 0 ? m : models.length - 1;
    values[mi][buckets.indexOf(bucketStart(r.created_at, granularity))] += Number(r[metric]) || 0;
  }
  return { buckets, models, values };
}
