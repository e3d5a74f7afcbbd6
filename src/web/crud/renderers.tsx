/**
 * Column renderers by name (`ColumnDef.renderer`). Adding a renderer = one entry here and
 * its name in the shared `RendererName` union.
 */
import { Badge, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { ColumnDef, EnumValue, ResourceDefinition, RendererName, RowActionDef } from '../../shared/resources/definition';
import { matches } from './conditions';
import { formatTimestamp } from './format-time';
import { GATEWAY_RENDERERS } from './gateway-renderers';
import { displayQuota, type QuotaView } from './quota-format';
import type { LabelT } from './use-label';

export interface RenderContext {
  /** Resolves a declaration text: a locale key or an inline `{ zh, en }` (use-label.ts). */
  t: LabelT;
  quota: QuotaView;
  /** The list's resource and its row-action runner, for cells that act (inline edits, action tags). */
  resource?: ResourceDefinition;
  runRow?: (action: RowActionDef, row: Row) => Promise<boolean>;
}

type Row = Record<string, unknown>;
export type Renderer = (value: unknown, row: Row, column: ColumnDef, ctx: RenderContext) => ReactNode;

const ROLE_VALUES: Record<string, EnumValue> = {
  1: { labelKey: 'roles.common', color: 'default' },
  10: { labelKey: 'roles.admin', color: 'gold' },
  100: { labelKey: 'roles.root', color: 'orange' },
};
const UNKNOWN: EnumValue = { labelKey: 'common.unknown', color: 'default' };

function enumOf(value: unknown, values: Record<string, EnumValue> | undefined, unknown: EnumValue | undefined): EnumValue {
  return values?.[String(value)] ?? unknown ?? UNKNOWN;
}

const empty = <Typography.Text type="secondary">-</Typography.Text>;

export { formatTimestamp };

const RENDERERS: Record<RendererName, Renderer> = {
  text: (value, row, column) => {
    if (value === null || value === undefined || value === '') return empty;
    const secondary = column.secondaryField ? row[column.secondaryField] : undefined;
    return (
      <div className="sy-cell-text">
        <Typography.Text copyable={column.copyable ? { text: String(value) } : false}>{String(value)}</Typography.Text>
        {secondary && secondary !== value ? (
          <Typography.Text type="secondary" className="sy-cell-secondary">
            {String(secondary)}
          </Typography.Text>
        ) : null}
      </div>
    );
  },
  number: (value) => (typeof value === 'number' ? value.toLocaleString('en-US') : empty),
  enum: (value, _row, column, { t }) => {
    const v = enumOf(value, column.values, column.unknown);
    return <Tag color={v.color}>{t(v.labelKey)}</Tag>;
  },
  status: (value, _row, column, { t }) => {
    const v = enumOf(value, column.values, column.unknown);
    return (
      <Tag color={v.color} bordered={false}>
        <Badge color={v.color === 'default' ? 'gray' : v.color} /> {t(v.labelKey)}
      </Tag>
    );
  },
  role: (value, _row, _column, { t }) => {
    const v = enumOf(value, ROLE_VALUES, UNKNOWN);
    return <Tag color={v.color}>{t(v.labelKey)}</Tag>;
  },
  group: (value) => {
    const groups = String(value ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    if (groups.length === 0) return empty;
    return (
      <Space size={[0, 4]} wrap>
        {groups.map((g) => (
          <Tag key={g} color="blue">
            {g}
          </Tag>
        ))}
      </Space>
    );
  },
  quota: (value, _row, _column, { quota }) => displayQuota(Number(value), quota),
  timestamp: (value, _row, column, { t }) => {
    if (column.neverValue !== undefined && value === column.neverValue) return t(column.neverKey ?? 'common.never');
    const seconds = column.unit === 'ms' && typeof value === 'number' ? Math.floor(value / 1000) : value;
    return formatTimestamp(seconds) || empty;
  },
  'stat-tags': (_value, row, column, { t, quota }) => (
    <Space size={[4, 4]} wrap>
      {(column.items ?? []).map((item) => {
        const raw = Number(row[item.field] ?? 0);
        const unlimited = item.unlimitedField && row[item.unlimitedField] === true ? t('quota.unlimited') : undefined;
        const shown = item.format === 'quota' ? displayQuota(raw, quota, { unlimited }) : raw.toLocaleString('en-US');
        return (
          <Tag key={item.field} color={item.color} bordered={false}>
            {t(item.labelKey)}: {shown}
          </Tag>
        );
      })}
    </Space>
  ),
  ...GATEWAY_RENDERERS,
};

export function renderCell(column: ColumnDef, row: Row, ctx: RenderContext): ReactNode {
  if (column.hideWhen && matches(column.hideWhen, row)) return null;
  return RENDERERS[column.renderer ?? 'text'](row[column.field], row, column, ctx);
}
