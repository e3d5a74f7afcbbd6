/**
 * JSON Schema -> the OpenAPI subset Gemini accepts for function parameters and response
 * schemas. Gemini answers 400 on any field it does not know, so only known fields are kept.
 */
import { type JsonObject, arr, isRecord } from '../common/json';

const KEPT = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'items',
  'minimum',
  'maximum',
]);

/** Gemini's string formats; others are dropped (reference: keep `enum` and `date-time`). */
const STRING_FORMATS = new Set(['enum', 'date-time']);

export function cleanSchema(schema: unknown): JsonObject {
  if (!isRecord(schema)) return {};
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = value;
  }
  // `type: ["string", "null"]` -> `type: "string", nullable: true`.
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    out.type = types[0] ?? 'string';
    if (types.length < schema.type.length) out.nullable = true;
  }
  if (out.type === 'string' && typeof out.format === 'string' && !STRING_FORMATS.has(out.format)) delete out.format;
  // Gemini knows anyOf only; oneOf means the same for generation purposes.
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) out.anyOf = arr(alternatives).map(cleanSchema);
  if (isRecord(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name, cleanSchema(value)]));
  }
  if (schema.items !== undefined) out.items = cleanSchema(schema.items);
  return out;
}
