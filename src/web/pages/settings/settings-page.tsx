/**
 * /setting (admins): the current options as a read-only, searchable list
 * (GET /api/option/). The tabbed settings forms rendered from schemas/options replace
 * this page in the settings work.
 */
import { Alert, Card, Input, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../state/wire';

interface OptionRow {
  key: string;
  value: string;
}

export function SettingsPage() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<OptionRow[]>([]);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const [filter, setFilter] = useState('');

  useEffect(() => {
    api
      .request<OptionRow[]>('get', '/api/option/')
      .then((data) => setRows(Array.isArray(data) ? data : []))
      .catch((err: Error) => setError(err.message))
      .finally(() => setLoading(false));
  }, []);

  const needle = filter.trim().toLowerCase();
  const shown = needle ? rows.filter((r) => r.key.toLowerCase().includes(needle)) : rows;
  return (
    <Card
      title={t('settings.title')}
      extra={<Input.Search allowClear placeholder={t('settings.search')} onChange={(e) => setFilter(e.target.value)} style={{ width: 240, maxWidth: '100%' }} />}
    >
      <Typography.Paragraph type="secondary">{t('settings.readOnly')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Table<OptionRow>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={shown}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'key', dataIndex: 'key', title: t('settings.key'), width: 280 },
          {
            key: 'value',
            dataIndex: 'value',
            title: t('settings.value'),
            render: (value: string) => (
              <Typography.Text className="sy-mono" ellipsis={{ tooltip: value }} style={{ maxWidth: 520 }}>
                {value === '' ? '-' : value}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Card>
  );
}
