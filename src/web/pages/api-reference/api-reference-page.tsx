/**
 * /api-reference (admins): the console API as /api/openapi.json describes it, grouped by area,
 * each operation with its query, path and body fields. A page of our own over the document
 * (no bundled API viewer), loaded only when opened.
 */
import { Alert, Card, Collapse, Empty, Input, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { transportDeps } from '../../state/wire';
import { groupOperations, type FieldRow, type OperationView, type TagView } from './openapi-view';

const OPENAPI_URL = '/api/openapi.json';

const METHOD_COLORS: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', PATCH: 'gold', DELETE: 'red', OPTIONS: 'default' };

function useOpenApi(): { tags: TagView[]; loading: boolean; error: string } {
  const [state, setState] = useState({ tags: [] as TagView[], loading: true, error: '' });
  useEffect(() => {
    let cancelled = false;
    transportDeps
      .fetch(OPENAPI_URL, { credentials: 'same-origin' })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return groupOperations(await res.json());
      })
      .then((tags) => !cancelled && setState({ tags, loading: false, error: '' }))
      .catch((err: Error) => !cancelled && setState({ tags: [], loading: false, error: err.message }));
    return () => {
      cancelled = true;
    };
  }, []);
  return state;
}

function FieldTable({ rows }: { rows: FieldRow[] }) {
  const { t } = useTranslation();
  return (
    <Table<FieldRow>
      size="small"
      pagination={false}
      rowKey={(row) => `${row.in}:${row.name}`}
      dataSource={rows}
      columns={[
        {
          title: t('apiReference.field'),
          dataIndex: 'name',
          render: (name: string, row) => (
            <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
              {row.required ? `${name} *` : name}
            </Typography.Text>
          ),
        },
        { title: t('apiReference.in'), dataIndex: 'in' },
        { title: t('apiReference.type'), dataIndex: 'type' },
        { title: t('apiReference.constraints'), dataIndex: 'constraints' },
        { title: t('apiReference.description'), dataIndex: 'description' },
      ]}
    />
  );
}

function OperationBody({ operation }: { operation: OperationView }) {
  const { t } = useTranslation();
  if (operation.fields.length === 0 && operation.alternatives.length === 0) {
    return <Typography.Text type="secondary">{t('apiReference.noInput')}</Typography.Text>;
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {operation.fields.length > 0 && <FieldTable rows={operation.fields} />}
      {operation.alternatives.map((rows, i) => (
        <div key={i}>
          <Typography.Text strong>{t('apiReference.bodyVariant', { n: i + 1 })}</Typography.Text>
          <FieldTable rows={rows} />
        </div>
      ))}
    </Space>
  );
}

export function ApiReferencePage() {
  const { t } = useTranslation();
  const { tags, loading, error } = useOpenApi();
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    if (!needle) return tags;
    return tags
      .map((tag) => ({ ...tag, operations: tag.operations.filter((op) => op.path.toLowerCase().includes(needle) || op.method.toLowerCase() === needle) }))
      .filter((tag) => tag.operations.length > 0);
  }, [tags, filter]);

  if (loading) return <Spin className="sy-page-spinner" />;
  return (
    <Card
      title={t('apiReference.title')}
      extra={
        <Typography.Link href={OPENAPI_URL} target="_blank" rel="noreferrer">
          {t('apiReference.download')}
        </Typography.Link>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('apiReference.intro')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={t('apiReference.loadFailed', { message: error })} />}
        <Input.Search allowClear placeholder={t('apiReference.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} />
        {shown.length === 0 && !error ? <Empty /> : null}
        {shown.map((tag) => (
          <div key={tag.tag}>
            <Typography.Title level={5}>{tag.tag}</Typography.Title>
            <Collapse
              size="small"
              items={tag.operations.map((operation) => ({
                key: operation.key,
                label: (
                  <Space>
                    <Tag color={METHOD_COLORS[operation.method] ?? 'default'}>{operation.method}</Tag>
                    <Typography.Text code>{operation.path}</Typography.Text>
                  </Space>
                ),
                children: <OperationBody operation={operation} />,
              }))}
            />
          </div>
        ))}
      </Space>
    </Card>
  );
}
