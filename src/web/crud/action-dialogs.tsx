/**
 * Dialogs that actions open before they call the server: a declared form (batch tag, tag
 * edit) and a pick list (test a channel with one of its models). The dialog stays open
 * while the call runs; a form closes when it succeeds, a pick list stays for more picks.
 */
import { Button, Form, Input, List, Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import { useLabel } from './use-label';
import type { Label } from '../../shared/resources/label';
import type { DialogDef } from '../../shared/resources/forms';
import { FormField } from './form-field';
import { visibleFields } from './form-values';
import { useApp } from '../state/feedback-app';

type Values = Record<string, unknown>;

/** The values a dialog sends: all of them, or with `changedOnly` the changed ones plus `alwaysSend`. */
export function dialogValues(def: DialogDef, initial: Values, values: Values): Values | undefined {
  if (!def.changedOnly) return values;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? '') === JSON.stringify(b ?? '');
  const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => !same(v, initial[k])));
  if (Object.keys(changed).length === 0) return undefined;
  for (const k of def.alwaysSend ?? []) changed[k] = values[k] ?? initial[k];
  return changed;
}

interface FormRequest {
  def: DialogDef;
  initial: Values;
  /** Sends the values; true closes the dialog. */
  submit: (values: Values) => Promise<boolean>;
}

interface PickRequest {
  titleKey: Label;
  options: string[];
  run: (value: string) => Promise<boolean>;
}

function FormDialog({ request, onClose }: { request: FormRequest; onClose: () => void }) {
  const t = useLabel();
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const values = (Form.useWatch([], form) ?? request.initial) as Values;
  const ok = async () => {
    const all = await form.validateFields().catch(() => undefined);
    if (!all) return;
    const send = dialogValues(request.def, request.initial, all);
    if (!send) return void message.warning(t(request.def.noChangeKey ?? 'crud.messages.noChange'));
    setBusy(true);
    const done = await request.submit(send).finally(() => setBusy(false));
    if (done) onClose();
  };
  return (
    <Modal
      open
      title={t(request.def.titleKey)}
      onOk={() => void ok()}
      onCancel={onClose}
      confirmLoading={busy}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      width={request.def.width ?? 560}
      destroyOnHidden
      data-testid="action-dialog"
    >
      <Form form={form} layout="vertical" initialValues={request.initial} preserve={false}>
        {visibleFields(request.def.fields, values).map((f) => (
          <FormField key={`${f.field}:${f.kind}`} def={f} />
        ))}
      </Form>
    </Modal>
  );
}

function PickDialog({ request, onClose }: { request: PickRequest; onClose: () => void }) {
  const t = useLabel();
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const shown = request.options.filter((o) => o.toLowerCase().includes(filter.trim().toLowerCase()));
  const pick = (value: string) => {
    setBusy(value);
    void request.run(value).finally(() => setBusy(null));
  };
  return (
    <Modal open title={t(request.titleKey)} onCancel={onClose} footer={null} width={520} destroyOnHidden data-testid="pick-dialog">
      <Input.Search allowClear placeholder={t('crud.actions.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 12 }} />
      <List
        size="small"
        bordered
        style={{ maxHeight: 400, overflow: 'auto' }}
        dataSource={shown}
        locale={{ emptyText: t('crud.messages.nothing') }}
        renderItem={(item) => (
          <List.Item
            actions={[
              <Button key="go" size="small" type="primary" ghost loading={busy === item} disabled={busy !== null && busy !== item} onClick={() => pick(item)}>
                {t('crud.actions.pick')}
              </Button>,
            ]}
          >
            {item}
          </List.Item>
        )}
      />
    </Modal>
  );
}

/** Opens the action dialogs; render `node` once where the dialogs belong. */
export function useActionDialogs(): { openForm: (r: FormRequest) => void; openPick: (r: PickRequest) => void; node: ReactNode } {
  const [open, setOpen] = useState<{ form?: FormRequest; pick?: PickRequest }>({});
  const close = () => setOpen({});
  const node = open.form ? <FormDialog request={open.form} onClose={close} /> : open.pick ? <PickDialog request={open.pick} onClose={close} /> : null;
  return { openForm: (form) => setOpen({ form }), openPick: (pick) => setOpen({ pick }), node };
}
