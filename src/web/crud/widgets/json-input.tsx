/**
 * A JSON text input; with a declared `template` a "fill template" button beneath replaces the
 * text with the example, pretty-printed (the reference's 填入模板 under a model mapping).
 */
import { Button, Form, Input } from 'antd';
import type { ChangeEvent, FocusEvent } from 'react';
import { useTranslation } from '../../use-translation';
import type { JsonFieldDef } from '../../../shared/resources/forms';

interface JsonInputProps {
  def: JsonFieldDef;
  placeholder?: string;
  id?: string;
  value?: string;
  onChange?: (value: string | ChangeEvent<HTMLTextAreaElement>) => void;
  onBlur?: (event: FocusEvent<HTMLTextAreaElement>) => void;
}

export function JsonInput({ def, placeholder, id, value, onChange, onBlur }: JsonInputProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const fill = () => {
    onChange?.(JSON.stringify(def.template, null, 2));
    // The field checks itself on blur; a stale "not JSON" error must not stay under the example.
    void form.validateFields([def.field]).catch(() => undefined);
  };
  return (
    <>
      <Input.TextArea id={id} rows={def.rows ?? 6} placeholder={placeholder} className="sy-mono" value={value} onChange={onChange} onBlur={onBlur} />
      {def.template && (
        <Button type="link" size="small" className="sy-fill-template" onClick={fill} data-testid={`fill-template-${def.field}`}>
          {t('crud.actions.fillTemplate')}
        </Button>
      )}
    </>
  );
}
