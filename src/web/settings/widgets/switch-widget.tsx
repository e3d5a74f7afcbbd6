/**
 * The `switch` widget: a boolean option as a toggle with its title beside it. With the
 * `confirmOff` hint, switching off asks first (disabling password login, docs/console.md#settings-pages).
 */
import { Space, Switch } from 'antd';
import { useTranslation } from '../../use-translation';
import type { SettingsWidgetProps } from '../form-context';
import { useApp } from '../../state/feedback-app';

export function SwitchWidget({ id, value, label, disabled, readonly, options, onChange }: SettingsWidgetProps) {
  const { t } = useTranslation();
  const { modal } = useApp();
  const change = (next: boolean) => {
    if (next || !options.confirmOff) return onChange(next);
    modal.confirm({
      title: t('settings.confirmOff.title'),
      content: t('settings.confirmOff.content', { title: label }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => onChange(false),
    });
  };
  return (
    <Space align="center" size={10}>
      <Switch id={id} checked={value === true} disabled={disabled || readonly} onChange={change} />
      <label htmlFor={id} className="sy-switch-label">
        {label}
      </label>
    </Space>
  );
}
