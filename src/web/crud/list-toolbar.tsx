/**
 * The buttons above a list: its switches (id sort, tag mode), collection-wide actions (test
 * all, delete disabled ...) and the batch actions on the selected rows.
 */
import { Button, Popconfirm, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useLabel } from './use-label';
import type { BatchActionDef, ToolbarActionDef } from '../../shared/resources/actions';
import type { ConfirmDef } from '../../shared/resources/common';
import type { ListToggleDef } from '../../shared/resources/lists';

interface ListToolbarProps {
  toggles: ListToggleDef[];
  toggleState: Record<string, boolean>;
  onToggle: (param: string, on: boolean) => void;
  toolbarActions: ToolbarActionDef[];
  batchActions: BatchActionDef[];
  /** Rows selected now: with none, a batch action says so at once instead of asking first. */
  selectedCount: number;
  busy: string | null;
  onToolbar: (action: ToolbarActionDef) => void;
  onBatch: (action: BatchActionDef) => void;
}

function Confirmed({ confirm, onConfirm, danger, children }: { confirm?: ConfirmDef; onConfirm: () => void; danger?: boolean; children: ReactNode }) {
  const t = useLabel();
  if (!confirm) return <>{children}</>;
  return (
    <Popconfirm title={t(confirm.titleKey)} description={confirm.contentKey ? t(confirm.contentKey) : undefined} okButtonProps={{ danger }} onConfirm={onConfirm}>
      {children}
    </Popconfirm>
  );
}

/** One action button, behind its confirmation when it has one; `id` names it for tests and the busy state. */
function ActionButton({ id, action, busy, onRun, ask = true }: { id: string; action: ToolbarActionDef | BatchActionDef; busy: string | null; onRun: () => void; ask?: boolean }) {
  const t = useLabel();
  const confirm = ask ? action.confirm : undefined;
  return (
    <Confirmed confirm={confirm} danger={action.danger} onConfirm={onRun}>
      <Button danger={action.danger} loading={busy === id} onClick={confirm ? undefined : onRun} data-testid={id.replace(':', '-')}>
        {t(action.labelKey)}
      </Button>
    </Confirmed>
  );
}

export function ListToolbar({ toggles, toggleState, onToggle, toolbarActions, batchActions, selectedCount, busy, onToolbar, onBatch }: ListToolbarProps) {
  const t = useLabel();
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
          <ActionButton key={action.key} id={`batch:${action.key}`} action={action} busy={busy} ask={selectedCount > 0} onRun={() => onBatch(action)} />
        ))}
      </Space>
    </div>
  );
}
