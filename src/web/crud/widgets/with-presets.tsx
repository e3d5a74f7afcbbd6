/**
 * A quota or number input with preset buttons beneath (token quota $1 … $1000, create
 * counts 10/20/30/100, docs/tokens.md#creating-several). A preset's label is its key's text, or the value as
 * the field shows it.
 */
import { Button, InputNumber, Space } from 'antd';
import { useLabel } from '../use-label';
import type { NumberFieldDef, QuotaFieldDef } from '../../../shared/resources/forms';
import type { Label } from '../../../shared/resources/label';
import { usePublicStatus } from '../../state/status-context';
import { displayQuota, quotaView } from '../quota-format';
import { QuotaInput } from '../quota-input';

interface WithPresetsProps {
  def: NumberFieldDef | QuotaFieldDef;
  value?: number;
  onChange?: (value: number | null) => void;
  placeholder?: string;
  id?: string;
}

export function WithPresets({ def, value, onChange, placeholder, id }: WithPresetsProps) {
  const t = useLabel();
  const view = quotaView(usePublicStatus());
  const label = (v: unknown, key?: Label) => (key ? t(key) : def.kind === 'quota' ? displayQuota(Number(v), view, { minDigits: 0 }) : String(v));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      {def.kind === 'quota' ? (
        <QuotaInput id={id} value={value} onChange={onChange} adjustDialog={def.adjustDialog} placeholder={placeholder} />
      ) : (
        <InputNumber<number> id={id} style={{ width: '100%' }} value={value} onChange={onChange} placeholder={placeholder} />
      )}
      <Space wrap size={[8, 8]}>
        {(def.presets ?? []).map((p) => (
          <Button key={String(p.value)} size="small" type={value === p.value ? 'primary' : 'default'} ghost={value === p.value} onClick={() => onChange?.(Number(p.value))}>
            {label(p.value, p.labelKey)}
          </Button>
        ))}
      </Space>
    </Space>
  );
}
