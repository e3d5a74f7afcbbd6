/**
 * The token record schema (schemas/entities/token.json), read once per schemas folder. The
 * routes check bodies with it; the service checks the names it makes itself (a batch's
 * suffixed names, a trimmed name) with the same limit and message, so the name's length rule
 * is written once, in the schema.
 */
import { schemaMessage } from '../../../shared/schema-messages';
import { fromEntitySchema, type EntitySchema } from '../../plumbing/entity-schema';

export interface TokenSchema {
  entity: EntitySchema;
  /** The name's `maxLength` (characters) and the Chinese message of `x-messages.maxLength`. */
  name: { max: number; tooLong: string };
}

/** The token schema of a schemas folder; a name without its length rule fails at start. */
export const tokenSchema = fromEntitySchema('token', buildTokenSchema);

function buildTokenSchema(entity: EntitySchema): TokenSchema {
  const name = entity.properties.name;
  const max = name?.maxLength;
  const tooLong = schemaMessage(name?.['x-messages']?.maxLength, 'zh');
  if (typeof max !== 'number' || tooLong === undefined) throw new Error('schemas/entities/token.json name: needs maxLength and x-messages.maxLength');
  return { entity, name: { max, tooLong } };
}
