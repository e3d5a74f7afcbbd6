/**
 * A model list (the channel's, docs/channels.md#validation): a searchable multi-select whose
 * value is a comma list, with helpers to fill the type's models, every known model, the
 * upstream's own list (needs a key when creating), to clear, and to add custom names (refused
 * when one is already listed). Where each helper reads and what it says come from the
 * declaration (`ModelPickerDef`).
 */
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import type { ModelPickerAction, ModelPickerFieldDef } from '../../../shared/resources/forms';
import { api } from '../../state/wire';
import { commaList } from '../cell-values';
import { useFormScope } from '../form-scope';
import { useLabel } from '../use-label';
import { useOptions } from '../use-options';
import { addCustomModels, mergeModels } from './field-values';
import { useApp } from '../../state/feedback-app';

interface ModelPickerProps {
  def: ModelPickerFieldDef;
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  id?: string;
}

/** The form's values a request sends (`setting` is JSON text). */
type Values = Record<string, unknown>;

export function ModelPicker({ def, value, onChange, placeholder, id }: ModelPickerProps) {
  const t = useLabel();
  const { picker } = def;
  const { texts } = picker;
  const { message } = useApp();
  const form = Form.useFormInstance();
  const scope = useFormScope();
  const { options } = useOptions(def.options);
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState<ModelPickerAction | null>(null);
  const models = commaList(value);
  const set = (list: string[]) => onChange?.(list.join(','));

  async function upstreamModels(): Promise<string[] | undefined> {
    const upstream = picker.upstream;
    if (!upstream) return undefined;
    if (scope.mode === 'edit' && scope.id !== undefined) return api.request<string[]>('get', upstream.editUrl.replace(':id', String(scope.id)));
    const names = Object.keys(upstream.fields);
    const values = form.getFieldsValue([upstream.keyField, ...names]) as Values;
    const firstKey = String(values[upstream.keyField] ?? '')
      .trim()
      .split('\n')[0]
      ?.trim();
    if (!firstKey) {
      void message.error(t(upstream.keyNeededKey));
      return undefined;
    }
    const body = Object.fromEntries(names.map((name) => [name, values[name] ?? upstream.fields[name]]));
    return api.request<string[]>('post', upstream.createUrl, { body: { ...body, [upstream.keyField]: firstKey } });
  }

  async function fill(helper: ModelPickerAction) {
    setBusy(helper);
    try {
      if (helper === 'type-defaults' && picker.typeDefaults) {
        const { url, typeField, defaultType } = picker.typeDefaults;
        const byType = await api.request<Record<string, string[]>>('get', url);
        set(mergeModels(models, byType[String(form.getFieldValue(typeField) ?? defaultType)] ?? []));
      } else if (helper === 'all' && picker.allUrl) {
        const all = await api.request<{ id: string }[]>('get', picker.allUrl);
        set(
          mergeModels(
            models,
            all.map((m) => m.id),
          ),
        );
      } else if (helper === 'upstream') {
        const fetched = await upstreamModels();
        if (fetched) {
          set(mergeModels(models, fetched));
          if (texts.fetched) void message.success(t(texts.fetched, { count: fetched.length }));
        }
      }
    } catch (err) {
      const failed = helper === 'upstream' ? texts.fetchFailed : texts.loadFailed;
      void message.error(failed ? `${t(failed)}: ${(err as Error).message}` : (err as Error).message);
    } finally {
      setBusy(null);
    }
  }

  const addCustom = () => {
    if (!custom.trim()) return;
    const result = addCustomModels(models, custom);
    if (result.duplicate) {
      if (texts.duplicate) void message.error(t(texts.duplicate));
      return;
    }
    set(result.models);
    setCustom('');
  };

  const helpers = picker.actions.filter((h) => h !== 'custom');
  const buttonText = (h: ModelPickerAction) => {
    const label = texts.buttons[h];
    return label ? t(label) : h;
  };
  const choices = mergeModels(
    models,
    options.map((o) => String(o.value)),
  ).map((m) => ({ value: m, label: m }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      <Select id={id} mode="multiple" value={models} onChange={set} options={choices} placeholder={placeholder} allowClear showSearch maxTagCount={40} data-testid={`picker-${def.field}`} />
      {helpers.length > 0 && (
        <Space wrap size={[8, 8]}>
          {helpers.map((h) => (
            <Button key={h} size="small" danger={h === 'clear'} loading={busy === h} onClick={() => (h === 'clear' ? set([]) : void fill(h))} data-testid={`picker-${h}`}>
              {buttonText(h)}
            </Button>
          ))}
        </Space>
      )}
      {picker.actions.includes('custom') && (
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
            onPressEnter={(e) => (e.preventDefault(), addCustom())}
            placeholder={texts.customPlaceholder ? t(texts.customPlaceholder) : undefined}
            data-testid="picker-custom-input"
          />
          <Button type="primary" onClick={addCustom} data-testid="picker-custom-add">
            {buttonText('custom')}
          </Button>
        </Space.Compact>
      )}
    </Space>
  );
}
