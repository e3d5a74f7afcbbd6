/**
 * Price lookups shared by the pricing page and the relay (docs/billing.md#model-ratio). Pure
 * functions over the option tables, so billing can be tested without a server;
 * `readRatioTables` parses the options once per change of their text.
 */
import type { OptionsService } from '../options/options.service';
import { completionRuleFor } from './completion-rules';

/** A JSON option mapping model (or group) names to numbers. */
export type RatioTable = Record<string, number>;

export interface RatioTables {
  /** ModelRatio: 1 = 2 USD per 1M prompt tokens. */
  modelRatio: RatioTable;
  /** ModelPrice: USD per call; takes precedence over the ratios. */
  modelPrice: RatioTable;
  completionRatio: RatioTable;
  cacheRatio: RatioTable;
  groupRatio: RatioTable;
}

/** Charged when a model has no ratio and unset models are accepted (self-use mode). */
export const UNSET_MODEL_RATIO = 37.5;

const OPTION_OF: Record<keyof RatioTables, string> = {
  modelRatio: 'ModelRatio',
  modelPrice: 'ModelPrice',
  completionRatio: 'CompletionRatio',
  cacheRatio: 'CacheRatio',
  groupRatio: 'GroupRatio',
};

/** Custom GPTs are priced as one family: every gizmo name maps to its wildcard entry. */
export function pricingName(model: string): string {
  if (model.startsWith('gpt-4-gizmo')) return 'gpt-4-gizmo-*';
  if (model.startsWith('gpt-4o-gizmo')) return 'gpt-4o-gizmo-*';
  return model;
}

function lookup(table: RatioTable, key: string): number | undefined {
  const value = Object.hasOwn(table, key) ? table[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The fixed USD price per call, or undefined when the model is billed by tokens. */
export function modelPrice(tables: Pick<RatioTables, 'modelPrice'>, model: string): number | undefined {
  return lookup(tables.modelPrice, pricingName(model));
}

/**
 * The model ratio; `found` is false for a model without one, which then costs
 * UNSET_MODEL_RATIO where the caller accepts unset models (the relay decides).
 */
export function modelRatio(tables: Pick<RatioTables, 'modelRatio'>, model: string): { ratio: number; found: boolean } {
  const ratio = lookup(tables.modelRatio, pricingName(model));
  return ratio === undefined ? { ratio: UNSET_MODEL_RATIO, found: false } : { ratio, found: true };
}

/**
 * Completion ratio, in the reference's order: a provider-qualified name (`vendor/model`)
 * set in the option; a fixed built-in rule; the option; the family default.
 */
export function completionRatio(tables: Pick<RatioTables, 'completionRatio'>, model: string): number {
  const name = pricingName(model);
  const configured = lookup(tables.completionRatio, name);
  if (name.includes('/') && configured !== undefined) return configured;
  const rule = completionRuleFor(name);
  if (rule.fixed) return rule.ratio;
  return configured ?? rule.ratio;
}

/** Price factor of prompt tokens read from the provider's cache; 1 when not configured. */
export function cacheRatio(tables: Pick<RatioTables, 'cacheRatio'>, model: string): number {
  return lookup(tables.cacheRatio, model) ?? 1;
}

/** Group ratio; a group without one costs 1. */
export function groupRatio(tables: Pick<RatioTables, 'groupRatio'>, group: string): number {
  return lookup(tables.groupRatio, group) ?? 1;
}

function parseTable(text: string): RatioTable {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as RatioTable) : {};
  } catch {
    return {};
  }
}

const parsedTables = new WeakMap<OptionsService, { texts: string[]; tables: RatioTables }>();

/**
 * The current tables. Parsed again only when an option's text changed, so the relay can
 * call this on every request.
 */
export function readRatioTables(options: OptionsService): RatioTables {
  const keys = Object.keys(OPTION_OF) as (keyof RatioTables)[];
  const texts = keys.map((k) => options.get(OPTION_OF[k]));
  const cached = parsedTables.get(options);
  if (cached && cached.texts.every((t, i) => t === texts[i])) return cached.tables;
  const tables = Object.fromEntries(keys.map((k, i) => [k, parseTable(texts[i]!)])) as unknown as RatioTables;
  parsedTables.set(options, { texts, tables });
  return tables;
}
