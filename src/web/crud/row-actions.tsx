/**
 * The actions of one row, from the declaration: visible and disabled by data conditions,
 * confirmed when declared, the rest in a "more" menu. A soft-deleted row offers nothing.
 */
import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Popconfirm, Space, Tag } from 'antd';
import { useLabel } from './use-label';
import { useNavigate } from 'react-router';
import { useStoredUser } from '../state/use-stored-user';
import { ROLE_ROOT } from '../../shared/roles';
import type { RowActionDef } from '../../shared/resources/actions';
import type { ResourceDefinition } from '../../shared/resources/definition';
import { matches } from './conditions';
import { useApp } from '../state/feedback-app';

type Row = Record<string, unknown>;

interface RowActionsProps {
  resource: ResourceDefinition;
  row: Row;
  busy: string | null;
  run: (action: RowActionDef, row: Row) => Promise<boolean>;
}

export function isSoftDeleted(resource: ResourceDefinition, row: Row): boolean {
  return Boolean(resource.softDelete && matches({ field: resource.softDelete.field, present: true }, row));
}

/** Whether the signed-in user (`role`) may act on `row` by its role field (see `viewerOutranks`). */
export function outranks(role: number, field: string | undefined, row: Row): boolean {
  if (field === undefined || role >= ROLE_ROOT) return true;
  return Number(row[field] ?? 0) < role;
}

export function RowActions({ resource, row, busy, run }: RowActionsProps) {
  const t = useLabel();
  const navigate = useNavigate();
  const { modal } = useApp();
  const role = useStoredUser()?.role ?? 0;
  if (isSoftDeleted(resource, row)) return <Tag color="default">{t(resource.softDelete!.labelKey)}</Tag>;

  const actions = (resource.rowActions ?? []).filter((a) => matches(a.visibleWhen, row) && (a.minRole === undefined || role >= a.minRole) && outranks(role, a.viewerOutranks, row));
  const trigger = (action: RowActionDef) => {
    if (action.kind === 'edit' && resource.routes.edit) navigate(resource.routes.edit.replace(':id', String(row.id)));
    else void run(action, row);
  };

  const button = (action: RowActionDef) => {
    const disabled = action.disabledWhen ? matches(action.disabledWhen, row) : false;
    const loading = busy === `${action.key}:${String(row.id)}`;
    const node = (
      <Button
        key={action.key}
        size="small"
        type={action.kind === 'edit' ? 'primary' : 'default'}
        ghost={action.kind === 'edit'}
        danger={action.danger}
        disabled={disabled}
        loading={loading}
        onClick={action.confirm ? undefined : () => trigger(action)}
        data-testid={`row-action-${action.key}`}
      >
        {t(action.labelKey)}
      </Button>
    );
    if (!action.confirm || disabled) return node;
    return (
      <Popconfirm
        key={action.key}
        title={t(action.confirm.titleKey)}
        description={action.confirm.contentKey ? t(action.confirm.contentKey) : undefined}
        okButtonProps={{ danger: action.danger }}
        onConfirm={() => trigger(action)}
      >
        {node}
      </Popconfirm>
    );
  };

  const inline = actions.filter((a) => !a.inMenu);
  const menu = actions.filter((a) => a.inMenu);
  return (
    <Space size={[4, 4]} wrap>
      {inline.map(button)}
      {menu.length > 0 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: menu.map((a) => ({ key: a.key, label: t(a.labelKey), danger: a.danger, disabled: a.disabledWhen ? matches(a.disabledWhen, row) : false })),
            onClick: ({ key }) => {
              const action = menu.find((a) => a.key === key);
              if (!action) return;
              if (!action.confirm) return trigger(action);
              modal.confirm({
                title: t(action.confirm.titleKey),
                content: action.confirm.contentKey ? t(action.confirm.contentKey) : undefined,
                okButtonProps: { danger: action.danger },
                onOk: () => trigger(action),
              });
            },
          }}
        >
          <Button size="small" icon={<MoreOutlined />} aria-label={t('crud.actions.more')} />
        </Dropdown>
      )}
    </Space>
  );
}
