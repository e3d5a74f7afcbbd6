/**
 * Form constraints read from a record schema (schemas/entities/*.json), so a declaration's
 * limits are the ones the server checks: lengths, bounds, integers, patterns and defaults,
 * with the schema's own messages for them (`x-messages`). Only what the schema states is
 * returned; the declaration adds labels and kinds.
 */
import type { SchemaMessages } from '../schema-messages';
import type { NumberRules, TextRules } from './forms';

interface PropertySchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  'x-messages'?: SchemaMessages;
}

export interface EntitySchema {
  properties: Record<string, PropertySchema>;
}

/** Text rules for text fields, number rules for number fields: a field's kind reads only its own. */
export type SchemaConstraints = TextRules & NumberRules & { default?: unknown };

/** The constraints of `field` in `schema`; unknown fields give none. */
export function constraintsOf(schema: EntitySchema, field: string): SchemaConstraints {
  const p = schema.properties[field];
  if (!p) return {};
  const types = Array.isArray(p.type) ? p.type : [p.type];
  const out: SchemaConstraints = {};
  if (p.minimum !== undefined) out.min = p.minimum;
  if (p.maximum !== undefined && p.maximum < Number.MAX_SAFE_INTEGER) out.max = p.maximum;
  if (p.minLength !== undefined) out.minLength = p.minLength;
  if (p.maxLength !== undefined) out.maxLength = p.maxLength;
  if (p.pattern !== undefined) out.pattern = p.pattern;
  if (types.includes('integer')) out.integer = true;
  if (p.default !== undefined) out.default = p.default;
  const words = p['x-messages'];
  if (words?.minimum !== undefined || words?.maximum !== undefined) out.rangeMessages = { minimum: words.minimum, maximum: words.maximum };
  if (words?.pattern !== undefined) out.patternMessage = words.pattern;
  return out;
}
