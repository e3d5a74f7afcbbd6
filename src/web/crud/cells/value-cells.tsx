/**
 * Read-only cells of the gateway renderers: coloured timings, channel types, tag rows,
 * statuses with a reason, progress, images and values inside JSON fields. Each takes the
 * column declaration and the row; colours and thresholds come from the declaration.
 */
import { Image, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { channelTypeById, RETIRED_CHANNEL_TYPES } from '../../../shared/channel-types';
import type { DurationColumn, JsonPathColumn, LatencyColumn, ListTagsColumn, ProgressColumn, StatusDetailColumn } from '../../../shared/resources/columns';
import type { EnumValue } from '../../../shared/resources/common';
import { currentLanguage } from '../../i18n';
import { matches } from '../conditions';
import { colorFor, commaList, percentOf, readJsonPath, RESPONSE_TIME_COLORS, spentSeconds } from '../cell-values';
import { formatTimestamp } from '../format-time';
import { safeImageSrc } from '../safe-url';
import type { CellProps } from './cell-props';

type Row = Record<string, unknown>;

export const Empty = () => <Typography.Text type="secondary">-</Typography.Text>;

const UNKNOWN: EnumValue = { labelKey: 'common.unknown', color: 'default' };

/** The enum value of a cell: the first matching case, else `values`, else `unknown`. */
function enumValueOf(value: unknown, row: Row, column: StatusDetailColumn): EnumValue {
  const hit = column.cases?.find((c) => matches(c.when, row));
  return hit?.value ?? column.values?.[String(value)] ?? column.unknown ?? UNKNOWN;
}

export function ResponseTimeCell({ value, row, ctx: { t } }: CellProps) {
  const ms = Number(value) || 0;
  if (ms === 0) return <Tag>{t('crud.cells.untested')}</Tag>;
  const tested = formatTimestamp(row.test_time);
  return (
    <Tooltip title={tested ? t('crud.cells.testedAt', { time: tested }) : undefined}>
      <Tag color={colorFor(ms, RESPONSE_TIME_COLORS)}>{t('crud.cells.seconds', { value: (ms / 1000).toFixed(2) })}</Tag>
    </Tooltip>
  );
}

export function ChannelTypeCell({ value }: CellProps) {
  const id = Number(value);
  const type = channelTypeById(id) ?? RETIRED_CHANNEL_TYPES.get(id);
  if (!type) return <Tag>{String(value ?? '-')}</Tag>;
  const name = currentLanguage() === 'zh' ? (type.label ?? type.name) : type.name;
  // Retired types are grey: their channels are kept but never relayed.
  return <Tag color={RETIRED_CHANNEL_TYPES.has(id) ? undefined : colorOfType(id)}>{name}</Tag>;
}

function colorOfType(id: number): string {
  return ['blue', 'green', 'purple', 'orange', 'cyan', 'magenta', 'gold', 'geekblue'][id % 8];
}

/** A plain row shows its name; a tag aggregate row shows the tag and how many channels it holds. */
export function TagChildrenCell({ value, row, ctx: { t } }: CellProps) {
  if (Array.isArray(row.children)) {
    return (
      <Space size={4}>
        <Tag color="geekblue">{t('crud.cells.tag', { tag: String(row.tag ?? value) })}</Tag>
        <Typography.Text type="secondary">{t('crud.cells.channelCount', { count: row.children.length })}</Typography.Text>
      </Space>
    );
  }
  return (
    <Space size={4} wrap>
      <Typography.Text>{String(value ?? '')}</Typography.Text>
      {row.tag ? <Tag bordered={false}>{String(row.tag)}</Tag> : null}
    </Space>
  );
}

export function StatusDetailCell({ value, row, column, ctx: { t } }: CellProps<StatusDetailColumn>) {
  const v = enumValueOf(value, row, column);
  const tag = (
    <Tag color={v.color} bordered={false} data-testid="status-tag">
      {t(v.labelKey)}
    </Tag>
  );
  const showReason = !column.reasonFor || column.reasonFor.some((s) => String(s) === String(value));
  const reason = column.reasonPath ? readJsonPath(row, column.reasonPath) : undefined;
  const time = column.reasonTimePath ? readJsonPath(row, column.reasonTimePath) : undefined;
  if (!showReason || (!reason && !time)) return tag;
  const title = (
    <div>
      {reason ? <div>{t('crud.cells.reason', { reason: String(reason) })}</div> : null}
      {time ? <div>{t('crud.cells.reasonTime', { time: formatTimestamp(time) })}</div> : null}
    </div>
  );
  return <Tooltip title={title}>{tag}</Tooltip>;
}

export function LatencyCell({ value, row, column, ctx: { t } }: CellProps<LatencyColumn>) {
  const seconds = Number(value) || 0;
  const stream = column.streamField ? Boolean(row[column.streamField]) : undefined;
  const frtMs = column.firstTokenPath ? Number(readJsonPath(row, column.firstTokenPath)) : NaN;
  const frt = stream && frtMs > 0 ? frtMs / 1000 : undefined;
  return (
    <Space size={[4, 4]} wrap>
      <Tag color={column.colors ? colorFor(seconds, column.colors) : undefined}>{t('crud.cells.seconds', { value: seconds })}</Tag>
      {frt !== undefined && (
        <Tooltip title={t('crud.cells.firstToken')}>
          <Tag color={column.firstTokenColors ? colorFor(frt, column.firstTokenColors) : undefined}>{t('crud.cells.seconds', { value: frt.toFixed(1) })}</Tag>
        </Tooltip>
      )}
      {stream !== undefined && <Tag color={stream ? 'blue' : 'purple'}>{t(stream ? 'crud.cells.stream' : 'crud.cells.nonStream')}</Tag>}
    </Space>
  );
}

export function DurationCell({ row, column, ctx: { t } }: CellProps<DurationColumn>) {
  const seconds = spentSeconds(row[column.startField], row[column.endField], column.unit);
  if (seconds === undefined) return <Empty />;
  const red = seconds > (column.redAbove ?? 60);
  return <Tag color={red ? 'red' : 'green'}>{t('crud.cells.seconds', { value: seconds.toFixed(1) })}</Tag>;
}

/**
 * A task's progress. A failed task (status FAILURE) ends at 100% too; it is shown as an
 * exception (red, a cross), not as antd's green success tick.
 */
export function ProgressCell({ value, row, column }: CellProps<ProgressColumn>) {
  const percent = percentOf(value);
  if (percent === undefined) return value ? <span>{String(value)}</span> : <Empty />;
  const status = row.status === 'FAILURE' ? 'exception' : undefined;
  if (column.shape === 'line') return <Progress percent={percent} status={status} size="small" style={{ minWidth: 100 }} />;
  return <Progress type="circle" percent={percent} status={status} size={36} />;
}

/**
 * A thumbnail that opens enlarged (antd preview). Only http(s) URLs and paths on this origin
 * (`/mj/image/<id>`, the drawing proxy) are shown; anything else is an empty cell.
 */
export function ImageCell({ value, ctx: { t } }: CellProps) {
  const src = safeImageSrc(value);
  if (!src) return <Empty />;
  return <Image src={src} width={48} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} alt={t('crud.cells.image')} data-testid="image-cell" />;
}

export function JsonPathCell({ row, column, ctx: { t } }: CellProps<JsonPathColumn>) {
  const found = readJsonPath(row, column.jsonPath ?? column.field);
  const text = Array.isArray(found) ? found.join(column.join ?? ', ') : found === undefined || found === null ? '' : String(found);
  if (!text) return column.emptyKey ? <Typography.Text type="secondary">{t(column.emptyKey)}</Typography.Text> : <Empty />;
  return <Typography.Text>{text}</Typography.Text>;
}

export function ListTagsCell({ value, column }: CellProps<ListTagsColumn>) {
  const names = commaList(value);
  if (names.length === 0) return <Empty />;
  const max = column.maxTags ?? 3;
  const rest = names.slice(max);
  return (
    <Space size={[0, 4]} wrap style={{ maxWidth: 360 }}>
      {names.slice(0, max).map((n) => (
        <Tag key={n}>{n}</Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.join(', ')}>
          <Tag>+{rest.length}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}
