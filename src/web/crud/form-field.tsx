/**
 * One declared form field: its input by kind and its validation rules. Adding a kind =
 * one entry in INPUTS (and its name in the shared `FieldKind` union).
 */
import { Form, Input, InputNumber, Select, Switch, type FormRule } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldKind, FormFieldDef } from '../../shared/resources/definition';
import { QuotaInput } from './quota-input';
import { useOptions } from './use-options';

type T = (key: string, options?: Record<string, unknown>) => string;

function OptionSelect({ def, ...props }: { def: FormFieldDef; placeholder?: string }) {
  const { options, loading } = useOptions(def.options);
  return <Select {...props} options={options} loading={loading} mode={def.multiple ? 'multiple' : undefined} allowClear showSearch optionFilterProp="label" />;
}

const INPUTS: Record<FieldKind, (def: FormFieldDef, placeholder: string | undefined) => ReactNode> = {
  text: (_def, placeholder) => <Input placeholder={placeholder} autoComplete="off" />,
  password: (_def, placeholder) => <Input.Password placeholder={placeholder} autoComplete="new-password" />,
  number: (def, placeholder) => <InputNumber style={{ width: '100%' }} min={def.min} max={def.max} precision={def.integer ? 0 : undefined} placeholder={placeholder} />,
  quota: (def, placeholder) => <QuotaInput adjustDialog={def.adjustDialog} placeholder={placeholder} />,
  select: (def, placeholder) => <OptionSelect def={def} placeholder={placeholder} />,
  switch: () => <Switch />,
  textarea: (def, placeholder) => <Input.TextArea rows={def.rows ?? 4} placeholder={placeholder} />,
  json: (def, placeholder) => <Input.TextArea rows={def.rows ?? 6} placeholder={placeholder} className="sy-mono" />,
  tags: (_def, placeholder) => <Select mode="tags" tokenSeparators={[',']} placeholder={placeholder} open={false} suffixIcon={null} />,
  readonly: () => <Input variant="filled" readOnly />,
};

export function fieldRules(def: FormFieldDef, t: T): FormRule[] {
  const label = t(def.labelKey);
  const rules: FormRule[] = [];
  if (def.required) rules.push({ required: true, message: t(def.requiredMessageKey ?? 'crud.validation.required', { field: label }) });
  if (def.minLength !== undefined) rules.push({ min: def.minLength, message: t('crud.validation.minLength', { field: label, count: def.minLength }) });
  if (def.maxLength !== undefined) rules.push({ max: def.maxLength, message: t('crud.validation.maxLength', { field: label, count: def.maxLength }) });
  if (def.kind === 'json') {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value === undefined || value === null || value === '') return;
        JSON.parse(String(value));
      },
      message: t('crud.validation.json', { field: label }),
    });
  }
  if (def.integer) {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value !== undefined && value !== null && value !== '' && !Number.isInteger(Number(value))) throw new Error();
      },
      message: t('crud.validation.integer', { field: label }),
    });
  }
  return rules;
}

export function FormField({ def }: { def: FormFieldDef }) {
  const { t } = useTranslation();
  const placeholder = def.placeholderKey ? t(def.placeholderKey) : undefined;
  return (
    <Form.Item
      name={def.field}
      label={t(def.labelKey)}
      tooltip={def.helpKey ? t(def.helpKey) : undefined}
      rules={fieldRules(def, t)}
      valuePropName={def.kind === 'switch' ? 'checked' : 'value'}
      validateTrigger={def.kind === 'json' ? 'onBlur' : 'onChange'}
    >
      {INPUTS[def.kind](def, placeholder)}
    </Form.Item>
  );
}
