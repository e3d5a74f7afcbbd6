/**
 * A token's expiry (docs/tokens.md#validation): typed as `YYYY-MM-DD HH:mm:ss` (empty = never), or
 * set by a preset (never, 1 hour, 1 day, 1 month). The value is unix seconds or -1; text
 * that is no real time gives NaN, which the field's rule answers with 过期时间格式错误！.
 */
import { Button, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useLabel } from '../use-label';
import type { ExpiryFieldDef } from '../../../shared/resources/forms';
import { expiryText, parseExpiry, presetExpiry } from './field-values';
import { nowSeconds } from '../../../shared/time';

interface ExpiryInputProps {
  def: ExpiryFieldDef;
  value?: number;
  onChange?: (value: number) => void;
  placeholder?: string;
  id?: string;
}

export function ExpiryInput({ def, value, onChange, placeholder, id }: ExpiryInputProps) {
  const t = useLabel();
  const [text, setText] = useState(() => expiryText(value));

  // Follow values set from outside (presets, a loaded record, a reset).
  useEffect(() => {
    if (parseExpiry(text) !== value && !Number.isNaN(value)) setText(expiryText(value));
  }, [value]);

  const type = (next: string) => {
    setText(next);
    onChange?.(parseExpiry(next) ?? Number.NaN);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      <Input id={id} value={text} onChange={(e) => type(e.target.value)} placeholder={placeholder} allowClear data-testid={`expiry-${def.field}`} />
      <Space wrap size={[8, 8]}>
        {(def.presets ?? []).map((p) => (
          <Button key={String(p.value)} size="small" onClick={() => onChange?.(presetExpiry(Number(p.value), nowSeconds()))}>
            {p.labelKey ? t(p.labelKey) : String(p.value)}
          </Button>
        ))}
      </Space>
    </Space>
  );
}
