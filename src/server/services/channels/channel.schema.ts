/**
 * The channel record schema (schemas/entities/channel.json) and the checkers of every
 * channel request body, built with the shared entity-schema validator. The same file feeds
 * the console form, so field rules live there: types, ranges, lengths, and `x-format: json`
 * with the message (`x-json-message`) for such a field that is not a JSON object.
 */
import { bodyValidator, fromEntitySchema, type BodyChecker, type EntityProperty, type EntitySchema } from '../../plumbing/entity-schema';

export interface JsonField {
  field: string;
  message: string;
}

/** The writable fields of a channel body (read-only ones may be present and are ignored). */
export interface ChannelBody {
  id?: number;
  name?: string;
  type?: number;
  key?: string;
  openai_organization?: string | null;
  max_input_tokens?: number;
  base_url?: string | null;
  other?: string | null;
  model_mapping?: string | null;
  status_code_mapping?: string | null;
  models?: string;
  group?: string;
  groups?: string[];
  auto_ban?: number;
  test_model?: string | null;
  priority?: number;
  weight?: number;
  tag?: string | null;
  setting?: string | null;
  param_override?: string | null;
  status?: number;
  other_info?: string | null;
}

export interface TagEditBody {
  tag?: string | null;
  new_tag?: string | null;
  model_mapping?: string | null;
  models?: string | string[];
  groups?: string | string[];
  priority?: number | null;
  weight?: number | null;
}

export interface FetchModelsBody {
  base_url?: string | null;
  type?: number;
  key?: string | null;
  /** The form's setting text: its proxy is used for the call. */
  setting?: string | null;
}

export interface ChannelSchemas {
  entity: EntitySchema;
  /** POST /api/channel/: the record; read-only fields are ignored except `id` (a copy's source). */
  create: BodyChecker<ChannelBody>;
  /** PUT /api/channel/: the record with a required id; absent fields stay unchanged. */
  update: BodyChecker<ChannelBody & { id: number }>;
  ids: BodyChecker<{ ids?: number[] | null }>;
  batchTag: BodyChecker<{ ids?: number[] | null; tag?: string | null }>;
  tagEdit: BodyChecker<TagEditBody>;
  tag: BodyChecker<{ tag?: string | null }>;
  fetchModels: BodyChecker<FetchModelsBody>;
  /** Fields stored as JSON text, with the message for text that is not a JSON object. */
  jsonFields: JsonField[];
}

const stringOrList: EntityProperty = { type: ['string', 'array'], items: { type: 'string' } };

/** A small request body that is not the record itself, checked the same way. */
function requestBody<T>(id: string, properties: Record<string, EntityProperty>): BodyChecker<T> {
  return bodyValidator<T>({ $id: id, type: 'object', properties }, { mode: 'update' });
}

/** The channel schemas of a schemas folder, read and compiled once per process. */
export const channelSchemas = fromEntitySchema('channel', buildChannelSchemas);

function buildChannelSchemas(entity: EntitySchema): ChannelSchemas {
  const props = entity.properties;
  // A tag edit leaves absent (or null) priority and weight alone: no default may fill them in.
  const nullable = ({ default: _default, ...p }: EntityProperty): EntityProperty => ({ ...p, type: [p.type, 'null'].flat() });
  // Channel ids are an integer column: larger numbers are refused rather than sent to the database.
  const ids: EntityProperty = { type: ['array', 'null'], items: { type: 'integer', minimum: 1, maximum: 2147483647 }, maxItems: 10000 };
  const tagName: EntityProperty = { type: ['string', 'null'], maxLength: props.tag!.maxLength };

  return {
    entity,
    create: bodyValidator<ChannelBody>(entity, { mode: 'create', keep: ['id'] }),
    update: bodyValidator<ChannelBody & { id: number }>(entity, { mode: 'update', keep: ['id'], required: ['id'] }),
    ids: requestBody('channel-ids', { ids }),
    batchTag: requestBody('channel-batch-tag', { ids, tag: tagName }),
    tagEdit: requestBody('channel-tag-edit', {
      tag: { type: ['string', 'null'] },
      new_tag: tagName,
      model_mapping: props.model_mapping!,
      models: stringOrList,
      groups: stringOrList,
      priority: nullable(props.priority!),
      weight: nullable(props.weight!),
    }),
    tag: requestBody('channel-tag', { tag: { type: ['string', 'null'] } }),
    fetchModels: requestBody('channel-fetch-models', { base_url: props.base_url!, type: props.type!, key: { type: ['string', 'null'] }, setting: { type: ['string', 'null'] } }),
    jsonFields: Object.entries(props)
      .filter(([, p]) => p['x-format'] === 'json')
      .map(([field, p]) => ({ field, message: String(p['x-json-message'] ?? `${field} 必须是合法的 JSON 格式！`) })),
  };
}
