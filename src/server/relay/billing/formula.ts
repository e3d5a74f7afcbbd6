/**
 * The settlement formulas of the reference (docs/billing.md#settlement-formula), in exact decimal arithmetic: every
 * ratio is read from its shortest decimal text (0.075 is exactly 75/1000), so a price never
 * drifts by a binary rounding error and the result is the one the reference computes.
 *
 * - tokens: (prompt − cached + cached × cache_ratio + cache_creation × 1.25
 *            + completion × completion_ratio) × model_ratio × group_ratio
 * - audio models: text and audio parts priced apart (audio_ratio, audio_completion_ratio)
 * - fixed price: price × QuotaPerUnit × group_ratio
 * Rounded half away from zero, or truncated where the upstream is Claude (the reference's
 * Claude path); at least 1 when the ratios are not zero.
 */
import { toFraction, type Fraction } from '../../services/wallet/exact-decimal';
import type { Usage } from '../providers/types';
import type { PriceInfo } from './price';

export type Rounding = 'round' | 'truncate';

const ZERO: Fraction = { n: 0n, d: 1n };

/** Ratios come from a few option tables: their fractions are made once. */
const fractions = new Map<number, Fraction>();

function exact(value: number): Fraction {
  let f = fractions.get(value);
  if (!f) {
    f = toFraction(Math.max(0, value)) ?? ZERO;
    if (fractions.size > 4096) fractions.clear();
    fractions.set(value, f);
  }
  return f;
}

function count(tokens: number | undefined): Fraction {
  return { n: BigInt(Math.max(0, Math.trunc(tokens ?? 0))), d: 1n };
}

function add(a: Fraction, b: Fraction): Fraction {
  return a.d === b.d ? { n: a.n + b.n, d: a.d } : { n: a.n * b.d + b.n * a.d, d: a.d * b.d };
}

function mul(a: Fraction, b: Fraction): Fraction {
  return { n: a.n * b.n, d: a.d * b.d };
}

function toInteger(value: Fraction, rounding: Rounding): number {
  // Values are never negative here, so "half away from zero" is floor(x + 1/2).
  const whole = rounding === 'truncate' ? value.n / value.d : (value.n * 2n + value.d) / (value.d * 2n);
  return Number(whole);
}

/** Quota of a fixed per-call price. */
export function perCallQuota(price: PriceInfo, rounding: Rounding): number {
  return toInteger(mul(mul(exact(price.modelPrice), exact(price.quotaPerUnit)), exact(price.groupRatio)), rounding);
}

/** Token-weighted units before the model and group ratios. */
function weightedTokens(usage: Usage, price: PriceInfo): Fraction {
  const cached = Math.max(0, usage.cachedTokens ?? 0);
  const uncachedPrompt = usage.promptExcludesCache ? usage.promptTokens : Math.max(0, usage.promptTokens - cached);
  const audioIn = usage.audioPromptTokens ?? 0;
  const audioOut = usage.audioCompletionTokens ?? 0;
  let sum = add(count(uncachedPrompt - (price.audioRatio !== undefined ? audioIn : 0)), mul(count(cached), exact(price.cacheRatio)));
  sum = add(sum, mul(count(usage.cacheCreationTokens), exact(price.cacheCreationRatio)));
  const textOut = price.audioRatio !== undefined ? usage.completionTokens - audioOut : usage.completionTokens;
  sum = add(sum, mul(count(textOut), exact(price.completionRatio)));
  if (price.audioRatio !== undefined) {
    const audioRatio = exact(price.audioRatio);
    sum = add(sum, mul(count(audioIn), audioRatio));
    sum = add(sum, mul(mul(count(audioOut), audioRatio), exact(price.audioCompletionRatio ?? 1)));
  }
  return sum;
}

/** The quota a request costs for this usage (zero-usage handling is the caller's). */
export function usageQuota(usage: Usage, price: PriceInfo, rounding: Rounding): number {
  if (price.usePrice) return perCallQuota(price, rounding);
  const ratio = mul(exact(price.modelRatio), exact(price.groupRatio));
  const quota = toInteger(mul(weightedTokens(usage, price), ratio), rounding);
  return ratio.n !== 0n && quota <= 0 ? 1 : quota;
}

/**
 * What is reserved before the call (docs/billing.md#reservation): prompt + max tokens when the client set a limit,
 * else PreConsumedQuota tokens; a fixed price is reserved whole. Truncated like the reference.
 */
export function estimateQuota(price: PriceInfo, promptTokens: number, maxTokens: number, preConsumedTokens: number): number {
  if (price.usePrice) return perCallQuota(price, 'truncate');
  const tokens = maxTokens > 0 ? promptTokens + maxTokens : preConsumedTokens;
  return toInteger(mul(mul(count(tokens), exact(price.modelRatio)), exact(price.groupRatio)), 'truncate');
}

/**
 * The price part of a consume log's `other` (docs/logs.md#what-is-written): the ratios the
 * quota was computed with, the cached tokens, the fixed price (-1 when billed by tokens) and
 * the first-response time in ms. The relay and the channel test both write it.
 */
export function priceLogFields(price: PriceInfo, usage: Usage, frt: number): Record<string, unknown> {
  return {
    model_ratio: price.modelRatio,
    group_ratio: price.groupRatio,
    completion_ratio: price.completionRatio,
    cache_tokens: usage.cachedTokens ?? 0,
    cache_ratio: price.cacheRatio,
    model_price: price.usePrice ? price.modelPrice : -1,
    frt,
  };
}
