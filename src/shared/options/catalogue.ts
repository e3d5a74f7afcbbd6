/**
 * The options catalogue: one JSON Schema file per settings section in schemas/options/,
 * each property one option key. This pure builder turns those files into the catalogue
 * both sides use: the server to seed defaults, validate writes and publish /api/status,
 * the console to render the settings tabs. Adding a key means editing one schema file.
 */
import { messagesProblem, type SchemaMessages } from '../schema-messages';

export type OptionType = 'string' | 'boolean' | 'integer' | 'number';
export type SettingsTab = 'operation' | 'ratelimit' | 'models' | 'system' | 'other';
export const SETTINGS_TABS: readonly SettingsTab[] = ['operation', 'ratelimit', 'models', 'system', 'other'];

export interface LocalizedText {
  title?: string;
  description?: string;
  /** Labels of the `enum` values, in the same order. */
  enumNames?: string[];
}

/** One option key as written in a schema file. */
export interface OptionProperty {
  type: OptionType;
  default: string | number | boolean;
  title: string;
  description?: string;
  enum?: Array<string | number>;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  pattern?: string;
  /** Chinese (and any further) titles and descriptions; `title` itself is English. */
  'x-i18n'?: Record<string, LocalizedText>;
  /** Published in /api/status under this name. */
  'x-public'?: string;
  /** Stored, never returned by GET /api/option (only whether it is set). */
  'x-secret'?: boolean;
  /** Needs the root role (100) to change; admins change the rest. */
  'x-root'?: boolean;
  /** `json`: a JSON text validated on write; `lines`: one entry per line. */
  'x-format'?: 'json' | 'lines';
  /** Shape the parsed JSON value must have (for `x-format: json`). */
  'x-json-schema'?: Record<string, unknown>;
  /**
   * Turning this boolean on (or, for a string key, setting it non-empty) is refused while
   * the key `key` is empty, with `message`.
   */
  'x-requires'?: { key: string; message: string };
  /** Trailing slashes are removed before the value is stored (addresses). */
  'x-trim-trailing-slash'?: boolean;
  /** Keyword → this key's message when that rule fails (`pattern`), see shared/schema-messages.ts. */
  'x-messages'?: SchemaMessages;
  /** Rendering hints for the console (widget name and options); never behaviour. */
  'x-ui'?: Record<string, unknown>;
}

/** One schema file: one settings section. */
export interface OptionSection {
  $id: string;
  title: string;
  description?: string;
  type: 'object';
  'x-i18n'?: Record<string, LocalizedText>;
  'x-tab': SettingsTab;
  /** Order of the section inside its tab. */
  'x-order'?: number;
  /** Every key of the section needs root. */
  'x-root'?: boolean;
  /** Rendering hints for the whole section (sub-tabs, actions); never behaviour. */
  'x-ui'?: Record<string, unknown>;
  properties: Record<string, OptionProperty>;
}

export interface OptionDef {
  key: string;
  section: string;
  tab: SettingsTab;
  schema: OptionProperty;
  root: boolean;
  secret: boolean;
  json: boolean;
  publicName?: string;
  /** The default as it is stored (a string). */
  defaultText: string;
}

export interface Catalogue {
  sections: OptionSection[];
  keys: Map<string, OptionDef>;
}

export class CatalogueError extends Error {}

const TYPES: readonly OptionType[] = ['string', 'boolean', 'integer', 'number'];

/** Encodes a typed value the way the options table stores it (booleans as `true`/`false`). */
export function encodeOption(def: Pick<OptionDef, 'schema'>, value: unknown): string {
  if (typeof value === 'string') return value;
  if (def.schema['x-format'] === 'json') return JSON.stringify(value);
  return String(value);
}

export type Decoded = { ok: true; value: string | number | boolean } | { ok: false; reason: string };

const PLAIN_INTEGER = /^-?\d+$/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Decodes a stored string into the key's type; fails on anything that is not that type.
 * Integer keys take plain decimal integers within ±(2^53 − 1) (then the key's own
 * minimum/maximum); number keys take finite decimal numbers.
 */
export function decodeOption(def: Pick<OptionDef, 'schema'>, text: string): Decoded {
  switch (def.schema.type) {
    case 'boolean':
      if (text === 'true') return { ok: true, value: true };
      if (text === 'false') return { ok: true, value: false };
      return { ok: false, reason: 'must be true or false' };
    case 'integer': {
      // Plain decimal digits only: Number() would also read '0x10', '1e3', ' 5' and
      // '9223372036854775807' (not exact in a double, and past what a bigint column holds).
      if (!PLAIN_INTEGER.test(text)) return { ok: false, reason: 'must be an integer written in decimal digits' };
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return { ok: false, reason: `must be an integer between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` };
      return { ok: true, value: n };
    }
    case 'number': {
      // Decimal notation (an exponent allowed, as String() of a number may write one); no
      // hexadecimal, blanks, Infinity, or magnitudes beyond a double.
      const n = PLAIN_NUMBER.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) return { ok: false, reason: 'must be a number written in decimal' };
      return { ok: true, value: n };
    }
    case 'string':
      if (def.schema['x-format'] === 'json') {
        try {
          JSON.parse(text);
        } catch {
          return { ok: false, reason: 'invalid JSON' };
        }
      }
      return { ok: true, value: text };
  }
}

/** The value /api/status publishes: typed, and JSON options parsed. */
export function publicValue(def: OptionDef, text: string): unknown {
  const decoded = decodeOption(def, text);
  const fallback = decodeOption(def, def.defaultText);
  const v = decoded.ok ? decoded.value : fallback.ok ? fallback.value : undefined;
  if (def.json && typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v;
}

/** Title of a key in a language, falling back to the English `title`. */
export function optionTitle(schema: { title: string; 'x-i18n'?: Record<string, LocalizedText> }, lang: string): string {
  return schema['x-i18n']?.[lang]?.title ?? schema.title;
}

/** Annotations that only make sense on some types, and enum labels that match the enum. */
function checkAnnotations(where: string, schema: OptionProperty): void {
  const isString = schema.type === 'string';
  if (schema['x-format'] && !isString) throw new CatalogueError(`${where}: x-format needs type string`);
  if (schema['x-format'] && schema['x-format'] !== 'json' && schema['x-format'] !== 'lines') {
    throw new CatalogueError(`${where}: x-format must be json or lines`);
  }
  if (schema['x-json-schema'] && schema['x-format'] !== 'json') throw new CatalogueError(`${where}: x-json-schema needs x-format json`);
  if (schema['x-trim-trailing-slash'] && !isString) throw new CatalogueError(`${where}: x-trim-trailing-slash needs type string`);
  const req = schema['x-requires'];
  if (req && (schema.type === 'integer' || schema.type === 'number')) throw new CatalogueError(`${where}: x-requires needs type boolean or string`);
  if (req && (!req.key || !req.message)) throw new CatalogueError(`${where}: x-requires needs a key and a message`);
  const messages = messagesProblem(schema['x-messages']);
  if (messages) throw new CatalogueError(`${where}: ${messages}`);
  const labels = [schema['x-ui']?.enumNames, ...Object.values(schema['x-i18n'] ?? {}).map((t) => t.enumNames)];
  for (const names of labels) {
    if (names !== undefined && (!Array.isArray(names) || names.length !== (schema.enum?.length ?? -1))) {
      throw new CatalogueError(`${where}: enumNames must label each enum value`);
    }
  }
}

/**
 * Builds the catalogue and checks it: unique keys across files, a default of the key's
 * type, no secret key made public, requirements that name existing keys.
 */
export function buildCatalogue(files: OptionSection[]): Catalogue {
  const keys = new Map<string, OptionDef>();
  const ids = new Set<string>();
  const sections = [...files].sort((a, b) => SETTINGS_TABS.indexOf(a['x-tab']) - SETTINGS_TABS.indexOf(b['x-tab']) || (a['x-order'] ?? 0) - (b['x-order'] ?? 0));
  for (const section of sections) {
    if (!section.$id) throw new CatalogueError('an options schema file has no $id');
    if (ids.has(section.$id)) throw new CatalogueError(`two options schema files share the $id ${section.$id}`);
    ids.add(section.$id);
    if (!SETTINGS_TABS.includes(section['x-tab'])) throw new CatalogueError(`${section.$id}: x-tab must be one of ${SETTINGS_TABS.join(', ')}`);
    for (const [key, schema] of Object.entries(section.properties ?? {})) {
      const where = `${section.$id}.${key}`;
      if (keys.has(key)) throw new CatalogueError(`option key ${key} is declared twice (${keys.get(key)!.section} and ${section.$id})`);
      if (!TYPES.includes(schema.type)) throw new CatalogueError(`${where}: type must be one of ${TYPES.join(', ')}`);
      if (schema.default === undefined) throw new CatalogueError(`${where}: has no default`);
      if (!schema.title) throw new CatalogueError(`${where}: has no title`);
      if (schema['x-secret'] && schema['x-public']) throw new CatalogueError(`${where}: a secret cannot be public`);
      checkAnnotations(where, schema);
      const def: OptionDef = {
        key,
        section: section.$id,
        tab: section['x-tab'],
        schema,
        root: Boolean(section['x-root'] || schema['x-root']),
        secret: Boolean(schema['x-secret']),
        json: schema['x-format'] === 'json',
        defaultText: encodeOption({ schema }, schema.default),
        ...(schema['x-public'] ? { publicName: schema['x-public'] } : {}),
      };
      const decoded = decodeOption(def, def.defaultText);
      if (!decoded.ok) throw new CatalogueError(`${where}: default ${def.defaultText} ${decoded.reason}`);
      keys.set(key, def);
    }
  }
  for (const def of keys.values()) {
    const req = def.schema['x-requires'];
    if (!req) continue;
    if (!keys.has(req.key)) throw new CatalogueError(`${def.key}: x-requires names unknown key ${req.key}`);
    if (req.key === def.key) throw new CatalogueError(`${def.key}: x-requires names the key itself`);
  }
  const publicNames = new Set<string>();
  for (const def of keys.values()) {
    if (!def.publicName) continue;
    if (publicNames.has(def.publicName)) throw new CatalogueError(`two keys are published as ${def.publicName}`);
    publicNames.add(def.publicName);
  }
  return { sections, keys };
}

/** The x- keywords of the catalogue, for a validator that runs in strict mode. */
export const CATALOGUE_KEYWORDS = ['x-i18n', 'x-public', 'x-secret', 'x-root', 'x-format', 'x-json-schema', 'x-requires', 'x-trim-trailing-slash', 'x-messages', 'x-ui', 'x-tab', 'x-order'] as const;
