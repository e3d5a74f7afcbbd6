/**
 * The buttons above a list: its switches (id sort, tag mode), collection-wide actions (test
 * all, delete disabled ...) and the batch actions on the selected rows.
 */
import { Button, Popconfirm, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchActionDef, ConfirmDef } from '../../shared/resources/definition';
import type { ListToggleDef, ToolbarActionDef } from '../../shared/resources/extras';

interface ListToolbarProps {
  toggles: ListToggleDef[];
  toggleState: Record<string, boolean>;
  onToggle: (param: string, on: boolean) => void;
  toolbarActions: ToolbarActionDef[];
  batchActions: BatchActionDef[];
  busy: string | null;
  onToolbar: (action: ToolbarActionDef) => void;
  onBatch: (action: BatchActionDef) => void;
}

function Confirmed({ confirm, onConfirm, danger, children }: { confirm?: ConfirmDef; onConfirm: () => void; danger?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  if (!confirm) return <>{children}</>;
  return (
    <Popconfirm title={t(confirm.titleKey)} description={confirm.contentKey ? t(confirm.contentKey) : undefined} okButtonProps={{ danger }} onConfirm={onConfirm}>
      {children}
    </Popconfirm>
  );
}

/** One action button, behind its confirmation when it has one; `id` names it for tests and the busy state. */
function ActionButton({ id, action, busy, onRun }: { id: string; action: ToolbarActionDef | BatchActionDef; busy: string | null; onRun: () => void }) {
  const { t } = useTranslation();
  return (
    <Confirmed confirm={action.confirm} danger={action.danger} onConfirm={onRun}>
      <Button danger={action.danger} loading={busy === id} onClick={action.confirm ? undefined : onRun} data-testid={id.replace(':', '-')}>
        {t(action.labelKey)}
      </Button>
    </Confirmed>
  );
}

export function ListToolbar({ toggles, toggleState, onToggle, toolbarActions, batchActions, busy, onToolbar, onBatch }: ListToolbarProps) {
  const { t } = useTranslation();
  if (toggles.length + toolbarActions.length + batchActions.length === 0) return null;
  return (
    <div className="sy-list-actions">
      <Space wrap size={[8, 8]}>
        {toggles.map((toggle) => (
          <Space key={toggle.param} size={4}>
            <Switch size="small" checked={toggleState[toggle.param]} onChange={(on) => onToggle(toggle.param, on)} data-testid={`toggle-${toggle.param}`} />
            <span>{t(toggle.labelKey)}</span>
          </Space>
        ))}
        {toolbarActions.map((action) => (
          <ActionButton key={action.key} id={`toolbar:${action.key}`} action={action} busy={busy} onRun={() => onToolbar(action)} />
        ))}
      </Space>
      <Space wrap size={[8, 8]}>
        {batchActions.map((action) => (
          <ActionButton key={action.key} id={`batch:${action.key}`} action={action} busy={busy} onRun={() => onBatch(action)} />
        ))}
      </Space>
    </div>
  );
}
