/**
 * The OpenAPI document of /api/openapi.json as the reference page shows it: operations grouped
 * by tag, each with its parameters and the fields of its JSON body, flattened to rows.
 */

export interface FieldRow {
  name: string;
  /** `query`, `path` or `body`. */
  in: string;
  type: string;
  required: boolean;
  description: string;
  /** Limits in short text: `≤ 30 chars`, `0..100`, `one of a, b`. */
  constraints: string;
}

export interface OperationView {
  key: string;
  method: string;
  path: string;
  fields: FieldRow[];
  /** Several accepted bodies (`anyOf`): each one's field rows, in order. */
  alternatives: FieldRow[][];
}

export interface TagView {
  tag: string;
  operations: OperationView[];
}

type Schema = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;

function typeOf(schema: Schema | undefined): string {
  const type = schema?.type;
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') return type === 'array' && schema?.items ? `${typeOf(schema.items as Schema)}[]` : type;
  return 'any';
}

function constraintsOf(schema: Schema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  const { minimum, maximum, minLength, maxLength, maxItems, pattern } = schema as Record<string, number | string | undefined>;
  if (minimum !== undefined || maximum !== undefined) parts.push(`${minimum ?? ''}..${maximum ?? ''}`);
  if (minLength !== undefined) parts.push(`≥ ${minLength} chars`);
  if (maxLength !== undefined) parts.push(`≤ ${maxLength} chars`);
  if (maxItems !== undefined) parts.push(`≤ ${maxItems} items`);
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map(String).join(', ')}`);
  if (typeof pattern === 'string') parts.push(`pattern ${pattern}`);
  return parts.join('; ');
}

function bodyRows(schema: Schema | undefined): FieldRow[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    in: 'body',
    type: typeOf(prop),
    required: required.has(name),
    description: String(prop.description ?? prop.title ?? ''),
    constraints: constraintsOf(prop),
  }));
}

function operationView(method: string, path: string, operation: Schema): OperationView {
  const parameters = (operation.parameters as Array<Schema> | undefined) ?? [];
  const fields: FieldRow[] = parameters.map((p) => ({
    name: String(p.name),
    in: String(p.in),
    type: typeOf(p.schema as Schema),
    required: Boolean(p.required),
    description: String(p.description ?? (p.schema as Schema | undefined)?.description ?? ''),
    constraints: constraintsOf(p.schema as Schema),
  }));
  const content = (operation.requestBody as Schema | undefined)?.content as Record<string, { schema?: Schema }> | undefined;
  const body = content?.['application/json']?.schema;
  const alternatives = Array.isArray(body?.anyOf) ? (body.anyOf as Schema[]).map(bodyRows) : [];
  return { key: `${method} ${path}`, method: method.toUpperCase(), path, fields: [...fields, ...(alternatives.length ? [] : bodyRows(body))], alternatives };
}

/** The document's operations by tag (tags and paths sorted), for the reference page. */
export function groupOperations(doc: unknown): TagView[] {
  const paths = ((doc as Schema | undefined)?.paths ?? {}) as Record<string, Record<string, Schema>>;
  const byTag = new Map<string, OperationView[]>();
  for (const path of Object.keys(paths).sort()) {
    for (const method of METHODS) {
      const operation = paths[path]![method];
      if (!operation) continue;
      const tag = ((operation.tags as string[] | undefined) ?? [])[0] ?? 'api';
      const list = byTag.get(tag) ?? [];
      list.push(operationView(method, path, operation));
      byTag.set(tag, list);
    }
  }
  return [...byTag.keys()].sort().map((tag) => ({ tag, operations: byTag.get(tag)! }));
}
