/**
 * Turns what a request delivered into its settlement (docs/billing.md#settlement):
 * the quota by the reference's formula, the consume log with the `other` JSON (docs/billing.md#consume-logs),
 * and the ledger item that applies `charge − reserved` once. A failed request settles as a
 * refund (charge 0, no log). The ledger commits in the background; the dashboard and the
 * post-settlement hook run after the commit with what was really charged.
 */
import { consumeLogRow, consumeLogsEnabled, recordDashboardUsage, type Consumption } from '../../services/logs/consumption';
import { pricingName } from '../../services/pricing/ratios';
import { priceLogFields, usageQuota } from '../billing/formula';
import type { PriceInfo } from '../billing/price';
import type { SettleItem } from '../billing/ledger-sql';
import type { RelayRuntime } from '../runtime';
import type { Delivered, RelayCall } from './call';
import { afterSettlement } from './hooks';

export interface Reservation {
  id: string;
  amount: number;
}

function ratio(value: number): string {
  return value.toFixed(2);
}

const ENDING_NOTE: Record<Delivered['ending'], string> = {
  complete: '',
  client_gone: '客户端中途断开，按已送达内容计费',
  upstream_broken: '上游中途断开，按已送达内容计费',
  timeout: '上游流式响应超时，按已送达内容计费',
  interrupted: '服务中断时仍在传输，按已送达内容计费',
};

interface Charge {
  quota: number;
  countUsage: boolean;
  content: string;
}

/** The log's price text per price object (shared per model and group, see priceFor). */
const priceTexts = new WeakMap<PriceInfo, string>();

function priceText(price: PriceInfo): string {
  let text = priceTexts.get(price);
  if (text === undefined) {
    text = price.usePrice
      ? `模型价格 ${ratio(price.modelPrice)}，分组倍率 ${ratio(price.groupRatio)}`
      : `模型倍率 ${ratio(price.modelRatio)}，补全倍率 ${ratio(price.completionRatio)}，分组倍率 ${ratio(price.groupRatio)}`;
    priceTexts.set(price, text);
  }
  return text;
}

function chargeOf(call: RelayCall, out: Delivered): Charge {
  const price = call.price;
  const parts = [priceText(price)];
  if (pricingName(call.model) !== call.model) parts[0] += `，模型 ${call.model}`;
  if (out.logExtra) parts.push(out.logExtra);
  if (ENDING_NOTE[out.ending]) parts.push(ENDING_NOTE[out.ending]);
  if (out.fixedQuota !== undefined) return { quota: out.fixedQuota, countUsage: true, content: parts.join(', ') };
  const tokens = out.usage.promptTokens + out.usage.completionTokens;
  if (tokens === 0) {
    // Nothing came back: nothing is charged and the counters stay (docs/billing.md#settlement-formula).
    parts[0] += out.claudeUpstream || call.mode === 'messages' ? '（可能是上游出错）' : '（可能是上游超时）';
    return { quota: 0, countUsage: false, content: parts.join(', ') };
  }
  const rounding = out.claudeUpstream || call.mode === 'messages' ? 'truncate' : 'round';
  return { quota: usageQuota(out.usage, price, rounding), countUsage: true, content: parts.join(', ') };
}

function otherOf(call: RelayCall, out: Delivered): Record<string, unknown> {
  const p = call.price;
  const u = out.usage;
  const other = priceLogFields(p, u, out.firstResponseMs);
  if (out.reasoningEffort) other.reasoning_effort = out.reasoningEffort;
  if (out.isModelMapped) {
    other.is_model_mapped = true;
    other.upstream_model_name = out.upstreamModel;
  }
  if (out.claudeUpstream || call.mode === 'messages') {
    other.claude = true;
    other.cache_creation_tokens = u.cacheCreationTokens ?? 0;
    other.cache_creation_ratio = p.cacheCreationRatio;
  }
  if (p.audioRatio !== undefined && (u.audioPromptTokens || u.audioCompletionTokens)) {
    other.audio = true;
    other.audio_input = u.audioPromptTokens ?? 0;
    other.audio_output = u.audioCompletionTokens ?? 0;
    other.text_input = u.promptTokens - (u.audioPromptTokens ?? 0);
    other.text_output = u.completionTokens - (u.audioCompletionTokens ?? 0);
    other.audio_ratio = p.audioRatio;
    other.audio_completion_ratio = p.audioCompletionRatio;
  }
  // Ties the log to the id the client was given (X-Oneapi-Request-Id, error messages).
  other.request_id = call.requestId;
  other.admin_info = { use_channel: call.tried.map(String) };
  return other;
}

/**
 * The ledger item, built in one shape (every field, always in this order): spreading a base
 * object and optional parts made V8 copy it property by property on every request.
 */
function settleItem(call: RelayCall, reservation: Reservation, channelId: number, charge: Pick<Charge, 'quota' | 'countUsage'>, log: SettleItem['log']): SettleItem {
  return {
    reservationId: reservation.id,
    userId: call.caller.userId,
    tokenId: call.caller.tokenId,
    tokenLimited: call.caller.tokenLimited,
    channelId,
    reserved: reservation.amount,
    quota: charge.quota,
    countUsage: charge.countUsage,
    memoryHold: false,
    log,
  };
}

/** The settlement of `out` and the consume-log entry it writes. */
function settlementOf(rt: RelayRuntime, call: RelayCall, reservation: Reservation, out: Delivered): { charge: Charge; entry: Consumption; item: SettleItem } {
  const charge = chargeOf(call, out);
  const now = Date.now();
  const entry: Consumption = {
    userId: call.caller.userId,
    username: call.caller.username,
    tokenId: call.caller.tokenId,
    tokenName: call.caller.tokenName,
    modelName: pricingName(call.model),
    quota: charge.quota,
    promptTokens: out.usage.promptTokens,
    completionTokens: out.usage.completionTokens,
    useTime: Math.floor((now - call.startedAt) / 1000),
    isStream: out.isStream,
    channelId: out.channel.id,
    group: call.caller.group,
    content: charge.content,
    other: otherOf(call, out),
    createdAt: Math.floor(now / 1000),
  };
  // The ledger fills in the quota really charged, inside the settling transaction.
  const log = consumeLogsEnabled(rt.ctx) ? consumeLogRow(entry) : undefined;
  return { charge, entry, item: settleItem(call, reservation, out.channel.id, charge, log) };
}

/** Bills a request that delivered an answer (whole or in part). Never awaited by the request. */
export function settleDelivered(rt: RelayRuntime, call: RelayCall, reservation: Reservation, out: Delivered): void {
  const { charge, entry, item } = settlementOf(rt, call, reservation, out);
  // What runs after the commit keeps these alone, not `call` and `out`: the call holds the
  // request's body (its bytes and their parse), which would otherwise stay reachable until
  // the batch commits (50 ms and more), long enough to be promoted to V8's old generation
  // and grow the heap under load by as much as the requests in that window carried.
  const { userId, tokenId, userSetting } = call.caller;
  const model = call.model;
  const channelId = out.channel.id;
  const cost = charge.quota;
  rt.auth.adjustRemain(tokenId, reservation.amount - cost);
  void rt.ledger.settle(item).then(({ charged, userQuotaAfter }) => {
    // A clamped charge (the payer could not cover all of it) moved the token by less than the
    // cost counted above: the cache moves by exactly what the database moved.
    if (charged !== cost) rt.auth.adjustRemain(tokenId, cost - charged);
    // The log row was copied out of `entry` already: it can carry what was really charged.
    entry.quota = charged;
    rt.metrics?.billed(channelId, model, entry.promptTokens, entry.completionTokens, charged);
    recordDashboardUsage(rt.ctx, entry);
    afterSettlement(rt.ctx, { userId, charged, userQuotaAfter, userSetting }, rt.log);
  });
}

/** Gives a failed request's reservation back, exactly once (the journal row goes with it). */
export function refund(rt: RelayRuntime, call: RelayCall, reservation: Reservation): void {
  rt.auth.adjustRemain(call.caller.tokenId, reservation.amount);
  void rt.ledger.settle(settleItem(call, reservation, 0, { quota: 0, countUsage: false }, undefined));
}

/** How often a running stream's delivery so far is journaled (what a crash bills it for). */
export const PROGRESS_EVERY_MS = 1000;

/**
 * Journals, about once a second while the stream runs, the settlement it would have if it
 * ended now (`soFar` answers it with the ending `interrupted`): a process killed mid-stream
 * bills the stream for that at the next start. Only streams that last are ever journaled,
 * and only when they delivered more since the last time. Answers the function that stops it.
 */
export function journalStreamProgress(rt: RelayRuntime, call: RelayCall, soFar: () => Delivered): () => void {
  const reservation = call.reservation;
  if (!reservation) return () => undefined;
  let lastTokens = 0;
  const timer = setInterval(() => {
    const out = soFar();
    const tokens = out.usage.promptTokens + out.usage.completionTokens;
    if (tokens === lastTokens) return;
    lastTokens = tokens;
    rt.ledger.progress(settlementOf(rt, call, reservation, out).item);
  }, PROGRESS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
