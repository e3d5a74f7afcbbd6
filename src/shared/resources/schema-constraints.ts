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

/** What a text field takes from its schema: lengths and pattern (with the pattern's message), and the default. */
export type TextConstraints = TextRules & { default?: unknown };

/** What a number or quota field takes from its schema: bounds (with their messages), whole numbers, and the default. */
export type NumberConstraints = NumberRules & { default?: unknown };

/**
 * The text rules of `field` in `schema`; unknown fields give none. Only a text kind's rules,
 * so spread into a number field they do not compile (forms.ts marks the other kind's rules).
 */
export function textConstraintsOf(schema: EntitySchema, field: string): TextConstraints {
  const p = schema.properties[field];
  if (!p) return {};
  const out: TextConstraints = {};
  if (p.minLength !== undefined) out.minLength = p.minLength;
  if (p.maxLength !== undefined) out.maxLength = p.maxLength;
  if (p.pattern !== undefined) out.pattern = p.pattern;
  if (p.default !== undefined) out.default = p.default;
  const words = p['x-messages'];
  if (words?.pattern !== undefined) out.patternMessage = words.pattern;
  return out;
}

/** The number rules of `field` in `schema`; unknown fields give none. Only a number kind's rules (see above). */
export function numberConstraintsOf(schema: EntitySchema, field: string): NumberConstraints {
  const p = schema.properties[field];
  if (!p) return {};
  const types = Array.isArray(p.type) ? p.type : [p.type];
  const out: NumberConstraints = {};
  if (p.minimum !== undefined) out.min = p.minimum;
  // A bound of 2^53 − 1 (a bigint column) is no limit a form shows.
  if (p.maximum !== undefined && p.maximum < Number.MAX_SAFE_INTEGER) out.max = p.maximum;
  if (types.includes('integer')) out.integer = true;
  if (p.default !== undefined) out.default = p.default;
  const words = p['x-messages'];
  if (words?.minimum !== undefined || words?.maximum !== undefined) out.rangeMessages = { minimum: words.minimum, maximum: words.maximum };
  return out;
}
