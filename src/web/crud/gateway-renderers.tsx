/**
 * The gateway renderers by name (channels, tokens, logs, tasks): see `ColumnExtras` in
 * src/shared/resources/extras.ts for what each shows. Cells with state are components.
 */
import type { ReactNode } from 'react';
import type { ColumnDef, RendererName } from '../../shared/resources/definition';
import { ActionTagCell, IdTagCell, JsonDialogCell, SecretCell, UserInfoCell } from './cells/action-cells';
import { InlineNumberCell } from './cells/inline-number-cell';
import { TaskResultCell } from './cells/task-result-cell';
import {
  ChannelTypeCell,
  DurationCell,
  ImageCell,
  JsonPathCell,
  LatencyCell,
  ListTagsCell,
  ProgressCell,
  ResponseTimeCell,
  StatusDetailCell,
  TagChildrenCell,
} from './cells/value-cells';
import type { RenderContext } from './renderers';
import './cells/cells.css';

type Row = Record<string, unknown>;
type GatewayRenderer = (value: unknown, row: Row, column: ColumnDef, ctx: RenderContext) => ReactNode;
type CellComponent = (props: { value: unknown; row: Row; column: ColumnDef; ctx: RenderContext }) => ReactNode;

const cell =
  (Component: CellComponent): GatewayRenderer =>
  (value, row, column, ctx) => <Component value={value} row={row} column={column} ctx={ctx} />;

type GatewayName = Exclude<RendererName, 'text' | 'number' | 'enum' | 'status' | 'role' | 'group' | 'quota' | 'timestamp' | 'stat-tags'>;

export const GATEWAY_RENDERERS: Record<GatewayName, GatewayRenderer> = {
  'response-time': cell(ResponseTimeCell),
  'channel-type': cell(ChannelTypeCell),
  'inline-number': (value, row, column, ctx) =>
    ctx.resource && column.inlineEdit ? <InlineNumberCell key={`${String(row.id)}:${String(value)}`} value={value} row={row} column={column} resource={ctx.resource} /> : String(value ?? ''),
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
