/**
 * The public price list (docs/billing.md#price-list): one entry per model served by an enabled
 * ability, priced per call (ModelPrice) or by ratios, restricted to the caller's usable
 * groups. The model list is computed at most once a minute per process and dropped at
 * once when a price option or a channel (hence the abilities) changes.
 */
import type { AppContext } from '../../context';
import { onChannelsChanged } from '../channels/channel.events';
import { usableGroups } from '../users/user-groups.service';
import { listEnabledModelGroups } from './pricing.repository';
import { completionRatio, modelPrice, modelRatio, readRatioTables } from './ratios';

export const QUOTA_TYPE_RATIO = 0;
export const QUOTA_TYPE_PER_CALL = 1;

export interface PricingEntry {
  model_name: string;
  /** 0 billed by tokens (ratios), 1 billed per call (model_price, USD). */
  quota_type: typeof QUOTA_TYPE_RATIO | typeof QUOTA_TYPE_PER_CALL;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  enable_groups: string[];
}

export interface PricingView {
  data: PricingEntry[];
  /** Group → ratio, for the caller's usable groups that have one. */
  group_ratio: Record<string, number>;
  /** Group → description: the groups the caller may use. */
  usable_group: Record<string, string>;
}

const CACHE_MS = 60_000;
/** Options whose change alters the computed entries. */
const PRICE_OPTIONS = new Set(['ModelRatio', 'ModelPrice', 'CompletionRatio']);

interface CachedCatalogue {
  expiresAt: number;
  entries: Promise<PricingEntry[]>;
}

const catalogues = new WeakMap<AppContext, CachedCatalogue>();
const watched = new WeakSet<AppContext>();

/** Forgets the cached list; the next request computes it again. */
export function invalidatePricing(ctx: AppContext): void {
  catalogues.delete(ctx);
}

async function computeCatalogue(ctx: AppContext): Promise<PricingEntry[]> {
  const pairs = await listEnabledModelGroups(ctx.db);
  const groupsOf = new Map<string, string[]>();
  for (const { model, group } of pairs) {
    const groups = groupsOf.get(model) ?? [];
    if (!groups.includes(group)) groups.push(group);
    groupsOf.set(model, groups);
  }
  const tables = readRatioTables(ctx.options);
  return [...groupsOf].map(([model, groups]) => {
    const price = modelPrice(tables, model);
    if (price !== undefined) {
      return { model_name: model, quota_type: QUOTA_TYPE_PER_CALL, model_ratio: 0, model_price: price, completion_ratio: 0, enable_groups: groups };
    }
    return {
      model_name: model,
      quota_type: QUOTA_TYPE_RATIO,
      model_ratio: modelRatio(tables, model).ratio,
      model_price: 0,
      completion_ratio: completionRatio(tables, model),
      enable_groups: groups,
    };
  });
}

/** Every priced model with all its enabled groups, cached for a minute. */
export function pricingCatalogue(ctx: AppContext): Promise<PricingEntry[]> {
  if (!watched.has(ctx)) {
    watched.add(ctx);
    ctx.options.on('change', (key) => {
      if (PRICE_OPTIONS.has(key)) invalidatePricing(ctx);
    });
    onChannelsChanged(ctx, () => invalidatePricing(ctx));
  }
  const now = Date.now();
  const cached = catalogues.get(ctx);
  if (cached && cached.expiresAt > now) return cached.entries;
  const entries = computeCatalogue(ctx);
  const entry = { expiresAt: now + CACHE_MS, entries };
  catalogues.set(ctx, entry);
  // A failed query must not be served from the cache for a minute.
  entries.catch(() => {
    if (catalogues.get(ctx) === entry) catalogues.delete(ctx);
  });
  return entries;
}

/**
 * What a caller in group `userGroup` ('' for a visitor) sees: the models reachable through
 * its usable groups, each listing only those groups, and the ratios of those groups.
 */
export async function pricingFor(ctx: AppContext, userGroup: string): Promise<PricingView> {
  const usable = usableGroups(ctx, userGroup);
  const isUsable = (group: string) => Object.hasOwn(usable, group);
  const data = (await pricingCatalogue(ctx)).map((entry) => ({ ...entry, enable_groups: entry.enable_groups.filter(isUsable) })).filter((entry) => entry.enable_groups.length > 0);
  const ratios = readRatioTables(ctx.options).groupRatio;
  const group_ratio: Record<string, number> = {};
  for (const [group, ratio] of Object.entries(ratios)) {
    if (isUsable(group)) group_ratio[group] = ratio;
  }
  return { data, group_ratio, usable_group: usable };
}
