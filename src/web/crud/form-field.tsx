/**
 * One declared form field: its input by kind and its validation rules. Adding a kind =
 * its variant in the shared `FormFieldDef` union (src/shared/resources/forms.ts) and one
 * entry in INPUTS, which receives that variant.
 */
import { Form, Input, InputNumber, Select, Switch, type FormItemProps, type FormRule } from 'antd';
import type { ReactNode } from 'react';
import { useLabel, type LabelT } from './use-label';
import type { FieldKind, FieldOf, FormFieldDef, NumberRules, SelectFieldDef, TextRules } from '../../shared/resources/forms';
import { schemaMessage } from '../../shared/schema-messages';
import { matches } from './conditions';
import { QuotaInput } from './quota-input';
import { useOptions } from './use-options';
import { ExpiryInput } from './widgets/expiry-input';
import { JsonInput } from './widgets/json-input';
import { ModelPicker } from './widgets/model-picker';
import { WithPresets } from './widgets/with-presets';
import { currentLanguage } from '../i18n';

type T = LabelT;

function OptionSelect({ def, ...props }: { def: SelectFieldDef; placeholder?: string }) {
  const t = useLabel();
  const { options, loading } = useOptions(def.options);
  // Nothing to choose (no user-selectable groups): a disabled select that says why.
  if (def.emptyOptionsKey && !loading && options.length === 0) return <Select {...props} disabled placeholder={t(def.emptyOptionsKey)} options={[]} />;
  return <Select {...props} options={options} loading={loading} mode={def.multiple ? 'multiple' : undefined} allowClear showSearch optionFilterProp="label" />;
}

type Inputs = { [K in FieldKind]: (def: FieldOf<K>, placeholder: string | undefined) => ReactNode };

const INPUTS: Inputs = {
  text: (_def, placeholder) => <Input placeholder={placeholder} autoComplete="off" />,
  password: (_def, placeholder) => <Input.Password placeholder={placeholder} autoComplete="new-password" />,
  number: (def, placeholder) => (def.presets ? <WithPresets def={def} placeholder={placeholder} /> : <InputNumber style={{ width: '100%' }} placeholder={placeholder} />),
  quota: (def, placeholder) => (def.presets ? <WithPresets def={def} placeholder={placeholder} /> : <QuotaInput adjustDialog={def.adjustDialog} placeholder={placeholder} />),
  select: (def, placeholder) => <OptionSelect def={def} placeholder={placeholder} />,
  switch: () => <Switch />,
  textarea: (def, placeholder) => <Input.TextArea rows={def.rows ?? 4} placeholder={placeholder} />,
  json: (def, placeholder) => <JsonInput def={def} placeholder={placeholder} />,
  tags: (_def, placeholder) => <Select mode="tags" tokenSeparators={[',']} placeholder={placeholder} open={false} suffixIcon={null} />,
  readonly: () => <Input variant="filled" readOnly />,
  'model-picker': (def, placeholder) => <ModelPicker def={def} placeholder={placeholder} />,
  expiry: (def, placeholder) => <ExpiryInput def={def} placeholder={placeholder} />,
};

/** The text rules of the kinds that have them. */
function textRulesOf(def: FormFieldDef): TextRules {
  return def.kind === 'text' || def.kind === 'password' || def.kind === 'textarea' ? def : {};
}

/** The number rules of the kinds that have them. */
function numberRulesOf(def: FormFieldDef): NumberRules {
  return def.kind === 'number' || def.kind === 'quota' ? def : {};
}

/** The input of `def`'s kind. */
function inputOf(def: FormFieldDef, placeholder: string | undefined): ReactNode {
  // TypeScript cannot tie the entry picked by `def.kind` to `def`'s variant; the registry's
  // type already checked that each entry takes its own variant.
  const input = INPUTS[def.kind] as (def: FormFieldDef, placeholder: string | undefined) => ReactNode;
  return input(def, placeholder);
}

export function fieldRules(def: FormFieldDef, t: T): FormRule[] {
  const text = textRulesOf(def);
  const number = numberRulesOf(def);
  const label = t(def.labelKey);
  const rules: FormRule[] = [];
  if (def.required) rules.push({ required: true, message: t(def.requiredMessageKey ?? 'crud.validation.required', { field: label }) });
  if (text.minLength !== undefined) rules.push({ min: text.minLength, message: t('crud.validation.minLength', { field: label, count: text.minLength }) });
  if (text.maxLength !== undefined) rules.push({ max: text.maxLength, message: t('crud.validation.maxLength', { field: label, count: text.maxLength }) });
  if (def.kind === 'json') {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value === undefined || value === null || value === '') return;
        JSON.parse(String(value));
      },
      message: t(def.jsonMessageKey ?? 'crud.validation.json', { field: label }),
    });
  }
  if (def.kind === 'expiry') {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value !== undefined && !(value === -1 || (Number.isInteger(value) && Number(value) > 0))) throw new Error();
      },
      message: t(def.invalidMessageKey ?? 'crud.validation.invalid', { field: label }),
    });
  }
  if (text.pattern !== undefined) rules.push(patternRule(text.pattern, text, label, t));
  if (number.min !== undefined || number.max !== undefined) rules.push(rangeRule(number, label, t));
  if (number.integer) {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value !== undefined && value !== null && value !== '' && !Number.isInteger(Number(value))) throw new Error();
      },
      message: t('crud.validation.integer', { field: label }),
    });
  }
  return rules;
}

/**
 * Text that does not have the field's form gets the field's own message from its schema
 * (`x-messages.pattern`), never a generic one that may describe another field's form.
 */
function patternRule(pattern: string, def: TextRules, label: string, t: T): FormRule {
  const form = new RegExp(pattern, 'u');
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '' || form.test(String(value))) return;
      throw new Error(schemaMessage(def.patternMessage, currentLanguage()) ?? t('crud.validation.pattern', { field: label }));
    },
  };
}

/**
 * A number outside the field's bounds is refused with its error, in the server's words where
 * the schema gives them (Chinese console) — never moved to the nearest bound, which would save
 * a number nobody typed.
 */
function rangeRule(def: NumberRules, label: string, t: T): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const n = Number(value);
      if (!Number.isFinite(n)) return;
      const lang = currentLanguage();
      if (def.min !== undefined && n < def.min) throw new Error(schemaMessage(def.rangeMessages?.minimum, lang) ?? t('crud.validation.min', { field: label, min: def.min }));
      if (def.max !== undefined && n > def.max) throw new Error(schemaMessage(def.rangeMessages?.maximum, lang) ?? t('crud.validation.max', { field: label, max: def.max }));
    },
  };
}

/** How the stored value maps to the control: switches with declared values, lists kept as joined text. */
function valueMapping(def: FormFieldDef): Pick<FormItemProps, 'getValueProps' | 'normalize' | 'valuePropName'> {
  if (def.kind === 'switch' && def.switchValues) {
    const [on, off] = def.switchValues;
    return { getValueProps: (v: unknown) => ({ checked: v === on }), normalize: (checked: boolean) => (checked ? on : off) };
  }
  if ((def.kind === 'select' || def.kind === 'tags') && def.joinWith) {
    const sep = def.joinWith;
    return {
      getValueProps: (v: unknown) => ({
        value: String(v ?? '')
          .split(sep)
          .map((s) => s.trim())
          .filter(Boolean),
      }),
      normalize: (list: unknown) => (Array.isArray(list) ? list.join(sep) : list),
    };
  }
  return { valuePropName: def.kind === 'switch' ? 'checked' : 'value' };
}

/** A field whose label, placeholder or help follow other values of the form (the channel type). */
function HintedField({ def }: { def: FormFieldDef }) {
  const values = (Form.useWatch([], Form.useFormInstance()) ?? {}) as Record<string, unknown>;
  const hint = def.hints?.find((h) => matches(h.when, values));
  return <PlainField def={hint ? { ...def, ...hint } : def} />;
}

function PlainField({ def }: { def: FormFieldDef }) {
  const t = useLabel();
  const placeholder = def.placeholderKey ? t(def.placeholderKey) : undefined;
  return (
    <Form.Item
      name={def.field}
      label={t(def.labelKey)}
      tooltip={def.helpKey ? t(def.helpKey) : undefined}
      rules={fieldRules(def, t)}
      {...valueMapping(def)}
      validateTrigger={def.kind === 'json' ? 'onBlur' : 'onChange'}
    >
      {inputOf(def, placeholder)}
    </Form.Item>
  );
}

export function FormField({ def }: { def: FormFieldDef }) {
  return def.hints?.length ? <HintedField def={def} /> : <PlainField def={def} />;
}
