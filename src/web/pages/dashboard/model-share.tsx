/** Each model's share of the range's total (requests or quota), as labelled bars. */
import { Empty, Progress, Space, Typography } from 'antd';
import { useTranslation } from '../../use-translation';
import { PALETTE } from './stacked-bar-chart';

interface ModelShareProps {
  totals: { model: string; value: number }[];
  format: (value: number) => string;
}

export function ModelShare({ totals, format }: ModelShareProps) {
  const { t } = useTranslation();
  const sum = totals.reduce((s, m) => s + m.value, 0);
  if (sum === 0) return <Empty description={t('dashboard.noData')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="model-share">
      {totals.slice(0, 10).map((m, i) => (
        <div key={m.model}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text ellipsis style={{ maxWidth: 220 }}>
              {m.model}
            </Typography.Text>
            <Typography.Text type="secondary">{format(m.value)}</Typography.Text>
          </Space>
          <Progress percent={Math.round((m.value / sum) * 1000) / 10} status="normal" strokeColor={PALETTE[i % PALETTE.length]} size="small" />
        </div>
      ))}
    </Space>
  );
}
