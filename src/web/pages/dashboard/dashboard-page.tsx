/**
 * /detail, the dashboard (docs/console.md#dashboard-page; only when data export is on): totals and per-model
 * usage over time for hour, day or week buckets; administrators see everyone or one user.
 */
import { SearchOutlined } from '@ant-design/icons';
import { Button, Card, Col, DatePicker, Empty, Input, Result, Row, Segmented, Space, Spin, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { isAdmin } from '../../auth-provider';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import { useStoredUser } from '../../state/use-stored-user';
import { defaultRange, hasUsage, modelTotals, seriesOf, summarize, type Granularity, type Metric } from './dashboard-model';
import { ModelShare } from './model-share';
import { StackedBarChart } from './stacked-bar-chart';
import { useUsageData } from './use-usage-data';

const GRANULARITIES: Granularity[] = ['hour', 'day', 'week'];
const METRICS: Metric[] = ['quota', 'count', 'token_used'];

function initialGranularity(value: unknown): Granularity {
  return GRANULARITIES.includes(value as Granularity) ? (value as Granularity) : 'hour';
}

export function DashboardPage() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const view = quotaView(status);
  const admin = isAdmin(useStoredUser());
  const [granularity, setGranularity] = useState<Granularity>(() => initialGranularity(status.data_export_default_time));
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const r = defaultRange(granularity, dayjs().unix());
    return [dayjs.unix(r.start), dayjs.unix(r.end)];
  });
  const [username, setUsername] = useState('');
  const [metric, setMetric] = useState<Metric>('quota');
  const { rows, loading, load } = useUsageData(admin);
  const query = () => load({ start: range[0].unix(), end: range[1].unix(), username: username.trim() });

  // Load once with the defaults; later loads follow the query button.
  useEffect(query, [load]);

  const changeGranularity = (g: Granularity) => {
    setGranularity(g);
    const r = defaultRange(g, dayjs().unix());
    setRange([dayjs.unix(r.start), dayjs.unix(r.end)]);
  };
  const summary = useMemo(() => summarize(rows, range[0].unix(), range[1].unix()), [rows, range]);
  const series = useMemo(() => seriesOf(rows, { granularity, metric, range: { start: range[0].unix(), end: range[1].unix() } }), [rows, granularity, metric, range]);
  const quotaText = (v: number) => displayQuota(v, view);
  const format = (v: number) => (metric === 'quota' ? quotaText(v) : Math.round(v).toLocaleString('en-US'));

  if (!status.enable_data_export) return <Result status="info" title={t('dashboard.disabled')} subTitle={t('dashboard.disabledHint')} />;
  const stat = (key: string, value: string | number) => (
    <Col xs={12} md={8} xl={4} key={key}>
      <Card size="small">
        <Statistic title={t(`dashboard.stats.${key}`)} value={value} data-testid={`dashboard-${key}`} />
      </Card>
    </Col>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap size={[12, 12]}>
          <Segmented<Granularity>
            value={granularity}
            onChange={changeGranularity}
            options={GRANULARITIES.map((g) => ({ value: g, label: t(`dashboard.granularity.${g}`) }))}
            data-testid="dashboard-granularity"
          />
          <DatePicker.RangePicker showTime value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} allowClear={false} />
          {admin && <Input allowClear placeholder={t('dashboard.username')} data-testid="dashboard-username" value={username} onChange={(e) => setUsername(e.target.value)} style={{ width: 180 }} />}
          <Button type="primary" icon={<SearchOutlined />} onClick={query} loading={loading} data-testid="dashboard-query">
            {t('crud.actions.search')}
          </Button>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        {stat('quota', quotaText(summary.quota))}
        {stat('count', summary.count.toLocaleString('en-US'))}
        {stat('tokens', summary.tokens.toLocaleString('en-US'))}
        {stat('rpm', summary.rpm)}
        {stat('tpm', summary.tpm)}
      </Row>
      <Spin spinning={loading}>
        {hasUsage(summary) ? (
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={16}>
              <Card
                size="small"
                title={t('dashboard.chartTitle')}
                extra={<Segmented<Metric> size="small" value={metric} onChange={setMetric} options={METRICS.map((m) => ({ value: m, label: t(`dashboard.metric.${m}`) }))} />}
              >
                <StackedBarChart series={series} granularity={granularity} format={format} />
              </Card>
            </Col>
            <Col xs={24} xl={8}>
              <Card size="small" title={t('dashboard.shareTitle', { metric: t(`dashboard.metric.${metric}`) })}>
                <ModelShare totals={modelTotals(rows, metric)} format={format} />
              </Card>
            </Col>
          </Row>
        ) : (
          <Card size="small">
            <Empty
              data-testid="dashboard-empty"
              description={
                <Space direction="vertical" size={4}>
                  <Typography.Text strong>{t('dashboard.noData')}</Typography.Text>
                  <Typography.Text type="secondary">{t('dashboard.noDataHint')}</Typography.Text>
                </Space>
              }
            />
          </Card>
        )}
      </Spin>
    </Space>
  );
}
