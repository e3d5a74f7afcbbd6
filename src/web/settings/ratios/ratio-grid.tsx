/**
 * The visual ratio table: one row per model, 10 rows a page, each cell a number text (请输入数字
 * otherwise). A fixed price disables the row's ratio cells. Rows can be selected for a batch
 * set, searched by name and removed.
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../use-translation';
import type { RatioColumn } from '../settings-model';
import { BatchSetModal } from './batch-set-modal';
import { isNumberText, removeModel, rowOf, setCell, type RatioMaps, type RatioRow } from './ratio-model';
import { useApp } from '../../state/feedback-app';

interface RatioGridProps {
  maps: RatioMaps;
  names: string[];
  titles: Partial<Record<RatioColumn, string>>;
  onChange: (maps: RatioMaps) => void;
  /** Extra toolbar controls (add model, reset). */
  toolbar?: ReactNode;
  removable?: boolean;
  testId: string;
}

export function RatioGrid({ maps, names, titles, onChange, toolbar, removable, testId }: RatioGridProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [selected, setSelected] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [batchOpen, setBatchOpen] = useState(false);
  const [page, setPage] = useState(1);

  const needle = search.trim().toLowerCase();
  const rows = useMemo(() => names.filter((n) => n.toLowerCase().includes(needle)).map((n) => rowOf(maps, n)), [names, needle, maps]);

  const edit = (name: string, column: RatioColumn, value: string) => {
    if (!isNumberText(value)) {
      void message.warning(t('settings.ratio.numberOnly'));
      return;
    }
    onChange(setCell(maps, name, column, value));
  };

  const columns: ColumnsType<RatioRow> = [
    { key: 'name', dataIndex: 'name', title: t('settings.ratio.name'), ellipsis: true, render: (name: string) => <span className="sy-mono">{name}</span> },
    ...(Object.entries(titles) as Array<[RatioColumn, string]>).map(([column, title]) => ({
      key: column,
      title,
      width: 170,
      render: (_: unknown, row: RatioRow) => (
        <Input
          size="small"
          value={row[column]}
          disabled={column !== 'price' && row.price !== ''}
          placeholder={column !== 'price' && row.price !== '' ? t('settings.ratio.fixedPrice') : undefined}
          onChange={(e) => edit(row.name, column, e.target.value)}
          aria-label={`${row.name} ${title}`}
        />
      ),
    })),
    ...(removable
      ? [
          {
            key: 'remove',
            width: 56,
            render: (_: unknown, row: RatioRow) => (
              <Tooltip title={t('settings.ratio.remove')}>
                <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('settings.ratio.remove')} onClick={() => onChange(removeModel(maps, row.name))} />
              </Tooltip>
            ),
          },
        ]
      : []),
  ];

  return (
    <div data-testid={testId}>
      <div className="sy-list-toolbar">
        <Space wrap>
          {toolbar}
          <Button icon={<EditOutlined />} onClick={() => (selected.length ? setBatchOpen(true) : void message.error(t('settings.ratio.errors.noSelection')))}>
            {t('settings.ratio.batch')}
            {selected.length > 0 && ` (${selected.length})`}
          </Button>
        </Space>
        <Input.Search
          allowClear
          placeholder={t('settings.ratio.search')}
          style={{ width: 240, maxWidth: '100%' }}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <Table<RatioRow>
        rowKey="name"
        size="small"
        dataSource={rows}
        columns={columns}
        scroll={{ x: 'max-content' }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true }}
        pagination={{ current: page, pageSize: 10, onChange: setPage, showSizeChanger: false, showTotal: (total) => t('settings.ratio.total', { total }) }}
      />
      <BatchSetModal open={batchOpen} maps={maps} selected={selected} titles={titles} onClose={() => setBatchOpen(false)} onApply={onChange} />
    </div>
  );
}
