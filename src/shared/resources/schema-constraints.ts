/**
 * Form constraints read from a record schema (schemas/entities/*.json), so a declaration's
 * limits are the ones the server checks: lengths, bounds, integers and defaults. Only what
 * the schema states is returned; the declaration adds labels, kinds and messages.
 */
import type { FormFieldDef } from './definition';

interface PropertySchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  'x-messages'?: Record<string, string>;
}

export interface EntitySchema {
  properties: Record<string, PropertySchema>;
}

export type SchemaConstraints = Pick<FormFieldDef, 'min' | 'max' | 'rangeMessages' | 'minLength' | 'maxLength' | 'integer' | 'default'>;

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
  if (types.includes('integer')) out.integer = true;
  if (p.default !== undefined) out.default = p.default;
  const words = p['x-messages'];
  if (words?.minimum !== undefined || words?.maximum !== undefined) out.rangeMessages = { minimum: words.minimum, maximum: words.maximum };
  return out;
}
