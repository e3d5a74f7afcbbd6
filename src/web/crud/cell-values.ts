/**
 * What the gateway renderers compute from a row: colours by threshold, spent time, values
 * inside JSON text fields, templates filled from a row. Pure, so each rule is unit-tested.
 */
import type { ColorSteps, JsonPath } from '../../shared/resources/common';

type Row = Record<string, unknown>;

/** The colour of `value`: the first step whose `max` it does not exceed, else `over`. */
export function colorFor(value: number, colors: ColorSteps): string {
  return colors.steps.find((s) => value <= s.max)?.color ?? colors.over;
}

/**
 * Channel response time (docs/console.md#lists-and-forms): 0 untested; up to 1 s green, 3 s lime, 5 s yellow,
 * beyond red. Milliseconds in, the colour and the seconds to show out.
 */
export const RESPONSE_TIME_COLORS: ColorSteps = {
  steps: [
    { max: 1000, color: 'green' },
    { max: 3000, color: 'lime' },
    { max: 5000, color: 'yellow' },
  ],
  over: 'red',
};

/** Seconds between two times of a row (`unit` of the stored values), one decimal; undefined when unfinished. */
export function spentSeconds(start: unknown, end: unknown, unit: 's' | 'ms' = 's'): number | undefined {
  const from = Number(start);
  const to = Number(end);
  if (!from || !to || to < from) return undefined;
  const seconds = (to - from) / (unit === 'ms' ? 1000 : 1);
  return Math.round(seconds * 10) / 10;
}

/** Parses a JSON text field once; anything unreadable is an empty object. */
export function parseJsonObject(text: unknown): Record<string, unknown> {
  if (text && typeof text === 'object' && !Array.isArray(text)) return text as Record<string, unknown>;
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `other.admin_info.use_channel`: the first segment is a field holding JSON text, the rest a path in it. */
export function readJsonPath(row: Row, path: JsonPath): unknown {
  const [field, ...rest] = path.split('.');
  let current: unknown = rest.length ? parseJsonObject(row[field]) : row[field];
  for (const key of rest) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `{name}    sk-{key}` with the row's values; unknown fields become ''. */
export function fillTemplate(template: string, row: Row): string {
  return template.replace(/\{(\w+)\}/g, (_m, field: string) => {
    const value = row[field];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** `75%` → 75; anything that is not a percent → undefined. */
export function percentOf(value: unknown): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(String(value ?? ''));
  return match ? Math.min(100, Number(match[1])) : undefined;
}

/** A key shown without revealing it: `sk-abcd**********wxyz`. */
export function maskSecret(value: string, prefix = ''): string {
  if (value.length <= 8) return prefix + value;
  return `${prefix}${value.slice(0, 4)}${'*'.repeat(10)}${value.slice(-4)}`;
}

/** A stable tag colour for an id or name, so the same channel always looks the same. */
const TAG_COLORS = ['blue', 'cyan', 'geekblue', 'gold', 'green', 'lime', 'magenta', 'orange', 'purple', 'red', 'volcano'];
export function colorOfValue(value: unknown): string {
  const text = String(value ?? '');
  let hash = 0;
  for (const ch of text) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return TAG_COLORS[hash % TAG_COLORS.length];
}

/** A comma list as trimmed names, empties dropped. */
export function commaList(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
