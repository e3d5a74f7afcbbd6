/**
 * The one column renderer registry: a renderer per name, each receiving its own column
 * variant (src/shared/resources/columns.ts). Adding a renderer = its variant in the
 * `ColumnDef` union and its entry here; the registry's type refuses a missing entry or an
 * entry that reads options its variant does not have. Cells with state are components
 * (cells/); the stateless ones are plain functions here.
 */
import { Badge, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { ColumnDef, ColumnOf, RendererName } from '../../shared/resources/columns';
import type { EnumValue } from '../../shared/resources/common';
import { ActionTagCell, IdTagCell, JsonDialogCell, SecretCell, UserInfoCell } from './cells/action-cells';
import type { CellProps, RenderContext } from './cells/cell-props';
import { InlineNumberCell } from './cells/inline-number-cell';
import { TaskResultCell } from './cells/task-result-cell';
import { ChannelTypeCell, DurationCell, ImageCell, JsonPathCell, LatencyCell, ListTagsCell, ProgressCell, ResponseTimeCell, StatusDetailCell, TagChildrenCell } from './cells/value-cells';
import { matches } from './conditions';
import { formatTimestamp } from './format-time';
import { displayQuota } from './quota-format';
import './cells/cells.css';

type Row = Record<string, unknown>;
/** Draws one cell of a column of its variant `C`. */
type Renderer<C extends ColumnDef> = (value: unknown, row: Row, column: C, ctx: RenderContext) => ReactNode;
type Registry = { [R in RendererName]: Renderer<ColumnOf<R>> };

/** A cell component as a renderer. */
const cell =
  <C extends ColumnDef>(Component: (props: CellProps<C>) => ReactNode): Renderer<C> =>
  (value, row, column, ctx) => <Component value={value} row={row} column={column} ctx={ctx} />;

const ROLE_VALUES: Record<string, EnumValue> = {
  1: { labelKey: 'roles.common', color: 'default' },
  10: { labelKey: 'roles.admin', color: 'gold' },
  100: { labelKey: 'roles.root', color: 'orange' },
};
const UNKNOWN: EnumValue = { labelKey: 'common.unknown', color: 'default' };

function enumOf(value: unknown, values: Record<string, EnumValue>, unknown: EnumValue | undefined): EnumValue {
  return values[String(value)] ?? unknown ?? UNKNOWN;
}

const empty = <Typography.Text type="secondary">-</Typography.Text>;

const RENDERERS: Registry = {
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
  'response-time': cell(ResponseTimeCell),
  'channel-type': cell(ChannelTypeCell),
  'inline-number': (value, row, column, ctx) =>
    ctx.resource ? <InlineNumberCell key={`${String(row.id)}:${String(value)}`} value={value} row={row} column={column} resource={ctx.resource} /> : String(value ?? ''),
  'tag-children': cell(TagChildrenCell),
  'status-detail': cell(StatusDetailCell),
  latency: cell(LatencyCell),
  duration: cell(DurationCell),
  progress: cell(ProgressCell),
  image: cell(ImageCell),
  'json-dialog': cell(JsonDialogCell),
  'json-path': cell(JsonPathCell),
  secret: cell(SecretCell),
  'id-tag': cell(IdTagCell),
  'user-info': cell(UserInfoCell),
  'action-tag': cell(ActionTagCell),
  'list-tags': cell(ListTagsCell),
  'task-result': cell(TaskResultCell),
};

export function renderCell(column: ColumnDef, row: Row, ctx: RenderContext): ReactNode {
  if (column.hideWhen && matches(column.hideWhen, row)) return null;
  // TypeScript cannot tie the entry picked by `column.renderer` to `column`'s variant;
  // the registry's type already checked that each entry takes its own variant.
  const render = RENDERERS[column.renderer ?? 'text'] as Renderer<ColumnDef>;
  return render(row[column.field], row, column, ctx);
}
