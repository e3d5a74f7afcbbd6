import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { bucketsBetween, bucketStart, defaultRange, hasUsage, modelTotals, OTHER_MODELS, seriesOf, summarize, type UsageRow } from './dashboard-model';

const at = (text: string) => dayjs(text).unix();
const rows: UsageRow[] = [
  { model_name: 'a', created_at: at('2031-05-05T10:00:00'), count: 2, quota: 100, token_used: 50 },
  { model_name: 'b', created_at: at('2031-05-05T11:00:00'), count: 1, quota: 300, token_used: 10 },
  { model_name: 'a', created_at: at('2031-05-06T09:00:00'), count: 3, quota: 50, token_used: 40 },
  { model_name: 'c', created_at: at('2031-05-06T09:00:00'), count: 1, quota: 1, token_used: 1 },
];

describe('dashboard model', () => {
  it('buckets by hour, local day and week from Monday', () => {
    expect(bucketStart(at('2031-05-06T09:30:00'), 'hour')).toBe(at('2031-05-06T09:00:00'));
    expect(bucketStart(at('2031-05-06T09:30:00'), 'day')).toBe(at('2031-05-06T00:00:00'));
    // 2031-05-06 is a Tuesday.
    expect(bucketStart(at('2031-05-06T09:30:00'), 'week')).toBe(at('2031-05-05T00:00:00'));
  });

  it('keeps the default ranges within the month a user may read', () => {
    for (const g of ['hour', 'day', 'week'] as const) {
      const { start, end } = defaultRange(g, 1_000_000_000);
      expect(end - start).toBeLessThanOrEqual(30 * 86400);
    }
  });

  it('sums totals and averages per minute', () => {
    expect(summarize(rows, 0, 600)).toEqual({ quota: 451, count: 7, tokens: 101, rpm: 0.7, tpm: 10.1 });
  });

  it('has usage to chart only when a request, a token or some quota was counted', () => {
    expect(hasUsage(summarize(rows, 0, 600))).toBe(true);
    expect(hasUsage(summarize([], 0, 600))).toBe(false);
    const zero = summarize(rows, 0, 600);
    expect(hasUsage({ ...zero, count: 0, tokens: 0, quota: 0 })).toBe(false);
    expect(hasUsage({ ...zero, count: 1, tokens: 0, quota: 0 })).toBe(true);
  });

  it('ranks models and builds per-bucket series with the rest as other', () => {
    expect(modelTotals(rows, 'quota').map((m) => m.model)).toEqual(['b', 'a', 'c']);
    const s = seriesOf(rows, { granularity: 'day', metric: 'quota', top: 2 });
    expect(s.models).toEqual(['b', 'a', OTHER_MODELS]);
    expect(s.buckets).toEqual([at('2031-05-05T00:00:00'), at('2031-05-06T00:00:00')]);
    expect(s.values).toEqual([
      [300, 0],
      [100, 50],
      [0, 1],
    ]);
  });

  it('fills every bucket of the range', () => {
    expect(bucketsBetween(at('2031-05-05T10:20:00'), at('2031-05-05T13:05:00'), 'hour')).toEqual([
      at('2031-05-05T10:00:00'),
      at('2031-05-05T11:00:00'),
      at('2031-05-05T12:00:00'),
      at('2031-05-05T13:00:00'),
    ]);
    const s = seriesOf(rows, { granularity: 'day', metric: 'count', range: { start: at('2031-05-04T08:00:00'), end: at('2031-05-06T08:00:00') } });
    expect(s.buckets).toHaveLength(3);
    expect(s.values[s.models.indexOf('a')]).toEqual([0, 2, 3]);
  });
});
