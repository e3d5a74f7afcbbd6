/**
 * The `action` widget: a text input with a button beside it that runs the input action the
 * key's `x-ui.action` names (registered in INPUT_ACTIONS). Today: `oidc-discover`.
 */
import { CloudDownloadOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from '../../use-translation';
import { useAction } from '../../components/use-action';
import { discoveredValues, fetchDiscovery } from '../actions/oidc-discover';
import { settingsContext, type SettingsFormContext, type SettingsWidgetProps } from '../form-context';

interface InputAction {
  labelKey: string;
  icon: ReactNode;
  /** Runs with the input's text; answers the success text, or throws the failure text. */
  run: (value: string, context: SettingsFormContext, t: (key: string) => string) => Promise<string>;
}

const INPUT_ACTIONS: Record<string, InputAction> = {
  'oidc-discover': {
    labelKey: 'settings.oidc.fetch',
    icon: <CloudDownloadOutlined />,
    run: async (value, context, t) => {
      let values: Record<string, string>;
      try {
        values = discoveredValues(await fetchDiscovery(value), context.section.fields);
      } catch {
        throw new Error(t('settings.oidc.failed'));
      }
      if (Object.keys(values).length === 0) throw new Error(t('settings.oidc.failed'));
      context.patch(values);
      return t('settings.oidc.done');
    },
  },
};

export function ActionWidget(props: SettingsWidgetProps) {
  const { t } = useTranslation();
  const { id, value, options, disabled, readonly, placeholder, onChange, onBlur, rawErrors } = props;
  const action = INPUT_ACTIONS[String(options.action)];
  const text = typeof value === 'string' ? value : '';

  const [run, busy] = useAction(() => action.run(text, settingsContext(props), t), { success: (done) => done });

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        value={text}
        placeholder={placeholder}
        disabled={disabled || readonly}
        status={rawErrors?.length ? 'error' : undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
      />
      {action && (
        <Button icon={action.icon} loading={busy} disabled={disabled || readonly || !text} onClick={() => void run()}>
          {t(action.labelKey)}
        </Button>
      )}
    </Space.Compact>
  );
}
