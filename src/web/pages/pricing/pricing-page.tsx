/**
 * /pricing, the public price list (docs/console.md#pricing-page): who the prices are
 * for (the user's group and ratio, or the default ratio for a visitor), fuzzy search, copy
 * of the selected model names, and every model on one page with its billing kind, prices
 * and groups.
 */
import { CopyOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Input, Select, Space, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useCopy } from '../../components/use-copy';
import { useStoredUser } from '../../state/use-stored-user';
import { api } from '../../state/wire';
import { fuzzyMatch, ratioOf, type PricingEntry, type PricingReply } from './pricing-model';
import { pricingColumns } from './pricing-columns';
import { useApp } from '../../state/feedback-app';

export function PricingPage() {
  const { t } = useTranslation();
  const { message } = useApp();
  const copy = useCopy();
  const user = useStoredUser();
  const [reply, setReply] = useState<PricingReply | undefined>();
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const ownGroup = user?.group || 'default';
  const [group, setGroup] = useState(ownGroup);

  useEffect(() => {
    api
      .request<PricingReply>('get', '/api/pricing', { whole: true })
      .then(setReply)
      .catch((err: Error) => void message.error(err.message));
  }, [message]);

  const rows = useMemo(() => (reply?.data ?? []).filter((e) => fuzzyMatch(e.model_name, query)), [reply, query]);
  const groups = Object.keys(reply?.group_ratio ?? {});
  const ratio = ratioOf(reply?.group_ratio, group);
  const banner = user ? (
    <Alert type="info" showIcon message={t('pricing.bannerUser', { group: ownGroup, ratio: ratioOf(reply?.group_ratio, ownGroup) })} data-testid="pricing-banner" />
  ) : (
    <Alert type="warning" showIcon message={t('pricing.bannerVisitor', { ratio: ratioOf(reply?.group_ratio, 'default') })} data-testid="pricing-banner" />
  );

  return (
    <Card title={t('pricing.title')} className="sy-resource-card">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {banner}
        <div className="sy-list-toolbar">
          <Space wrap>
            <Input
              prefix={<SearchOutlined />}
              allowClear
              placeholder={t('pricing.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              style={{ width: 260 }}
              data-testid="pricing-search"
            />
            {groups.length > 1 && (
              <Select
                value={group}
                onChange={setGroup}
                style={{ minWidth: 160 }}
                options={groups.map((g) => ({ value: g, label: t('pricing.groupOption', { group: g, ratio: ratioOf(reply?.group_ratio, g) }) }))}
                data-testid="pricing-group"
              />
            )}
          </Space>
          <Button icon={<CopyOutlined />} disabled={selected.length === 0} onClick={() => void copy(selected.join(','), t('pricing.copied', { text: selected.join(',') }))} data-testid="pricing-copy">
            {t('pricing.copySelected')}
          </Button>
        </div>
        <Table<PricingEntry>
          rowKey="model_name"
          size="middle"
          loading={!reply}
          dataSource={rows}
          columns={pricingColumns({ t, ratio, group, usable: reply?.usable_group })}
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          pagination={{
            pageSize: Math.max(rows.length, 1),
            showSizeChanger: false,
            hideOnSinglePage: false,
            showTotal: (total, range) => t('crud.pagination.total', { from: range[0], to: range[1], total }),
          }}
        />
      </Space>
    </Card>
  );
}
