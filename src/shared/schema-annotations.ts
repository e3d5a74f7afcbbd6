/**
 * The `x-` annotations of a JSON Schema file (schemas/entities, schemas/options) that no code
 * reads. Each folder has an explicit list of the annotations its readers know; anything else
 * is a fact with no effect (or a misspelling), so it is refused rather than left to mislead.
 */

/** Keywords whose object maps names (of properties, definitions) to schemas. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not a schema: never searched. */
const DATA = new Set(['default', 'enum', 'const', 'examples']);

/** A JSON Pointer segment (RFC 6901). */
function segment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The JSON Pointers (`/properties/key/x-kind`) of every `x-` keyword of `schema` outside
 * `allowed`, at any depth. The values of allowed annotations are not searched: they are the
 * annotation's own data (`x-messages` maps rule keywords to texts).
 */
export function annotationsOutside(schema: unknown, allowed: readonly string[], at = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => annotationsOutside(item, allowed, `${at}/${i}`));
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => {
    const where = `${at}/${segment(key)}`;
    if (key.startsWith('x-')) return allowed.includes(key) ? [] : [where];
    if (DATA.has(key)) return [];
    if (NAME_MAPS.has(key) && typeof value === 'object' && value !== null) {
      return Object.entries(value).flatMap(([name, sub]) => annotationsOutside(sub, allowed, `${where}/${segment(name)}`));
    }
    return annotationsOutside(value, allowed, where);
  });
}
