/**
 * The playground's left panel (docs/console.md#playground-page): group (GET
 * /api/user/self/groups), searchable model (GET /api/user/models), temperature, max tokens
 * and the system prompt.
 */
import { Form, Input, InputNumber, Select, Slider } from 'antd';
import { useTranslation } from '../../use-translation';
import { useOptions } from '../../crud/use-options';
import { normalizeTemperature, parseMaxTokens, type ChatSettings } from './chat-settings';

interface SettingsPanelProps {
  settings: ChatSettings;
  onChange: (settings: ChatSettings) => void;
}

const GROUPS = { kind: 'fetch', url: '/api/user/self/groups' } as const;
const MODELS = { kind: 'fetch', url: '/api/user/models' } as const;

export function SettingsPanel({ settings, onChange }: SettingsPanelProps) {
  const { t } = useTranslation();
  const groups = useOptions(GROUPS);
  const models = useOptions(MODELS);
  const set = (patch: Partial<ChatSettings>) => onChange({ ...settings, ...patch });
  return (
    <Form layout="vertical" data-testid="playground-settings">
      <Form.Item label={t('playground.group')}>
        <Select
          value={settings.group || undefined}
          onChange={(group: string) => set({ group: group ?? '' })}
          options={groups.options}
          loading={groups.loading}
          placeholder={t('playground.groupPlaceholder')}
          allowClear
          data-testid="playground-group"
        />
      </Form.Item>
      <Form.Item label={t('playground.model')}>
        <Select
          value={settings.model}
          onChange={(model: string) => set({ model })}
          options={models.options}
          loading={models.loading}
          showSearch
          optionFilterProp="label"
          data-testid="playground-model"
        />
      </Form.Item>
      <Form.Item label={t('playground.temperature', { value: settings.temperature })}>
        <Slider min={0.1} max={1} step={0.1} value={settings.temperature} onChange={(v: number) => set({ temperature: normalizeTemperature(v) })} />
      </Form.Item>
      <Form.Item label={t('playground.maxTokens')} tooltip={t('playground.maxTokensHelp')}>
        <InputNumber<number> min={0} precision={0} style={{ width: '100%' }} value={settings.max_tokens} onChange={(v) => set({ max_tokens: parseMaxTokens(v) })} />
      </Form.Item>
      <Form.Item label={t('playground.system')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} value={settings.system} onChange={(e) => set({ system: e.target.value })} placeholder={t('playground.systemPlaceholder')} />
      </Form.Item>
    </Form>
  );
}
