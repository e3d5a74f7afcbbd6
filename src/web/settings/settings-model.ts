/**
 * The settings model: schema files → tabs → sections → one RJSF schema and uiSchema per
 * section, in one language and for one role. Pure (no React, no DOM), so adding a key to a
 * schema file and seeing it in its tab with both languages' titles is a unit test.
 *
 * The `x-ui` vocabulary of schemas/README.md maps to widget names registered once in
 * `widgets/index.ts`; section hints (`subTabs`, `actions`) map to views and controls
 * registered by name. No option key is named here.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { buildCatalogue, optionTitle, SETTINGS_TABS, type LocalizedText, type OptionProperty, type OptionSection, type SettingsTab } from '../../shared/options/catalogue';

/** Widget names the console registers (schemas/README.md `x-ui.widget`, plus the defaults by type). */
export const WIDGET_NAMES = ['text', 'textarea', 'select', 'switch', 'updown', 'json', 'lines', 'list', 'quota', 'password', 'action'] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

/** Columns of the visual ratio table (`x-ui.ratioTableColumn`). */
export const RATIO_COLUMNS = ['price', 'ratio', 'completionRatio'] as const;
export type RatioColumn = (typeof RATIO_COLUMNS)[number];

/** The role that may change `x-root` keys (super administrator). */
export const ROOT_ROLE = 100;

export interface FieldModel {
  /** The option key, as stored and sent to PUT /api/option/. */
  key: string;
  /** The RJSF property name: option keys may hold dots, which RJSF reads as paths. */
  name: string;
  title: string;
  widget: WidgetName;
  secret: boolean;
  /** Needs the super administrator; shown disabled to others. */
  root: boolean;
  json: boolean;
  trimTrailingSlash: boolean;
  ratioColumn?: RatioColumn;
  schema: OptionProperty;
}

export interface SectionModel {
  id: string;
  tab: SettingsTab;
  title: string;
  description?: string;
  subTabs: string[];
  actions: string[];
  fields: FieldModel[];
  schema: RJSFSchema;
  uiSchema: UiSchema;
}

export interface TabModel {
  tab: SettingsTab;
  sections: SectionModel[];
}

export interface ModelOptions {
  lang: string;
  role: number;
}

/** A text of a schema node in `lang`; English (`title`/`description` themselves) is the fallback. */
export function localized(node: { 'x-i18n'?: Record<string, LocalizedText>; description?: string }, lang: string, field: 'description'): string | undefined {
  return node['x-i18n']?.[lang]?.[field] ?? node[field];
}

/** The RJSF property name of an option key (dots would be read as nested paths). */
export function fieldName(key: string): string {
  return key.replace(/\./g, '__');
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function widgetOf(schema: OptionProperty): WidgetName {
  const ui = schema['x-ui'] ?? {};
  const named = ui.widget;
  if (typeof named === 'string') {
    if (!(WIDGET_NAMES as readonly string[]).includes(named)) throw new Error(`unknown x-ui widget "${named}"`);
    return named as WidgetName;
  }
  if (typeof ui.action === 'string') return 'action';
  if (schema.enum) return 'select';
  if (schema.type === 'boolean') return 'switch';
  if (schema.type === 'integer' || schema.type === 'number') return 'updown';
  return 'text';
}

/** The constraints RJSF checks before saving; defaults stay out (values come from the server). */
const CONSTRAINTS = ['type', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'maxLength', 'pattern'] as const;

function propertySchema(schema: OptionProperty, lang: string): RJSFSchema {
  const out: Record<string, unknown> = { title: optionTitle(schema, lang) };
  for (const name of CONSTRAINTS) if (schema[name] !== undefined) out[name] = schema[name];
  const description = localized(schema, lang, 'description');
  if (description) out.description = description;
  return out as RJSFSchema;
}

function propertyUi(field: FieldModel, lang: string, role: number): UiSchema {
  const ui = field.schema['x-ui'] ?? {};
  const enumNames = lang === 'en' ? ui.enumNames : (field.schema['x-i18n']?.[lang]?.enumNames ?? ui.enumNames);
  const options: Record<string, unknown> = {};
  for (const hint of ['unit', 'step', 'separator', 'confirmOff', 'action'] as const) if (ui[hint] !== undefined) options[hint] = ui[hint];
  if (Array.isArray(enumNames)) options.enumNames = enumNames;
  if (field.widget === 'switch') options.label = false;
  if (field.widget === 'textarea') options.rows = 5;
  const out: UiSchema = { 'ui:widget': field.widget, 'ui:options': options as UiSchema['ui:options'] };
  if (typeof ui.placeholder === 'string') out['ui:placeholder'] = ui.placeholder;
  if (field.root && role < ROOT_ROLE) out['ui:disabled'] = true;
  return out;
}

function sectionModel(file: OptionSection, { lang, role }: ModelOptions): SectionModel {
  const ui = file['x-ui'] ?? {};
  const fields: FieldModel[] = Object.entries(file.properties).map(([key, schema]) => {
    const column = schema['x-ui']?.ratioTableColumn;
    return {
      key,
      name: fieldName(key),
      title: optionTitle(schema, lang),
      widget: widgetOf(schema),
      secret: Boolean(schema['x-secret']),
      root: Boolean(file['x-root'] || schema['x-root']),
      json: schema['x-format'] === 'json',
      trimTrailingSlash: Boolean(schema['x-trim-trailing-slash']),
      ...((RATIO_COLUMNS as readonly unknown[]).includes(column) ? { ratioColumn: column as RatioColumn } : {}),
      schema,
    };
  });
  const names = new Set(fields.map((f) => f.name));
  if (names.size !== fields.length) throw new Error(`${file.$id}: two keys share a field name`);
  const uiSchema: UiSchema = { 'ui:order': fields.map((f) => f.name) };
  for (const f of fields) uiSchema[f.name] = propertyUi(f, lang, role);
  const description = localized(file, lang, 'description');
  return {
    id: file.$id,
    tab: file['x-tab'],
    title: optionTitle(file, lang),
    ...(description ? { description } : {}),
    subTabs: stringList(ui.subTabs),
    actions: stringList(ui.actions),
    fields,
    schema: { type: 'object', properties: Object.fromEntries(fields.map((f) => [f.name, propertySchema(f.schema, lang)])) },
    uiSchema,
  };
}

/**
 * The settings tabs a user of `role` sees, in `lang`: sections in catalogue order, a section
 * marked `x-root` only for the super administrator, a tab only when it has sections.
 */
export function buildSettingsModel(files: OptionSection[], options: ModelOptions): TabModel[] {
  const { sections } = buildCatalogue(files);
  const visible = sections.filter((s) => !s['x-root'] || options.role >= ROOT_ROLE);
  return SETTINGS_TABS.map((tab) => ({ tab, sections: visible.filter((s) => s['x-tab'] === tab).map((s) => sectionModel(s, options)) })).filter((t) => t.sections.length > 0);
}
