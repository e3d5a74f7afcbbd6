/**
 * Form fields that edit one key of a JSON text field (`jsonKeyOf`): a channel's proxy is the
 * `proxy` of its `setting` JSON. The key's field starts from the text, and each side follows
 * the other while the user types, so the text that is sent always holds what the field shows.
 * Pure, so each rule is unit-tested.
 */
import type { FormFieldDef } from '../../shared/resources/forms';

type Values = Record<string, unknown>;

function parseObject(text: unknown): Record<string, unknown> | undefined {
  if (text === undefined || text === null || (typeof text === 'string' && text.trim() === '')) return {};
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The key's value in the JSON text, as the field shows it ('' when absent); undefined when the text is not a JSON object. */
export function readJsonKey(text: unknown, key: string): string | undefined {
  const object = parseObject(text);
  if (!object) return undefined;
  const value = object[key];
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The JSON text with the key set to `value` (removed when empty); the text itself when it
 * already says so (its layout kept); undefined when it is not a JSON object.
 */
export function writeJsonKey(text: unknown, key: string, value: unknown): string | undefined {
  const object = parseObject(text);
  if (!object) return undefined;
  const wanted = typeof value === 'string' ? value.trim() : '';
  if (readJsonKey(text, key) === wanted) return typeof text === 'string' ? text : '';
  const next = { ...object };
  if (wanted === '') delete next[key];
  else next[key] = wanted;
  return Object.keys(next).length === 0 ? '' : JSON.stringify(next);
}

/** Record values → the key fields' initial values (edit mode). */
export function jsonKeyValues(fields: FormFieldDef[], record: Values): Values {
  const out: Values = {};
  for (const f of fields) if (f.jsonKeyOf) out[f.field] = readJsonKey(record[f.jsonKeyOf.field], f.jsonKeyOf.key) ?? '';
  return out;
}

/** After a change: the other side's new value (the text, or the key's field), or undefined when nothing follows. */
export function followJsonKeys(fields: FormFieldDef[], changed: Values, all: Values): Values | undefined {
  const patch: Values = {};
  for (const f of fields) {
    if (!f.jsonKeyOf) continue;
    const { field: textField, key } = f.jsonKeyOf;
    if (f.field in changed) {
      const text = writeJsonKey(all[textField], key, changed[f.field]);
      if (text !== undefined && text !== all[textField]) patch[textField] = text;
    } else if (textField in changed) {
      const value = readJsonKey(changed[textField], key);
      if (value !== undefined && value !== (all[f.field] ?? '')) patch[f.field] = value;
    }
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** The body to send: key fields are not sent themselves but written into their text. */
export function mergeJsonKeys(fields: FormFieldDef[], body: Values, all: Values): Values {
  const out = { ...body };
  for (const f of fields) {
    if (!f.jsonKeyOf) continue;
    delete out[f.field];
    const { field: textField, key } = f.jsonKeyOf;
    if (!(textField in out)) continue;
    const text = writeJsonKey(out[textField], key, all[f.field]);
    if (text !== undefined) out[textField] = text;
  }
  return out;
}
