/**
 * The plain input widgets of the settings forms: `text`, `updown` (number with steppers,
 * `step` and `unit` hints), `quota` (quota units with the currency value beside them) and
 * `password` (a secret: says whether a value is stored, sends only a new one).
 */
import { Input, InputNumber, Space } from 'antd';
import { useTranslation } from '../../use-translation';
import { QuotaInput } from '../../crud/quota-input';
import { settingsContext, type SettingsWidgetProps } from '../form-context';

const blank = (value: unknown) => (value === null || value === undefined ? undefined : value);

export function TextWidget({ id, value, disabled, readonly, placeholder, onChange, onBlur, rawErrors }: SettingsWidgetProps) {
  return (
    <Input
      id={id}
      value={typeof value === 'string' ? value : ''}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? 'error' : undefined}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
    />
  );
}

export function UpDownWidget({ id, value, options, disabled, readonly, placeholder, onChange, onBlur, rawErrors }: SettingsWidgetProps) {
  const { t } = useTranslation();
  const unit = typeof options.unit === 'string' ? options.unit : undefined;
  const input = (
    <InputNumber<number>
      id={id}
      value={blank(value) as number | undefined}
      step={typeof options.step === 'number' ? options.step : 1}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? 'error' : undefined}
      changeOnWheel={false}
      style={{ width: '100%' }}
      onChange={(v) => onChange(v === null ? undefined : v)}
      onBlur={() => onBlur(id, value)}
    />
  );
  if (!unit) return input;
  return (
    <Space.Compact style={{ width: '100%' }}>
      {input}
      <Space.Addon style={{ whiteSpace: 'nowrap' }}>{t(`settings.units.${unit}`)}</Space.Addon>
    </Space.Compact>
  );
}

export function QuotaWidget({ id, value, placeholder, disabled, readonly, onChange }: SettingsWidgetProps) {
  if (disabled || readonly) return <Input id={id} value={String(value ?? '')} disabled />;
  return <QuotaInput id={id} value={blank(value) as number | undefined} placeholder={placeholder} onChange={(v) => onChange(v === null ? undefined : v)} />;
}

export function PasswordWidget(props: SettingsWidgetProps) {
  const { t } = useTranslation();
  const { id, name, value, disabled, readonly, onChange } = props;
  const stored = settingsContext(props).secretsSet[name];
  return (
    <Input.Password
      id={id}
      value={typeof value === 'string' ? value : ''}
      autoComplete="new-password"
      disabled={disabled || readonly}
      placeholder={stored ? t('settings.secret.set') : t('settings.secret.unset')}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
    />
  );
}
