/**
 * One home per field fact (issue #20): a schema file carries only the `x-` annotations some
 * code reads. Record schemas (schemas/entities) own validation and its messages, the
 * declarations in resources/ own presentation; the options catalogue (schemas/options) has
 * its own, larger vocabulary. Anything else is refused, named by file and JSON Pointer.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTITY_KEYWORDS, loadEntitySchema } from '../../src/server/plumbing/entity-schema';
import { CATALOGUE_KEYWORDS } from '../../src/shared/options/catalogue';
import { annotationsOutside } from '../../src/shared/schema-annotations';
import { TOKEN_STATUS } from '../../src/shared/token-status';

const SCHEMAS = join(import.meta.dirname, '../../schemas');

/** Every schema file of a folder, parsed, named `schemas/<dir>/<file>`. */
function schemaFiles(dir: 'entities' | 'options'): [string, unknown][] {
  return readdirSync(join(SCHEMAS, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [`schemas/${dir}/${f}`, JSON.parse(readFileSync(join(SCHEMAS, dir, f), 'utf8')) as unknown]);
}

/** `<file>#<pointer>` of every annotation outside `allowed`. */
function unknownAnnotations(dir: 'entities' | 'options', allowed: readonly string[]): string[] {
  return schemaFiles(dir).flatMap(([file, schema]) => annotationsOutside(schema, allowed).map((pointer) => `${file}#${pointer}`));
}

describe('schema annotations', () => {
  it('allows in record schemas only the annotations the server reads', () => {
    expect(schemaFiles('entities').length).toBeGreaterThanOrEqual(3);
    expect(unknownAnnotations('entities', ENTITY_KEYWORDS)).toEqual([]);
  });

  it('keeps no allowed record annotation that no schema uses', () => {
    const text = schemaFiles('entities')
      .map(([, schema]) => JSON.stringify(schema))
      .join('\n');
    for (const keyword of ENTITY_KEYWORDS) expect(text, keyword).toContain(`"${keyword}"`);
  });

  it('allows in the options catalogue only its own vocabulary', () => {
    expect(schemaFiles('options').length).toBeGreaterThan(10);
    expect(unknownAnnotations('options', CATALOGUE_KEYWORDS)).toEqual([]);
  });

  it('names each unknown annotation by its JSON Pointer, at any depth', () => {
    const schema = {
      'x-tab': 'other',
      properties: {
        'a/b': { type: 'string', 'x-kind': 'status', 'x-messages': { 'x-not-a-keyword': 'data' } },
        list: { type: 'array', items: { type: 'string', 'x-ui': { widget: 'json' } }, default: [{ 'x-data': 1 }] },
        // A field may be named like an annotation: names are not keywords.
        'x-field': { type: 'integer', anyOf: [{ minimum: 0, 'x-enum-labels': {} }] },
      },
    };
    expect(annotationsOutside(schema, ENTITY_KEYWORDS)).toEqual(['/x-tab', '/properties/a~1b/x-kind', '/properties/list/items/x-ui', '/properties/x-field/anyOf/0/x-enum-labels']);
  });

  it('refuses a record schema with an unknown annotation at start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
    mkdirSync(join(dir, 'entities'));
    const schema = { $id: 'thing', type: 'object', properties: { name: { type: 'string', 'x-ui': { widget: 'textarea' } } } };
    writeFileSync(join(dir, 'entities', 'thing.json'), JSON.stringify(schema));
    expect(() => loadEntitySchema(dir, 'thing')).toThrow('schemas/entities/thing.json: annotations no code reads: /properties/name/x-ui');
  });
});

describe('named values of record schemas', () => {
  it('lists in the token status enum exactly the named token statuses', () => {
    const token = JSON.parse(readFileSync(join(SCHEMAS, 'entities', 'token.json'), 'utf8')) as { properties: { status: { enum: number[] } } };
    expect(token.properties.status.enum).toEqual(Object.values(TOKEN_STATUS));
  });
});
