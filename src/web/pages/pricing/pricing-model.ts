/**
 * The price list's rules (docs/console.md#pricing-page): fuzzy search, which
 * group's ratio applies, and prices per 1M tokens or per call in dollars. Pure, so each rule
 * is unit-tested.
 */

export interface PricingEntry {
  model_name: string;
  /** 0 usage-based (ratios), 1 per call (model_price). */
  quota_type: number;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  enable_groups: string[];
}

/** The pricing reply: the entries plus the group ratios and the groups the caller may use. */
export interface PricingReply {
  data?: PricingEntry[];
  group_ratio?: Record<string, number>;
  usable_group?: Record<string, string>;
}

/** True when every character of `query` appears in `name` in order (case-insensitive). */
export function fuzzyMatch(name: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const n = name.toLowerCase();
  if (n.includes(q)) return true;
  let at = 0;
  for (const ch of q) {
    at = n.indexOf(ch, at);
    if (at < 0) return false;
    at += 1;
  }
  return true;
}

/** The ratio of `group` (1 when the reply has none). */
export function ratioOf(groupRatio: Record<string, number> | undefined, group: string): number {
  const r = Number(groupRatio?.[group]);
  return Number.isFinite(r) && r > 0 ? r : 1;
}

export type Price = { kind: 'call'; price: number } | { kind: 'tokens'; prompt: number; completion: number };

/**
 * Dollars: per call = model price × group ratio; per 1M tokens: prompt = model ratio × 2 ×
 * group ratio, completion = that × completion ratio.
 */
export function priceOf(entry: PricingEntry, groupRatio: number): Price {
  if (entry.quota_type === 1) return { kind: 'call', price: entry.model_price * groupRatio };
  const prompt = entry.model_ratio * 2 * groupRatio;
  return { kind: 'tokens', prompt, completion: prompt * entry.completion_ratio };
}

/** Dollars with up to 6 decimals and no trailing zeros ($0.15, $2.5, $0.000125). */
export function dollars(value: number): string {
  return `$${Number(value.toFixed(6)).toString()}`;
}

/** Whether the caller may use the model: one of its groups is usable. */
export function isUsable(entry: PricingEntry, usable: Record<string, string> | undefined): boolean {
  if (!usable) return false;
  return entry.enable_groups.some((g) => Object.hasOwn(usable, g));
}
