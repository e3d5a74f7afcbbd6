/**
 * The one List screen: search form, column chooser, page sizes kept locally, row selection
 * with batch actions, row actions; all from the declaration. The role decides the
 * collection path (`adminApi`) and which columns, filters and actions appear; switches add
 * query parameters; a statistics strip follows the filters.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Alert, Button, Card, Space, Table, type TableColumnsType } from 'antd';
import type { Breakpoint } from 'antd/es/_util/responsiveObserver';
import { useState } from 'react';
import { useLabel } from './use-label';
import { useNavigate } from 'react-router';
import { PAGE_SIZES } from '../../shared/api/envelope';
import type { ResourceDefinition } from '../../shared/resources/definition';
import { useIsMobile } from '../layout/use-is-mobile';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { ColumnChooser } from './column-chooser';
import { listClock } from './first-list';
import { DownloadButton } from './download-button';
import { matches } from './conditions';
import { ListToolbar } from './list-toolbar';
import { apiFor, forRole, searchDefaults, toggleQuery, valuesToFilters } from './list-query';
import { loadColumnPrefs, loadPageSize, saveColumnPrefs, savePageSize, visibleColumns, type ColumnPrefs } from './list-prefs';
import { quotaView } from './quota-format';
import { renderCell } from './renderers';
import { isSoftDeleted, RowActions } from './row-actions';
import { rowExpansion } from './row-detail';
import { SearchForm } from './search-form';
import { StatStrip } from './stat-strip';
import { useActionRunner } from './use-action-runner';
import { useListToggles } from './use-list-toggles';

type Row = Record<string, unknown>;

/** antd's breakpoints, narrowest first. */
const BREAKPOINTS: Breakpoint[] = ['xs', 'sm', 'md', 'lg', 'xl', 'xxl'];

/** The breakpoints at which a column declared `showFrom` is shown: that one and every wider one. */
function breakpointsFrom(from: Breakpoint): Breakpoint[] {
  return BREAKPOINTS.slice(BREAKPOINTS.indexOf(from));
}

/**
 * A cell cut to its column's width with an ellipsis, the whole value as its tooltip. The
 * table sizes columns to their content (it scrolls when wider than the window), so the cut
 * is on the content itself, not left to the table's layout.
 */
function CutCell({ width, title, children }: { width?: number; title: unknown; children: React.ReactNode }) {
  const text = typeof title === 'string' || typeof title === 'number' ? String(title) : undefined;
  return (
    <div className="sy-cell-cut" style={{ maxWidth: width === undefined ? undefined : width - CELL_PADDING }} title={text}>
      {children}
    </div>
  );
}

/** Left plus right padding of a cell of the middle-sized table. */
const CELL_PADDING = 16;

export function ResourceList({ resource }: { resource: ResourceDefinition }) {
  const t = useLabel();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const quota = quotaView(usePublicStatus());
  const role = useStoredUser()?.role ?? 0;
  const api = apiFor(resource, role);
  const columnsForRole = forRole(resource.columns, role);
  const searchFields = forRole(resource.search?.fields, role);
  // At the time the entry's prefetch of this list used, so both ask for the same range (first-list.ts).
  const [initialSearch] = useState(() => searchDefaults(searchFields, listClock(resource.name)));
  const [toggles, setToggleState] = useListToggles(resource.toggles);
  const [prefs, setPrefs] = useState<ColumnPrefs>(() => loadColumnPrefs(resource.name));
  const [selected, setSelected] = useState<Row[]>([]);
  // Another view of the rows (tag mode, id sort) starts with nothing selected.
  const setToggle = (param: string, on: boolean) => {
    setSelected([]);
    setToggleState(param, on);
  };
  const { busy, runRow, runBatch, runToolbar, dialogs } = useActionRunner(resource);
  const { tableProps, searchFormProps, tableQuery, filters } = useTable<Row, HttpError, Record<string, unknown>>({
    resource: resource.name,
    pagination: { pageSize: loadPageSize() },
    filters: { initial: valuesToFilters(initialSearch) },
    meta: { api, query: toggleQuery(toggles) },
    syncWithLocation: false,
    onSearch: valuesToFilters,
    errorNotification: (error) => ({ type: 'error', message: error?.message ?? t('errors.unknown') }),
  });

  const changePrefs = (next: ColumnPrefs) => {
    setPrefs(next);
    saveColumnPrefs(resource.name, next);
  };

  const ctx = { t, quota, resource, runRow };
  const columns: TableColumnsType<Row> = visibleColumns(columnsForRole, prefs).map((c) => ({
    key: c.field,
    dataIndex: c.field,
    title: t(c.titleKey),
    width: c.width,
    responsive: c.showFrom ? breakpointsFrom(c.showFrom) : undefined,
    render: (_value: unknown, row: Row) =>
      c.ellipsis ? (
        <CutCell width={c.width} title={row[c.field]}>
          {renderCell(c, row, ctx)}
        </CutCell>
      ) : (
        renderCell(c, row, ctx)
      ),
  }));
  if (resource.rowActions?.length) {
    columns.push({
      key: 'actions',
      title: t('crud.columns.actions'),
      // Wide tables scroll; the actions stay in reach.
      fixed: isMobile ? undefined : 'right',
      render: (_value: unknown, row: Row) => <RowActions resource={resource} row={row} busy={busy} run={runRow} />,
    });
  }

  const batchActions = forRole(resource.batchActions, role);
  const selectable = (row: Row) => !isSoftDeleted(resource, row) && matches(resource.selectableWhen, row);
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
          {resource.download && <DownloadButton download={resource.download} api={api} filters={filters} />}
          {!isMobile && resource.columnChooser !== false && <ColumnChooser columns={columnsForRole} prefs={prefs} onChange={changePrefs} />}
          <Button icon={<ReloadOutlined />} onClick={() => void tableQuery.refetch()} aria-label={t('crud.actions.refresh')} />
        </Space>
      }
    >
      {resource.banner && <Alert type={resource.banner.type} showIcon message={t(resource.banner.textKey)} style={{ marginBottom: 16 }} data-testid="resource-banner" />}
      <div className="sy-list-toolbar">
        <SearchForm fields={searchFields} formProps={{ ...searchFormProps, initialValues: initialSearch }} />
      </div>
      <ListToolbar
        toggles={resource.toggles ?? []}
        toggleState={toggles}
        onToggle={setToggle}
        toolbarActions={forRole(resource.toolbarActions, role)}
        batchActions={batchActions}
        busy={busy}
        onToolbar={(action) => void runToolbar(action)}
        selectedCount={selected.length}
        onBatch={(action) => void runBatch(action, selected)}
      />
      {resource.stats && <StatStrip stats={resource.stats} api={api} filters={filters} />}
      <Table<Row>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        scroll={{ x: 'max-content' }}
        expandable={rowExpansion(resource.expand, quota, t)}
        rowClassName={(row) => (isSoftDeleted(resource, row) ? 'sy-row-deleted' : '')}
        rowSelection={
          batchActions.length
            ? {
                selectedRowKeys: selected.map((r) => r.id as React.Key),
                onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
                getCheckboxProps: (row) => ({ disabled: !selectable(row) }),
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
          pageSizeOptions: (resource.pageSizes ?? PAGE_SIZES).map(String),
          showTotal: (total, range) => t('crud.pagination.total', { from: range[0], to: range[1], total }),
          size: isMobile ? 'small' : 'default',
        }}
      />
      {dialogs}
    </Card>
  );
}
