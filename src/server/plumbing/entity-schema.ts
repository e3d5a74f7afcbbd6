/**
 * Record schemas (schemas/entities/<name>.json): the fields of one resource with their types
 * and constraints. The console renders its forms from them; the server checks request bodies
 * with them here, so a rule is written once.
 *
 * Annotations the server reads:
 * - `readOnly`: shown, never written; the console sends whole records back, so such fields
 *   are accepted and ignored (unless a body names them in `keep`, like `id` of an update).
 * - `x-create-only`: written on create only (ignored on update).
 * - `x-messages`: keyword → the product's message for a failed constraint (`maxLength` →
 *   `令牌名称过长`; a `{zh, en}` pair for our own rules, see shared/schema-messages.ts). Such
 *   failures answer `{success:false, message, errors:{field}}`: 200 like any business rule of
 *   the reference, but 400 for a value of the wrong form (`pattern`, `format`: the reference
 *   has no such rule to stay compatible with). Failures without a message are malformed
 *   requests (400) with the validator's words.
 * Fields the schema does not know are dropped, never stored (plumbing/request-bodies.ts).
 * A schema holds validation and its messages only; what the console shows (labels, widgets,
 * presets) is declared in resources/. Other `x-` annotations are refused (`ENTITY_KEYWORDS`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { annotationsOutside } from '../../shared/schema-annotations';
import { FORMAT_KEYWORDS, messagesProblem, schemaMessage, type SchemaMessages } from '../../shared/schema-messages';
import { AppError, MSG } from '../errors';
import { BODY_VALIDATION_OPTIONS } from './request-bodies';

/**
 * The `x-` annotations a record schema may carry, each read by code: `x-create-only` and
 * `x-messages` here, `x-format: json` with its `x-json-message` by
 * services/channels/channel.schema.ts. Any other fails at start (and in
 * tests/unit/schema-keywords.test.ts).
 */
export const ENTITY_KEYWORDS = ['x-create-only', 'x-messages', 'x-format', 'x-json-message'] as const;

export interface EntityProperty {
  type: string | string[];
  readOnly?: boolean;
  'x-create-only'?: boolean;
  'x-messages'?: SchemaMessages;
  [keyword: string]: unknown;
}

export interface EntitySchema {
  $id: string;
  type: 'object';
  properties: Record<string, EntityProperty>;
  [keyword: string]: unknown;
}

// Strict: a misspelt standard keyword in a schema file fails at start. The `x-` annotations
// are data for the console and this module; they are removed before compiling. Bodies are
// read by the one rule of every request body: unknown fields dropped, known ones checked.
const ajv = new Ajv({ ...BODY_VALIDATION_OPTIONS, strict: true, strictTypes: false });

/** A schema without its `x-` annotations, at every depth. */
function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith('x-'))
      .map(([k, v]) => [k, withoutAnnotations(v)]),
  );
}

/**
 * Reads one record schema; an unknown `x-` annotation or a broken `x-messages` fails at start,
 * not on the first bad body.
 */
export function loadEntitySchema(schemasDir: string, name: string): EntitySchema {
  const schema = JSON.parse(readFileSync(join(schemasDir, 'entities', `${name}.json`), 'utf8')) as EntitySchema;
  const unknown = annotationsOutside(schema, ENTITY_KEYWORDS);
  if (unknown.length > 0) throw new Error(`schemas/entities/${name}.json: annotations no code reads: ${unknown.join(', ')}`);
  for (const [field, prop] of Object.entries(schema.properties)) {
    const problem = messagesProblem(prop['x-messages']);
    if (problem) throw new Error(`schemas/entities/${name}.json ${field}: ${problem}`);
  }
  return schema;
}

/**
 * `build` over one record schema, run once per schemas folder (a process has one; tests start
 * apps on several), so the routes and services reading the same schema share what it gives.
 */
export function fromEntitySchema<T>(name: string, build: (schema: EntitySchema) => T): (schemasDir: string) => T {
  const built = new Map<string, T>();
  return (schemasDir) => {
    if (!built.has(schemasDir)) built.set(schemasDir, build(loadEntitySchema(schemasDir, name)));
    return built.get(schemasDir)!;
  };
}

export interface BodyShape {
  mode: 'create' | 'update';
  /** readOnly fields this body does carry (e.g. `id` of an update). */
  keep?: string[];
  /** Fields that must be present. */
  required?: string[];
  /** Only these fields (e.g. `id` and `status` of a status change); default every field. */
  only?: string[];
}

/** A body checker, with the JSON Schema it checks with (the route declares it for /api/openapi.json). */
export interface BodyChecker<T> {
  (body: unknown): T;
  jsonSchema: Record<string, unknown>;
}

/** The body of a status change (an update with `?status_only=`): `id` and `status`, both required. */
export function statusBodyValidator(schema: EntitySchema): BodyChecker<{ id: number; status: number }> {
  return bodyValidator(schema, { mode: 'update', only: ['id', 'status'], keep: ['id', 'status'], required: ['id', 'status'] });
}

/** Compiles a checker for one kind of body; it answers the body without ignored and unknown fields. */
export function bodyValidator<T>(schema: EntitySchema, shape: BodyShape): BodyChecker<T> {
  const keep = new Set(shape.keep ?? []);
  const accepted: Record<string, EntityProperty> = {};
  const ignored = new Set<string>();
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (shape.only && !shape.only.includes(name)) {
      ignored.add(name);
      continue;
    }
    const skip = (prop.readOnly && !keep.has(name)) || (prop['x-create-only'] && shape.mode === 'update');
    if (skip) ignored.add(name);
    else accepted[name] = withSafeIntegerBounds(stripReadOnly(prop));
  }
  const jsonSchema = {
    type: 'object',
    properties: withoutAnnotations(accepted) as Record<string, unknown>,
    required: shape.required ?? [],
    additionalProperties: false,
  };
  const validate: ValidateFunction = ajv.compile(jsonSchema);
  const check = (body: unknown): T => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError(MSG.invalidParams, 400);
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) if (!ignored.has(name)) kept[name] = value;
    if (!validate(kept)) throw refusal(validate.errors?.[0], accepted);
    return kept as T;
  };
  return Object.assign(check, { jsonSchema });
}

/**
 * An integer field without bounds of its own gets ±(2^53 − 1): beyond that a JSON number is
 * no longer exact, and 2^63 does not fit a bigint column (the write would fail with a 500).
 * Fields of integer (32-bit) columns declare their own narrower bounds in the schema file.
 */
function withSafeIntegerBounds(prop: EntityProperty): EntityProperty {
  const types = Array.isArray(prop.type) ? prop.type : [prop.type];
  if (!types.includes('integer')) return prop;
  return { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...prop };
}

/** A kept readOnly field (an id) is validated like any other. */
function stripReadOnly(prop: EntityProperty): EntityProperty {
  if (!prop.readOnly) return prop;
  const { readOnly: _readOnly, ...rest } = prop;
  return rest as EntityProperty;
}

function refusal(error: ErrorObject | undefined, props: Record<string, EntityProperty>): AppError {
  if (!error) return new AppError(MSG.invalidParams, 400);
  const params = error.params as { missingProperty?: string };
  const field = params.missingProperty ?? error.instancePath.split('/')[1] ?? '';
  const message = schemaMessage(props[field]?.['x-messages']?.[error.keyword], 'zh');
  if (message) return new AppError(message, FORMAT_KEYWORDS.has(error.keyword) ? 400 : 200, { [field]: message });
  return new AppError(`${MSG.invalidParams}: ${field} ${error.message ?? 'is invalid'}`, 400);
}
