/** The price list's columns: availability, model, billing kind, ratios, prices, groups. */
import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { dollars, isUsable, priceOf, type PricingEntry } from './pricing-model';

interface ColumnContext {
  t: (key: string, options?: Record<string, unknown>) => string;
  /** The ratio of the group the prices are shown for. */
  ratio: number;
  group: string;
  usable: Record<string, string> | undefined;
}

export function pricingColumns({ t, ratio, group, usable }: ColumnContext): TableColumnsType<PricingEntry> {
  return [
    {
      key: 'available',
      title: t('pricing.columns.available'),
      width: 80,
      render: (_v, e) =>
        isUsable(e, usable) ? (
          <Tooltip title={t('pricing.available')}>
            <CheckCircleFilled style={{ color: '#16a34a' }} />
          </Tooltip>
        ) : (
          <Tooltip title={t('pricing.unavailable')}>
            <CloseCircleOutlined style={{ color: '#dc2626' }} />
          </Tooltip>
        ),
    },
    {
      key: 'model_name',
      dataIndex: 'model_name',
      title: t('pricing.columns.model'),
      sorter: (a, b) => a.model_name.localeCompare(b.model_name),
      render: (name: string) => <Typography.Text copyable={{ text: name }}>{name}</Typography.Text>,
    },
    {
      key: 'quota_type',
      dataIndex: 'quota_type',
      title: t('pricing.columns.billing'),
      render: (type: number) => <Tag color={type === 1 ? 'cyan' : 'purple'}>{t(type === 1 ? 'pricing.perCall' : 'pricing.perUsage')}</Tag>,
    },
    {
      key: 'ratio',
      title: t('pricing.columns.ratio'),
      render: (_v, e) =>
        e.quota_type === 1 ? (
          <Typography.Text type="secondary">-</Typography.Text>
        ) : (
          <Space direction="vertical" size={0}>
            <span>{t('pricing.modelRatio', { value: e.model_ratio })}</span>
            <span>{t('pricing.completionRatio', { value: e.completion_ratio })}</span>
            <span>{t('pricing.groupRatio', { value: ratio })}</span>
          </Space>
        ),
    },
    {
      key: 'price',
      title: t('pricing.columns.price'),
      render: (_v, e) => {
        const price = priceOf(e, ratio);
        if (price.kind === 'call') return <span data-testid="price-call">{t('pricing.callPrice', { price: dollars(price.price) })}</span>;
        return (
          <Space direction="vertical" size={0} data-testid="price-tokens">
            <span>{t('pricing.promptPrice', { price: dollars(price.prompt) })}</span>
            <span>{t('pricing.completionPrice', { price: dollars(price.completion) })}</span>
          </Space>
        );
      },
    },
    {
      key: 'groups',
      dataIndex: 'enable_groups',
      title: t('pricing.columns.groups'),
      render: (groups: string[]) => (
        <Space size={[0, 4]} wrap>
          {groups.map((g) => (
            <Tag key={g} color={g === group ? 'blue' : 'default'}>
              {g}
            </Tag>
          ))}
        </Space>
      ),
    },
  ];
}
