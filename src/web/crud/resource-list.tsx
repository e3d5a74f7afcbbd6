/**
 * The one List screen: search form, column chooser, page sizes kept locally, row selection
 * with batch actions, row actions; all from the declaration.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { CrudFilter, HttpError } from '@refinedev/core';
import { Button, Card, Popconfirm, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PAGE_SIZES } from '../../shared/api/envelope';
import type { BatchActionDef, ResourceDefinition } from '../../shared/resources/definition';
import { useIsMobile } from '../layout/use-is-mobile';
import { usePublicStatus } from '../state/status-context';
import { ColumnChooser } from './column-chooser';
import { loadColumnPrefs, loadPageSize, saveColumnPrefs, savePageSize, visibleColumns, type ColumnPrefs } from './list-prefs';
import { quotaView } from './quota-format';
import { renderCell } from './renderers';
import { isSoftDeleted, RowActions } from './row-actions';
import { SearchForm } from './search-form';
import { useActionRunner } from './use-action-runner';

type Row = Record<string, unknown>;

function toFilters(values: Record<string, unknown>): CrudFilter[] {
  return Object.entries(values).map(([field, value]) => ({ field, operator: 'eq', value }));
}

export function ResourceList({ resource }: { resource: ResourceDefinition }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const quota = quotaView(usePublicStatus());
  const [prefs, setPrefs] = useState<ColumnPrefs>(() => loadColumnPrefs(resource.name));
  const [selected, setSelected] = useState<Row[]>([]);
  const { busy, runRow, runBatch } = useActionRunner(resource);
  const { tableProps, searchFormProps, tableQuery } = useTable<Row, HttpError, Record<string, unknown>>({
    resource: resource.name,
    pagination: { pageSize: loadPageSize() },
    syncWithLocation: false,
    onSearch: toFilters,
    errorNotification: (error) => ({ type: 'error', message: error?.message ?? t('errors.unknown') }),
  });

  const changePrefs = (next: ColumnPrefs) => {
    setPrefs(next);
    saveColumnPrefs(resource.name, next);
  };

  const ctx = { t, quota };
  const columns: TableColumnsType<Row> = visibleColumns(resource.columns, prefs).map((c) => ({
    key: c.field,
    dataIndex: c.field,
    title: t(c.titleKey),
    width: c.width,
    render: (_value: unknown, row: Row) => renderCell(c, row, ctx),
  }));
  if (resource.rowActions?.length) {
    columns.push({
      key: 'actions',
      title: t('crud.columns.actions'),
      render: (_value: unknown, row: Row) => <RowActions resource={resource} row={row} busy={busy} run={runRow} />,
    });
  }

  const batch = (action: BatchActionDef) => {
    const node = (
      <Button key={action.key} danger={action.danger} loading={busy === `batch:${action.key}`} onClick={action.confirm ? undefined : () => void runBatch(action, selected)}>
        {t(action.labelKey)}
      </Button>
    );
    if (!action.confirm) return node;
    return (
      <Popconfirm key={action.key} title={t(action.confirm.titleKey)} description={action.confirm.contentKey ? t(action.confirm.contentKey) : undefined} onConfirm={() => void runBatch(action, selected)}>
        {node}
      </Popconfirm>
    );
  };

  const hasBatch = Boolean(resource.batchActions?.length);
  const canCreate = Boolean(resource.form && resource.routes.create);
  return (
    <Card
      title={t(resource.labelKey)}
      className="sy-resource-card"
      extra={
        <Space wrap>
          {canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(resource.routes.create!)} data-testid="create-button">
              {t(resource.createLabelKey ?? 'crud.actions.create')}
            </Button>
          )}
          {!isMobile && <ColumnChooser columns={resource.columns} prefs={prefs} onChange={changePrefs} />}
          <Button icon={<ReloadOutlined />} onClick={() => void tableQuery.refetch()} aria-label={t('crud.actions.refresh')} />
        </Space>
      }
    >
      <div className="sy-list-toolbar">
        <SearchForm fields={resource.search?.fields ?? []} formProps={searchFormProps} />
        {hasBatch && <Space wrap>{resource.batchActions!.map(batch)}</Space>}
      </div>
      <Table<Row>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 'max-content' }}
        rowClassName={(row) => (isSoftDeleted(resource, row) ? 'sy-row-deleted' : '')}
        rowSelection={
          hasBatch
            ? {
                selectedRowKeys: selected.map((r) => r.id as React.Key),
                onChange: (_keys, rows) => setSelected(rows),
                getCheckboxProps: (row) => ({ disabled: isSoftDeleted(resource, row) }),
              }
            : undefined
        }
        onChange={(pagination, filters, sorter, extra) => {
          if (pagination.pageSize) savePageSize(pagination.pageSize);
          tableProps.onChange?.(pagination, filters, sorter, extra);
        }}
        pagination={{
          ...tableProps.pagination,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (total, range) => t('crud.pagination.total', { from: range[0], to: range[1], total }),
          size: isMobile ? 'small' : 'default',
        }}
      />
    </Card>
  );
}
