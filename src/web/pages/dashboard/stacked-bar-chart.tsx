/**
 * A stacked column chart in plain SVG (no chart library): one column per time bucket, one
 * coloured segment per model, a value axis with four steps and a legend. Colours of text
 * and grid follow the antd theme.
 */
import { Empty, Space, theme, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { bucketLabel, OTHER_MODELS, type Granularity, type Series } from './dashboard-model';

export const PALETTE = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#64748b'];

const W = 800;
const H = 280;
const PAD = { left: 64, right: 12, top: 12, bottom: 36 };

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value)!;
  return step * power;
}

interface StackedBarChartProps {
  series: Series;
  granularity: Granularity;
  format: (value: number) => string;
}

export function StackedBarChart({ series, granularity, format }: StackedBarChartProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { buckets, models, values } = series;
  if (buckets.length === 0) return <Empty description={t('dashboard.noData')} />;
  const totals = buckets.map((_, b) => values.reduce((s, v) => s + v[b], 0));
  const max = niceMax(Math.max(...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / buckets.length;
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelEvery = Math.ceil(buckets.length / 10);
  const name = (m: string) => (m === OTHER_MODELS ? t('dashboard.otherModels') : m);

  return (
    <div data-testid="usage-chart">
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={t('dashboard.chartTitle')} style={{ display: 'block' }}>
        {[0, 0.25, 0.5, 0.75, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} stroke={token.colorBorderSecondary} />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize={11} fill={token.colorTextSecondary}>
              {format(max * f)}
            </text>
          </g>
        ))}
        {buckets.map((bucket, b) => {
          const x = PAD.left + slot * b + (slot - barW) / 2;
          let top = y(0);
          return (
            <g key={bucket}>
              {models.map((m, mi) => {
                const v = values[mi][b];
                if (v <= 0) return null;
                const h = (v / max) * plotH;
                top -= h;
                return (
                  <rect key={m} x={x} y={top} width={barW} height={h} fill={PALETTE[mi % PALETTE.length]} rx={1}>
                    <title>{`${bucketLabel(bucket, granularity)} · ${name(m)}: ${format(v)}`}</title>
                  </rect>
                );
              })}
              {b % labelEvery === 0 && (
                <text x={x + barW / 2} y={H - PAD.bottom + 16} textAnchor="middle" fontSize={11} fill={token.colorTextSecondary}>
                  {bucketLabel(bucket, granularity)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Space wrap size={[16, 4]} style={{ marginTop: 8 }}>
        {models.map((m, mi) => (
          <Space key={m} size={6}>
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: PALETTE[mi % PALETTE.length] }} />
            <Typography.Text style={{ fontSize: 12 }}>{name(m)}</Typography.Text>
          </Space>
        ))}
      </Space>
    </div>
  );
}
