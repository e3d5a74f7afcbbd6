/**
 * The state of one settings section: its values, what was loaded (to send only changes),
 * which secrets are stored, and the save (docs/console.md#settings-pages): validation first (请检查输入), then
 * one PUT /api/option/ per changed key in field order; nothing changed warns
 * (你似乎并没有修改什么); a partial failure says so (部分保存失败，请重试) beside each
 * server message.
 */
import type { ErrorSchema, FormValidation, RJSFValidationError } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../use-translation';
import { schemaMessage } from '../../shared/schema-messages';
import { currentLanguage } from '../i18n';
import { api } from '../state/wire';
import { changedOptions, encodeField, secretsSet as storedSecrets, sectionProblems, toFormData, type FormValues, type OptionEntry } from './form-values';
import type { SectionModel } from './settings-model';
import { useApp } from '../state/feedback-app';

export interface SectionForm {
  values: FormValues;
  secretsSet: Record<string, boolean>;
  errors: ErrorSchema<FormValues> | undefined;
  saving: boolean;
  /** Replaces the values (RJSF's onChange). */
  setValues: (values: FormValues) => void;
  /** Sets some values by field name. */
  patch: (values: FormValues) => void;
  save: () => Promise<void>;
  customValidate: (data: FormValues | undefined, errors: FormValidation<FormValues>) => FormValidation<FormValues>;
  transformErrors: (errors: RJSFValidationError[]) => RJSFValidationError[];
}

const LIMIT_ERRORS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'maxLength']);

export function useSectionForm(section: SectionModel, entries: Map<string, OptionEntry>, onSaved: (rows: OptionEntry[]) => void): SectionForm {
  const { t } = useTranslation();
  const { message } = useApp();
  const [baseline, setBaseline] = useState(() => toFormData(section, entries));
  const [values, setValuesState] = useState(baseline);
  const [secretsSet, setSecretsSet] = useState(() => storedSecrets(section, entries));
  const [errors, setErrors] = useState<ErrorSchema<FormValues>>();
  const [saving, setSaving] = useState(false);

  const setValues = useCallback((next: FormValues) => {
    setValuesState(next);
    setErrors(undefined);
  }, []);
  const patch = useCallback((more: FormValues) => setValues({ ...values, ...more }), [setValues, values]);

  const customValidate = useCallback(
    (data: FormValues | undefined, found: FormValidation<FormValues>) => {
      for (const problem of sectionProblems(section, data ?? {})) {
        const field = section.fields.find((f) => f.name === problem.name)!;
        const text = problem.kind === 'json' ? t('settings.jsonInvalid', { title: field.title }) : t('settings.errors.number');
        (found as Record<string, FormValidation<FormValues>>)[problem.name]?.addError(text);
      }
      return found;
    },
    [section, t],
  );

  const transformErrors = useCallback(
    (list: RJSFValidationError[]) =>
      list.map((e) => {
        // The key's own words for the rule (`x-messages`), else the generic text of the rule.
        const field = section.fields.find((f) => `.${f.name}` === e.property);
        const own = e.name ? schemaMessage(field?.schema['x-messages']?.[e.name], currentLanguage()) : undefined;
        if (own) return { ...e, message: own };
        if (e.name === 'pattern') return { ...e, message: t('settings.errors.pattern') };
        if (e.name && LIMIT_ERRORS.has(e.name)) return { ...e, message: t(`settings.errors.${e.name}`, { limit: e.params?.limit }) };
        return { ...e, message: t('settings.errors.invalid') };
      }),
    [section, t],
  );

  const validation = useMemo(() => ({ customValidate, transformErrors }), [customValidate, transformErrors]);

  const save = useCallback(async () => {
    const checked = validator.validateFormData(values, section.schema, validation.customValidate, validation.transformErrors);
    if (checked.errors.length > 0) {
      setErrors(checked.errorSchema);
      void message.error(t('settings.checkInput'));
      return;
    }
    const changes = changedOptions(section, baseline, values);
    if (changes.length === 0) {
      void message.warning(t('settings.noChange'));
      return;
    }
    setSaving(true);
    const saved: OptionEntry[] = [];
    const failures: string[] = [];
    for (const change of changes) {
      try {
        await api.request('put', '/api/option/', { body: change });
        saved.push(change);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    setSaving(false);
    const savedKeys = new Set(saved.map((s) => s.key));
    const savedFields = section.fields.filter((f) => savedKeys.has(f.key));
    // What was stored becomes the new baseline; secrets go blank again, now marked as set.
    const stored = Object.fromEntries(savedFields.map((f) => [f.name, f.secret ? '' : f.trimTrailingSlash ? encodeField(f, values[f.name]) || undefined : values[f.name]]));
    setBaseline((b) => ({ ...b, ...stored }));
    setValuesState((v) => ({ ...v, ...stored }));
    setSecretsSet((s) => ({ ...s, ...Object.fromEntries(savedFields.filter((f) => f.secret).map((f) => [f.name, true])) }));
    onSaved(saved.map((s) => (section.fields.find((f) => f.key === s.key)?.secret ? { key: s.key, value: '', is_set: true } : s)));
    for (const text of new Set(failures)) void message.error(text);
    if (failures.length === 0) void message.success(t('settings.saved'));
    else if (saved.length > 0) void message.error(t('settings.partialFailure'));
    else void message.error(t('settings.saveFailed'));
  }, [values, baseline, section, validation, message, t, onSaved]);

  return { values, secretsSet, errors, saving, setValues, patch, save, customValidate, transformErrors };
}
