/**
 * Option values between the wire and a section's form: stored strings decoded by the
 * shared codec into form data, and back into the one `{key, value}` update per changed key
 * that PUT /api/option/ takes. Pure, so the save rules are unit-tested.
 */
import { decodeOption, encodeOption } from '../../shared/options/catalogue';
import type { FieldModel, SectionModel } from './settings-model';

/** One stored option; a secret is kept blank with `is_set` (from GET /api/option/secrets). */
export interface OptionEntry {
  key: string;
  value: string;
  is_set?: boolean;
}

export type FormValues = Record<string, unknown>;

/** A JSON text indented for reading, or the text as it is when it does not parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function formValue(field: FieldModel, entry: OptionEntry | undefined): unknown {
  if (field.secret) return '';
  const decoded = decodeOption(field, entry?.value ?? '');
  const value = decoded.ok ? decoded.value : (decodeOption(field, encodeOption(field, field.schema.default)) as { value: unknown }).value;
  return field.widget === 'json' && typeof value === 'string' ? prettyJson(value) : value;
}

/** The section's form data from the option rows (keys the server lacks take their default). */
export function toFormData(section: SectionModel, entries: Map<string, OptionEntry>): FormValues {
  return Object.fromEntries(section.fields.map((f) => [f.name, formValue(f, entries.get(f.key))]));
}

/** Which secrets of the section hold a value on the server, by field name. */
export function secretsSet(section: SectionModel, entries: Map<string, OptionEntry>): Record<string, boolean> {
  return Object.fromEntries(section.fields.filter((f) => f.secret).map((f) => [f.name, Boolean(entries.get(f.key)?.is_set)]));
}

/** The stored text of a form value; RJSF turns an emptied text input into `undefined`. */
export function encodeField(field: FieldModel, value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = encodeOption(field, value);
  return field.trimTrailingSlash ? text.replace(/\/+$/, '') : text;
}

/**
 * The updates a save sends, in field order: every key whose stored text differs from what
 * was loaded; a secret only when a new value was typed (blank means "keep").
 */
export function changedOptions(section: SectionModel, baseline: FormValues, current: FormValues): Array<{ key: string; value: string }> {
  const changes: Array<{ key: string; value: string }> = [];
  for (const field of section.fields) {
    const now = encodeField(field, current[field.name]);
    if (field.secret ? now === '' : now === encodeField(field, baseline[field.name])) continue;
    changes.push({ key: field.key, value: now });
  }
  return changes;
}

export type Problem = { name: string; kind: 'json' | 'number' };

/** What the JSON Schema cannot say: JSON texts that do not parse (or are empty), numbers left empty. */
export function sectionProblems(section: SectionModel, values: FormValues): Problem[] {
  const problems: Problem[] = [];
  for (const field of section.fields) {
    const value = values[field.name];
    if (field.json && !(typeof value === 'string' && isJson(value))) problems.push({ name: field.name, kind: 'json' });
    const numeric = field.schema.type === 'integer' || field.schema.type === 'number';
    if (numeric && (value === undefined || value === null || value === '')) problems.push({ name: field.name, kind: 'number' });
  }
  return problems;
}

export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
