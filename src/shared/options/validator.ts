/**
 * Value checks for the options catalogue: every key's schema (type, enum, bounds, pattern)
 * and, for JSON keys, the shape of the parsed value (`x-json-schema`), compiled once with
 * Ajv in strict mode so a misspelt keyword in a schema file fails at start, not at runtime.
 * Defaults are checked too: a schema whose default breaks its own rules is refused.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { CATALOGUE_KEYWORDS, CatalogueError, decodeOption, type Catalogue, type OptionDef } from './catalogue';

/** Why a value was refused: `json` when the text of a JSON key does not parse. */
export interface OptionProblem {
  kind: 'json' | 'type' | 'schema' | 'shape';
  detail: string;
  /** The failed keyword of a `schema` problem (`pattern`, `maximum`, ...). */
  keyword?: string;
}

/** One readable line from an Ajv error: where, what, and the allowed values when listed. */
function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'is invalid';
  const where = error.instancePath ? `${error.instancePath.slice(1).replace(/\//g, '.')} ` : '';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return `${where}${error.message ?? 'is invalid'}${allowed ? `: ${allowed.join(', ')}` : ''}`;
}

export class OptionValidator {
  readonly #value = new Map<string, ValidateFunction>();
  readonly #shape = new Map<string, ValidateFunction>();

  constructor(catalogue: Catalogue) {
    const ajv = new Ajv({ allErrors: false, strict: true });
    ajv.addVocabulary([...CATALOGUE_KEYWORDS]);
    for (const def of catalogue.keys.values()) {
      const where = `${def.section}.${def.key}`;
      try {
        this.#value.set(def.key, ajv.compile(def.schema));
        const shape = def.schema['x-json-schema'];
        if (shape) this.#shape.set(def.key, ajv.compile(shape));
      } catch (err) {
        throw new CatalogueError(`${where}: ${(err as Error).message}`);
      }
      const problem = this.check(def, def.defaultText);
      if (problem) throw new CatalogueError(`${where}: default ${def.defaultText.slice(0, 80)} ${problem.detail}`);
    }
  }

  /** Why `text` cannot be stored for the key, or undefined when it can. */
  check(def: OptionDef, text: string): OptionProblem | undefined {
    const decoded = decodeOption(def, text);
    if (!decoded.ok) return { kind: def.json ? 'json' : 'type', detail: decoded.reason };
    const value = this.#value.get(def.key);
    if (value && !value(decoded.value)) return { kind: 'schema', detail: describeError(value.errors?.[0]), keyword: value.errors?.[0]?.keyword };
    const shape = this.#shape.get(def.key);
    if (shape && !shape(JSON.parse(text))) return { kind: 'shape', detail: describeError(shape.errors?.[0]) };
    return undefined;
  }
}
