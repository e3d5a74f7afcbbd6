/**
 * The channel model list (docs/channels.md#validation): a searchable multi-select whose value is a
 * comma list, with helpers to fill the type's models, every known model, the upstream's
 * own list (needs a key when creating: 请填写密钥), to clear, and to add custom names
 * (某些模型已存在！ when one is already listed).
 */
import { Button, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHANNEL_TYPE } from '../../../shared/channel-types';
import type { FormFieldDef } from '../../../shared/resources/definition';
import { api } from '../../state/wire';
import { commaList } from '../cell-values';
import { useFormScope } from '../form-scope';
import { useOptions } from '../use-options';
import { addCustomModels, mergeModels } from './field-values';
import { useApp } from '../../state/feedback-app';

interface ModelPickerProps {
  def: FormFieldDef;
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  id?: string;
}

type Helper = NonNullable<FormFieldDef['pickerActions']>[number];

export function ModelPicker({ def, value, onChange, placeholder, id }: ModelPickerProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const form = Form.useFormInstance();
  const scope = useFormScope();
  const { options } = useOptions(def.options);
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState<Helper | null>(null);
  const models = commaList(value);
  const set = (list: string[]) => onChange?.(list.join(','));

  async function upstreamModels(): Promise<string[] | undefined> {
    if (scope.mode === 'edit' && scope.id !== undefined) return api.request<string[]>('get', `/api/channel/fetch_models/${scope.id}`);
    const { key, base_url, type, setting } = form.getFieldsValue(['key', 'base_url', 'type', 'setting']) as Record<string, unknown>;
    const firstKey = String(key ?? '').trim().split('\n')[0]?.trim();
    if (!firstKey) {
      void message.error(t('channels.messages.keyNeeded'));
      return undefined;
    }
    return api.request<string[]>('post', '/api/channel/fetch_models', { body: { key: firstKey, base_url: base_url ?? '', type: Number(type ?? CHANNEL_TYPE.openai), setting: typeof setting === 'string' ? setting : '' } });
  }

  async function fill(helper: Helper) {
    setBusy(helper);
    try {
      if (helper === 'type-defaults') {
        const byType = await api.request<Record<string, string[]>>('get', '/api/models');
        set(mergeModels(models, byType[String(form.getFieldValue('type') ?? CHANNEL_TYPE.openai)] ?? []));
      } else if (helper === 'all') {
        const all = await api.request<{ id: string }[]>('get', '/api/channel/models');
        set(mergeModels(models, all.map((m) => m.id)));
      } else if (helper === 'upstream') {
        const fetched = await upstreamModels();
        if (fetched) {
          set(mergeModels(models, fetched));
          void message.success(t('channels.messages.modelsFetched', { count: fetched.length }));
        }
      }
    } catch (err) {
      void message.error(`${t(helper === 'upstream' ? 'channels.messages.fetchModelsFailed' : 'channels.messages.enabledModelsFailed')}: ${(err as Error).message}`);
    } finally {
      setBusy(null);
    }
  }

  const addCustom = () => {
    if (!custom.trim()) return;
    const result = addCustomModels(models, custom);
    if (result.duplicate) {
      void message.error(t('channels.messages.modelExists'));
      return;
    }
    set(result.models);
    setCustom('');
  };

  const helpers = (def.pickerActions ?? []).filter((h) => h !== 'custom');
  const choices = mergeModels(models, options.map((o) => String(o.value))).map((m) => ({ value: m, label: m }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      <Select id={id} mode="multiple" value={models} onChange={set} options={choices} placeholder={placeholder} allowClear showSearch maxTagCount={40} data-testid={`picker-${def.field}`} />
      {helpers.length > 0 && (
        <Space wrap size={[8, 8]}>
          {helpers.map((h) => (
            <Button key={h} size="small" danger={h === 'clear'} loading={busy === h} onClick={() => (h === 'clear' ? set([]) : void fill(h))} data-testid={`picker-${h}`}>
              {t(`channels.picker.${h}`)}
            </Button>
          ))}
        </Space>
      )}
      {def.pickerActions?.includes('custom') && (
        <Space.Compact style={{ width: '100%' }}>
          <Input value={custom} onChange={(e) => setCustom(e.target.value)} onPressEnter={(e) => (e.preventDefault(), addCustom())} placeholder={t('channels.picker.customPlaceholder')} data-testid="picker-custom-input" />
          <Button type="primary" onClick={addCustom} data-testid="picker-custom-add">
            {t('channels.picker.customAdd')}
          </Button>
        </Space.Compact>
      )}
    </Space>
  );
}
