/**
 * The channel record schema (schemas/entities/channel.json) and the request bodies built
 * from it. The same file feeds the console form, so field rules live there: types, ranges,
 * lengths, and `x-format: json` with the message shown when such a field is not JSON.
 *
 * Bodies are checked by our own Ajv (strict, no coercion, no defaults filled in, so a
 * partial update stays partial); failures reach the /api error handler as Fastify
 * validation errors (HTTP 400).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/** Our annotations on entity schemas; Ajv must know them to stay strict. */
const ENTITY_KEYWORDS = ['x-i18n', 'x-secret', 'x-format', 'x-json-message', 'x-kind', 'x-trim-trailing-slash', 'x-ui'] as const;

type Schema = Record<string, any>;

export interface JsonField {
  field: string;
  message: string;
}

export interface ChannelSchemas {
  entity: Schema;
  /** POST /api/channel/: the record (read-only fields accepted and ignored). */
  createBody: Schema;
  /** PUT /api/channel/: the record with a required id. */
  updateBody: Schema;
  idsBody: Schema;
  batchTagBody: Schema;
  tagEditBody: Schema;
  tagBody: Schema;
  fetchModelsBody: Schema;
  /** Fields stored as JSON text, with the message for text that is not a JSON object. */
  jsonFields: JsonField[];
  compiler: FastifySchemaCompiler<Schema>;
}

const stringOrList = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };

const loaded = new Map<string, ChannelSchemas>();

/** The channel schemas of a schemas folder, read and compiled once per process. */
export function channelSchemas(schemasDir: string): ChannelSchemas {
  let schemas = loaded.get(schemasDir);
  if (!schemas) {
    schemas = loadChannelSchemas(schemasDir);
    loaded.set(schemasDir, schemas);
  }
  return schemas;
}

function loadChannelSchemas(schemasDir: string): ChannelSchemas {
  const entity = JSON.parse(readFileSync(join(schemasDir, 'entities', 'channel.json'), 'utf8')) as Schema;
  const props = entity.properties as Record<string, Schema>;
  const body = (extra: Schema): Schema => ({ type: 'object', additionalProperties: false, ...extra });

  const createBody = body({ properties: props });
  const updateBody = body({ properties: { ...props, id: { type: 'integer', minimum: 1 } }, required: ['id'] });
  const idsBody = body({ properties: { ids: { type: ['array', 'null'], items: { type: 'integer', minimum: 1 }, maxItems: 10000 } } });
  const batchTagBody = body({ properties: { ids: idsBody.properties.ids, tag: { type: ['string', 'null'], maxLength: props.tag!.maxLength } } });
  const nullable = (p: Schema): Schema => ({ ...p, type: [p.type, 'null'].flat() });
  const tagEditBody = body({
    properties: {
      tag: { type: ['string', 'null'] },
      new_tag: { type: ['string', 'null'], maxLength: props.tag!.maxLength },
      model_mapping: props.model_mapping,
      models: stringOrList,
      groups: stringOrList,
      priority: nullable(props.priority!),
      weight: nullable(props.weight!),
    },
  });
  const tagBody = body({ properties: { tag: { type: ['string', 'null'] } } });
  const fetchModelsBody = body({
    properties: { base_url: props.base_url, type: props.type, key: { type: ['string', 'null'] } },
  });

  const jsonFields = Object.entries(props)
    .filter(([, p]) => p['x-format'] === 'json')
    .map(([field, p]) => ({ field, message: String(p['x-json-message'] ?? `${field} 必须是合法的 JSON 格式！`) }));

  const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: false, coerceTypes: false, useDefaults: false });
  ajv.addVocabulary([...ENTITY_KEYWORDS]);
  const cache = new Map<Schema, ValidateFunction>();
  const compiler: FastifySchemaCompiler<Schema> = ({ schema }) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(schema, validate);
    }
    return validate as ReturnType<FastifySchemaCompiler<Schema>>;
  };

  return { entity, createBody, updateBody, idsBody, batchTagBody, tagEditBody, tagBody, fetchModelsBody, jsonFields, compiler };
}
