/**
 * Cells a user clicks: a record or text in a dialog, a masked key to copy, an id tag that
 * copies itself, a username that shows the user's balance (administrators), and a tag that
 * runs a row action (refresh a channel's balance).
 */
import { CopyOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Descriptions, Popover, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useLabel } from '../use-label';
import type { ActionTagColumn, JsonDialogColumn, SecretColumn, UserInfoColumn } from '../../../shared/resources/columns';
import { useCopy } from '../../components/use-copy';
import { api } from '../../state/wire';
import { colorOfValue, maskSecret } from '../cell-values';
import { formatTimestamp } from '../format-time';
import { displayQuota } from '../quota-format';
import type { CellProps } from './cell-props';
import { Empty } from './value-cells';
import { useApp } from '../../state/feedback-app';

type Row = Record<string, unknown>;

/** Fields stored as JSON text (a task's `data`, `properties`) nested as JSON, not as escaped strings. */
function withJsonFields(row: Row): Row {
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  return Object.fromEntries(Object.entries(row).map(([key, v]) => [key, typeof v === 'string' && /^\s*[[{]/.test(v) ? parse(v) : v]));
}

/** The record as JSON (`dialog: 'record'`) or the value as text, in a dialog. */
export function JsonDialogCell({ value, row, column }: CellProps<JsonDialogColumn>) {
  const t = useLabel();
  const { modal } = useApp();
  const empty = value === undefined || value === null || value === '';
  if (empty && column.dialog !== 'record') return column.emptyKey ? <Typography.Text type="secondary">{t(column.emptyKey)}</Typography.Text> : <Empty />;
  const content = column.dialog === 'record' ? JSON.stringify(withJsonFields(row), null, 2) : String(value);
  const open = () =>
    modal.info({
      title: t(column.titleKey),
      width: 640,
      icon: null,
      content: <pre className="sy-pre">{content}</pre>,
      okText: t('common.ok'),
    });
  return (
    <Typography.Link onClick={open} ellipsis style={{ maxWidth: 280, display: 'inline-block', verticalAlign: 'middle' }} data-testid={`dialog-${column.field}`}>
      {empty ? t(column.emptyKey ?? 'common.unknown') : String(value)}
    </Typography.Link>
  );
}

/** A key shown masked with its prefix (`sk-`), revealed on demand, copied whole. */
export function SecretCell({ value, column }: CellProps<SecretColumn>) {
  const t = useLabel();
  const copy = useCopy();
  const [shown, setShown] = useState(false);
  if (!value) return <Empty />;
  const full = `${column.prefix ?? ''}${String(value)}`;
  return (
    <Space.Compact size="small">
      <Typography.Text code className="sy-secret">
        {shown ? full : maskSecret(String(value), column.prefix)}
      </Typography.Text>
      <Button size="small" type="text" icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />} onClick={() => setShown(!shown)} aria-label={t('crud.cells.reveal')} />
      <Button size="small" type="text" icon={<CopyOutlined />} onClick={() => void copy(full)} aria-label={t('crud.cells.copy')} data-testid="copy-secret" />
    </Space.Compact>
  );
}

/** A colour-by-value tag (a channel id); a click copies the value. */
export function IdTagCell({ value }: CellProps) {
  const copy = useCopy();
  if (value === undefined || value === null || value === '' || value === 0) return <Empty />;
  return (
    <Tag color={colorOfValue(value)} style={{ cursor: 'pointer' }} onClick={() => void copy(String(value))}>
      {String(value)}
    </Tag>
  );
}

interface UserSummary {
  username: string;
  quota: number;
  used_quota: number;
  request_count: number;
}

/** A username; a click shows the user's balance, usage and request count (GET /api/user/{id}). */
export function UserInfoCell({ value, row, column, ctx }: CellProps<UserInfoColumn>) {
  const t = useLabel();
  const [user, setUser] = useState<UserSummary | undefined>();
  const [error, setError] = useState<string | undefined>();
  if (!value) return <Empty />;
  const id = row[column.idField ?? 'user_id'];
  const load = (open: boolean) => {
    if (!open || user) return;
    api
      .request<UserSummary>('get', `/api/user/${String(id)}`)
      .then(setUser)
      .catch((err: Error) => setError(err.message));
  };
  const content = user ? (
    <Descriptions size="small" column={1} data-testid="user-info">
      <Descriptions.Item label={t('users.fields.username')}>{user.username}</Descriptions.Item>
      <Descriptions.Item label={t('users.fields.quota')}>{displayQuota(user.quota, ctx.quota)}</Descriptions.Item>
      <Descriptions.Item label={t('users.fields.used')}>{displayQuota(user.used_quota, ctx.quota)}</Descriptions.Item>
      <Descriptions.Item label={t('users.fields.requests')}>{user.request_count}</Descriptions.Item>
    </Descriptions>
  ) : (
    <Spin spinning={!error}>{error ?? <div style={{ width: 160, height: 40 }} />}</Spin>
  );
  return (
    <Popover trigger="click" title={t('crud.cells.userInfo')} content={content} onOpenChange={load}>
      <Typography.Link>{String(value)}</Typography.Link>
    </Popover>
  );
}

/** The value in a tag that runs the row action `actionKey` (with an optional read-only tag before it). */
export function ActionTagCell({ value, row, column, ctx }: CellProps<ActionTagColumn>) {
  const [busy, setBusy] = useState(false);
  const action = ctx.resource?.rowActions?.find((a) => a.key === column.actionKey);
  const format = (raw: unknown, kind: ActionTagColumn['format']) =>
    kind === 'quota' ? displayQuota(Number(raw), ctx.quota) : kind === 'currency' ? `$${Number(raw ?? 0).toFixed(2)}` : Number(raw ?? 0).toLocaleString('en-US');
  const leading = column.leading;
  const time = column.timeField && Number(row[column.timeField]) > 0 ? formatTimestamp(row[column.timeField]) : '';
  return (
    <Space size={[4, 4]} wrap>
      {leading && (
        <Tag color={leading.color} bordered={false}>
          {ctx.t(leading.labelKey)}: {format(row[leading.field], leading.format)}
        </Tag>
      )}
      <Tooltip title={time && column.timeKey ? ctx.t(column.timeKey, { time }) : undefined}>
        <Tag
          color="blue"
          bordered={false}
          style={{ cursor: action ? 'pointer' : undefined, opacity: busy ? 0.5 : 1 }}
          onClick={() => {
            if (!action || !ctx.runRow || busy) return;
            setBusy(true);
            void ctx.runRow(action, row).finally(() => setBusy(false));
          }}
          data-testid={`action-tag-${column.field}`}
        >
          {action ? `${ctx.t(action.labelKey)}: ` : ''}
          {format(value, column.format)}
        </Tag>
      </Tooltip>
    </Space>
  );
}
