/**
 * The prices of one request, looked up once before the call (docs/billing.md#model-ratio) from the
 * ratio options (parsed once per change by readRatioTables). Always by the model the client
 * asked for, never the mapped upstream name. A model without a ratio or price is refused
 * unless self-use mode is on or the user accepts unset models.
 */
import type { OptionsService } from '../../services/options/options.service';
import { cacheRatio, completionRatio, groupRatio, modelPrice, modelRatio, readRatioTables } from '../../services/pricing/ratios';
import { RelayError } from '../errors';

/** Prompt tokens written to Claude's cache cost 1.25 × (built in, not an option). */
export const CACHE_CREATION_RATIO = 1.25;
/** Output audio costs this many times input audio (docs/billing.md#audio-ratios). */
export const AUDIO_COMPLETION_RATIO = 2;

export interface PriceInfo {
  /** Fixed USD per call (ModelPrice); takes precedence over the ratios. */
  usePrice: boolean;
  /** -1 when the model is billed by tokens (the log's model_price). */
  modelPrice: number;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheCreationRatio: number;
  groupRatio: number;
  /** Set for audio models (gpt-4o-audio*, *-realtime*). */
  audioRatio?: number;
  audioCompletionRatio?: number;
  quotaPerUnit: number;
}

/** Audio price factor of realtime and audio chat models (docs/billing.md#audio-ratios). */
export function audioRatioFor(model: string): number | undefined {
  if (model.includes('-realtime')) {
    if (model.endsWith('gpt-4o-realtime-preview-2024-12-17')) return 8;
    if (model.includes('mini')) return 10 / 0.6;
    return 20;
  }
  if (model.includes('-audio')) {
    if (model.endsWith('gpt-4o-audio-preview-2024-12-17')) return 16;
    if (model.includes('mini')) return 10 / 0.15;
    return 40;
  }
  return undefined;
}

export interface PriceRequest {
  model: string;
  group: string;
  userId: number;
  /** The user's own setting accept_unset_model_ratio_model. */
  acceptUnset: boolean;
}

interface CachedPrice {
  info: Readonly<PriceInfo>;
  /** The model has a ratio or a price. */
  set: boolean;
}

/** Prices by model and group, for one parse of the ratio tables and one QuotaPerUnit. */
const cache = new WeakMap<object, { quotaPerUnit: number; prices: Map<string, CachedPrice> }>();

/** At most this many (model, group) pairs are kept per table set (model names come from clients). */
const CACHE_LIMIT = 4096;

/**
 * The request's prices; shared, frozen objects per (model, group) until a ratio option or
 * QuotaPerUnit changes, so the relay's hot path neither recomputes nor allocates them.
 */
export function priceFor(options: OptionsService, req: PriceRequest): Readonly<PriceInfo> {
  const tables = readRatioTables(options);
  const quotaPerUnit = options.number('QuotaPerUnit') || 500000;
  let entry = cache.get(tables);
  if (!entry || entry.quotaPerUnit !== quotaPerUnit) {
    entry = { quotaPerUnit, prices: new Map() };
    cache.set(tables, entry);
  }
  const key = `${req.model}\u0000${req.group}`;
  let cached = entry.prices.get(key);
  if (!cached) {
    if (entry.prices.size >= CACHE_LIMIT) entry.prices.clear();
    cached = computePrice(tables, req.model, req.group, quotaPerUnit);
    entry.prices.set(key, cached);
  }
  if (!cached.set && !options.bool('SelfUseModeEnabled') && !req.acceptUnset) {
    const m = req.model;
    const message =
      req.userId === 1
        ? `模型 ${m} 倍率或价格未配置，请设置或开始自用模式；Model ${m} ratio or price not set, please set or start self-use mode`
        : `模型 ${m} 倍率或价格未配置, 请联系管理员设置；Model ${m} ratio or price not set, please contact administrator to set`;
    throw new RelayError(500, message, { code: 'model_price_error', local: true });
  }
  return cached.info;
}

function computePrice(tables: ReturnType<typeof readRatioTables>, model: string, group: string, quotaPerUnit: number): CachedPrice {
  const price = modelPrice(tables, model);
  const ratio = modelRatio(tables, model);
  const audio = audioRatioFor(model);
  const info: PriceInfo = {
    usePrice: price !== undefined,
    modelPrice: price ?? -1,
    modelRatio: ratio.ratio,
    completionRatio: completionRatio(tables, model),
    cacheRatio: cacheRatio(tables, model),
    cacheCreationRatio: CACHE_CREATION_RATIO,
    groupRatio: groupRatio(tables, group),
    ...(audio !== undefined ? { audioRatio: audio, audioCompletionRatio: AUDIO_COMPLETION_RATIO } : {}),
    quotaPerUnit,
  };
  return { info: Object.freeze(info), set: price !== undefined || ratio.found };
}
