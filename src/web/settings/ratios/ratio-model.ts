/**
 * The visual ratio table over a section's JSON keys marked `ratioTableColumn` (fixed price,
 * ratio, completion ratio): rows from the parsed maps, cell edits, adding a model, batch set.
 * Pure: every edit answers new maps, `toPatch` turns them back into the keys' JSON texts.
 */
import type { FormValues } from '../form-values';
import { RATIO_COLUMNS, type RatioColumn, type SectionModel } from '../settings-model';

export type RatioMaps = Partial<Record<RatioColumn, Record<string, number>>>;

/** A table row; cells are texts while they are edited ('' = not set). */
export type RatioRow = { name: string } & Record<RatioColumn, string>;

/** The section's table columns, by column, as field name and title. */
export function ratioFields(section: SectionModel): Partial<Record<RatioColumn, { name: string; title: string }>> {
  const out: Partial<Record<RatioColumn, { name: string; title: string }>> = {};
  for (const f of section.fields) if (f.ratioColumn) out[f.ratioColumn] = { name: f.name, title: f.title };
  return out;
}

/** The maps behind the table, or the title of the first key whose JSON is not an object of numbers. */
export function parseRatioMaps(section: SectionModel, values: FormValues): { maps: RatioMaps } | { invalid: string } {
  const maps: RatioMaps = {};
  for (const [column, field] of Object.entries(ratioFields(section)) as Array<[RatioColumn, { name: string; title: string }]>) {
    try {
      const parsed: unknown = JSON.parse(String(values[field.name] ?? ''));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { invalid: field.title };
      if (Object.values(parsed).some((v) => typeof v !== 'number')) return { invalid: field.title };
      maps[column] = parsed as Record<string, number>;
    } catch {
      return { invalid: field.title };
    }
  }
  return { maps };
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export function rowOf(maps: RatioMaps, name: string): RatioRow {
  return { name, price: text(maps.price?.[name]), ratio: text(maps.ratio?.[name]), completionRatio: text(maps.completionRatio?.[name]) };
}

/** One row per model named in any column, by name. */
export function ratioRows(maps: RatioMaps): RatioRow[] {
  const names = new Set(RATIO_COLUMNS.flatMap((c) => Object.keys(maps[c] ?? {})));
  return [...names].sort((a, b) => a.localeCompare(b)).map((name) => rowOf(maps, name));
}

/** Digits with at most one decimal point: what a cell accepts while typing ('' clears it). */
export function isNumberText(value: string): boolean {
  return /^\d*\.?\d*$/.test(value);
}

/** A finished number: non-empty, finite, not negative. */
export function parseNumber(value: string | number | undefined | null): number | undefined {
  if (value === undefined || value === null || String(value).trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Sets one cell: a number, or '' to remove the model from that column. */
export function setCell(maps: RatioMaps, name: string, column: RatioColumn, value: string): RatioMaps {
  const next = { ...(maps[column] ?? {}) };
  const n = parseNumber(value);
  if (n === undefined) delete next[name];
  else next[name] = n;
  return { ...maps, [column]: next };
}

export function hasModel(maps: RatioMaps, name: string): boolean {
  return RATIO_COLUMNS.some((c) => maps[c] && Object.hasOwn(maps[c], name));
}

export function removeModel(maps: RatioMaps, name: string): RatioMaps {
  return RATIO_COLUMNS.reduce((m, c) => (m[c] ? setCell(m, name, c, '') : m), maps);
}

export type RatioError = 'exists' | 'nameMissing' | 'noSelection' | 'noValue' | 'noCombined' | 'invalidNumber';

/** Adds a model with the values given (a fixed price leaves its ratios out); refuses a name already present. */
export function addModel(maps: RatioMaps, row: RatioRow): { maps: RatioMaps } | { error: RatioError } {
  const name = row.name.trim();
  if (!name) return { error: 'nameMissing' };
  if (hasModel(maps, name)) return { error: 'exists' };
  const columns: RatioColumn[] = parseNumber(row.price) !== undefined ? ['price'] : ['ratio', 'completionRatio'];
  return { maps: columns.reduce((m, c) => (m[c] ? setCell(m, name, c, row[c]) : m), maps) };
}

export type BatchInput = { mode: 'single'; column: RatioColumn; value: string } | { mode: 'combined'; ratio: string; completionRatio: string };

/** Fills the selected models: one column with one value, or ratio and completion ratio together. */
export function batchSet(maps: RatioMaps, names: string[], input: BatchInput): { maps: RatioMaps } | { error: RatioError } {
  if (names.length === 0) return { error: 'noSelection' };
  const values: Array<[RatioColumn, string]> =
    input.mode === 'single'
      ? [[input.column, input.value]]
      : [
          ['ratio', input.ratio],
          ['completionRatio', input.completionRatio],
        ];
  if (values.some(([, v]) => v.trim() === '')) return { error: input.mode === 'single' ? 'noValue' : 'noCombined' };
  if (values.some(([, v]) => parseNumber(v) === undefined)) return { error: 'invalidNumber' };
  let next = maps;
  for (const name of names) for (const [column, value] of values) if (next[column]) next = setCell(next, name, column, value);
  return { maps: next };
}

/** The JSON texts of the table's keys, as form values by field name. */
export function toPatch(section: SectionModel, maps: RatioMaps): FormValues {
  const patch: FormValues = {};
  for (const [column, field] of Object.entries(ratioFields(section)) as Array<[RatioColumn, { name: string }]>) {
    if (maps[column]) patch[field.name] = JSON.stringify(maps[column], null, 2);
  }
  return patch;
}
