/** What a declared form shows and sends. Pure, so each rule is unit-tested. */
import type { FormFieldDef, FormMode } from '../../shared/resources/forms';
import { matches } from './conditions';
import { jsonKeyValues, mergeJsonKeys } from './form-json-keys';

type Values = Record<string, unknown>;

export function fieldsFor(fields: FormFieldDef[], mode: FormMode): FormFieldDef[] {
  return fields.filter((f) => !f.modes || f.modes.includes(mode));
}

/** Fields shown for the current values (conditional fields follow `visibleWhen`). */
export function visibleFields(fields: FormFieldDef[], values: Values): FormFieldDef[] {
  return fields.filter((f) => matches(f.visibleWhen, values));
}

/**
 * Edit-mode initial values: the record, plus fields declared to start from another field
 * (a channel's `groups` list from its `group` text).
 */
export function formValuesFromRecord(fields: FormFieldDef[], record: Values | undefined): Values | undefined {
  if (!record) return record;
  const out: Values = { ...record, ...jsonKeyValues(fields, record) };
  for (const f of fields) {
    if (!f.initialFrom) continue;
    const source = record[f.initialFrom.field];
    const sep = f.initialFrom.split;
    out[f.field] = sep
      ? String(source ?? '')
          .split(sep)
          .map((s) => s.trim())
          .filter(Boolean)
      : source;
  }
  return out;
}

/** Create-mode initial values from the declared defaults. */
export function defaultValues(fields: FormFieldDef[]): Values {
  return Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.field, f.default]));
}

/**
 * The body to send: shown, editable fields only; an empty password means "unchanged" and
 * is left out; blank numbers are left out rather than sent as null; a JSON key's field goes
 * into its JSON text (form-json-keys.ts).
 */
export function submittedValues(fields: FormFieldDef[], values: Values): Values {
  const out: Values = {};
  for (const field of visibleFields(fields, values)) {
    if (field.kind === 'readonly') continue;
    const value = values[field.field];
    if (field.kind === 'password' && (value === undefined || value === '')) continue;
    if ((field.kind === 'number' || field.kind === 'quota') && (value === undefined || value === null || value === '')) continue;
    out[field.field] = value === undefined ? '' : value;
  }
  return mergeJsonKeys(fields, out, values);
}
