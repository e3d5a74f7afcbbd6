/**
 * The channel selection index in memory (docs/relay.md#channel-selection): every
 * channel with its parsed settings, and (group, model) → priority tiers of enabled channels.
 *
 * It is rebuilt from the database after every channel write (the channel service's change
 * event, which with Redis also carries other nodes' writes) and every SYNC_FREQUENCY seconds
 * as a safety net. Rebuilds never overlap: a change during a rebuild triggers one more.
 */
import type { AppContext } from '../../context';
import type { ChannelRow } from '../../db/tables';
import { CHANNEL_STATUS, effectiveBaseUrl } from '../../../shared/channel-types';
import { channelEvents, onChannelsChanged } from '../../services/channels/channel.events';
import { abilityRowsFor } from '../../services/channels/abilities.sync';
import { proxyOfSetting } from '../upstream/proxy-url';
import { CircuitBreaker } from './breaker';

export interface RelayChannel {
  id: number;
  type: number;
  name: string;
  /** The upstream key; never logged or returned. */
  key: string;
  status: number;
  /** base_url, or the type's default; no trailing slash. */
  baseUrl: string;
  other: string;
  organization: string;
  /** Parsed model_mapping; undefined when empty, null when it is not valid JSON. */
  modelMapping: Record<string, string> | undefined | null;
  statusCodeMapping: Record<string, string>;
  priority: number;
  weight: number;
  autoBan: boolean;
  setting: Record<string, unknown>;
  /** `setting.proxy`: every upstream call of the channel goes through it (upstream/proxy-url.ts). */
  proxy: string | undefined;
  paramOverride: Record<string, unknown> | undefined;
}

interface Tier {
  priority: number;
  channels: RelayChannel[];
}

function parseObject(text: string | null | undefined): Record<string, unknown> | undefined | null {
  if (!text || !text.trim()) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringMap(value: Record<string, unknown> | undefined | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

export function toRelayChannel(row: ChannelRow): RelayChannel {
  const mapping = parseObject(row.model_mapping);
  const setting = parseObject(row.setting) ?? {};
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    key: row.key,
    status: row.status,
    baseUrl: effectiveBaseUrl(row.type, row.base_url),
    other: row.other ?? '',
    organization: row.open_ai_organization ?? '',
    modelMapping: mapping === undefined || mapping === null ? mapping : stringMap(mapping),
    statusCodeMapping: stringMap(parseObject(row.status_code_mapping)),
    priority: Number(row.priority ?? 0),
    weight: Number(row.weight ?? 0),
    autoBan: Number(row.auto_ban) === 1,
    setting,
    proxy: proxyOfSetting(setting),
    paramOverride: parseObject(row.param_override) ?? undefined,
  };
}

/** Custom GPTs are routed as one model family. */
export function selectionModel(model: string): string {
  if (model.startsWith('gpt-4-gizmo')) return 'gpt-4-gizmo-*';
  if (model.startsWith('gpt-4o-gizmo')) return 'gpt-4o-gizmo-*';
  return model;
}

/** Weighted random with smoothing: weight + 10, so weight 0 still gets traffic. */
function weightedPick(candidates: RelayChannel[]): RelayChannel {
  if (candidates.length === 1) return candidates[0]!;
  let total = 0;
  for (const c of candidates) total += Math.max(0, c.weight) + 10;
  let draw = Math.random() * total;
  for (const c of candidates) {
    draw -= Math.max(0, c.weight) + 10;
    if (draw < 0) return c;
  }
  return candidates[candidates.length - 1]!;
}

export class ChannelIndex {
  readonly breaker = new CircuitBreaker();
  #byId = new Map<number, RelayChannel>();
  #tiers = new Map<string, Map<string, Tier[]>>();
  #rebuilding: Promise<void> | undefined;
  #dirty = false;
  #timer?: NodeJS.Timeout;
  #unsubscribe?: () => void;
  /** Resolves when the first build finished (requests wait for it only at start). */
  #ready: Promise<void> | undefined;
  /** Date.now() of the last rebuild that finished (0: none yet); the metrics' cache age. */
  builtAt = 0;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    this.#unsubscribe = onChannelsChanged(this.ctx, () => this.refresh());
    await channelEvents(this.ctx).start();
    this.#ready = this.refresh();
    await this.#ready;
    const seconds = Math.max(1, this.ctx.config.syncFrequency);
    this.#timer = setInterval(() => void this.refresh().catch(() => undefined), seconds * 1000);
    this.#timer.unref();
  }

  stop(): void {
    this.#unsubscribe?.();
    if (this.#timer) clearInterval(this.#timer);
  }

  /** Rebuilds soon; resolves when a rebuild that started after this call has finished. */
  refresh(): Promise<void> {
    if (this.#rebuilding) {
      this.#dirty = true;
      return this.#rebuilding;
    }
    const run = (async () => {
      try {
        do {
          this.#dirty = false;
          await this.#rebuild();
        } while (this.#dirty);
      } finally {
        this.#rebuilding = undefined;
      }
    })();
    this.#rebuilding = run;
    return run;
  }

  async #rebuild(): Promise<void> {
    const rows = await this.ctx.db.selectFrom('channels').selectAll().execute();
    const byId = new Map<number, RelayChannel>();
    const tiers = new Map<string, Map<string, Tier[]>>();
    for (const row of rows) {
      const channel = toRelayChannel(row);
      byId.set(channel.id, channel);
      if (channel.status !== CHANNEL_STATUS.enabled) continue;
      for (const ability of abilityRowsFor(row)) {
        let models = tiers.get(ability.group);
        if (!models) tiers.set(ability.group, (models = new Map()));
        let list = models.get(ability.model);
        if (!list) models.set(ability.model, (list = []));
        let tier = list.find((t) => t.priority === channel.priority);
        if (!tier) list.push((tier = { priority: channel.priority, channels: [] }));
        tier.channels.push(channel);
      }
    }
    for (const models of tiers.values()) for (const list of models.values()) list.sort((a, b) => b.priority - a.priority);
    this.#byId = byId;
    this.#tiers = tiers;
    this.builtAt = Date.now();
  }

  /** Every channel, whatever its status (the metrics' scrape). */
  all(): IterableIterator<RelayChannel> {
    return this.#byId.values();
  }

  /** Any channel by id, whatever its status (the admin's sk-KEY-ID suffix). */
  byId(id: number): RelayChannel | undefined {
    return this.#byId.get(id);
  }

  /** Whether some enabled channel serves the model in the group. */
  has(group: string, model: string): boolean {
    return (this.#tiers.get(group)?.get(selectionModel(model))?.length ?? 0) > 0;
  }

  /** Distinct models of enabled channels in a group, sorted (for /v1/models). */
  models(group: string): string[] {
    return [...(this.#tiers.get(group)?.keys() ?? [])].sort();
  }

  /**
   * The channel for attempt `attempt` (0 = first try): tier `attempt` (the lowest once they
   * run out), channels already tried and channels whose circuit is open left out where any
   * other is left; weighted random inside the tier. `accept` narrows the candidates.
   */
  pick(group: string, model: string, attempt: number, tried: ReadonlySet<number>, accept?: (c: RelayChannel) => boolean): RelayChannel | undefined {
    const tiers = this.#tiers.get(group)?.get(selectionModel(model));
    if (!tiers || tiers.length === 0) return undefined;
    const start = Math.min(attempt, tiers.length - 1);
    // The preferred tier first, then the lower ones, then the higher ones.
    const order = [start];
    for (let i = start + 1; i < tiers.length; i++) order.push(i);
    for (let i = start - 1; i >= 0; i--) order.push(i);
    const now = Date.now();
    // `accept`: only channels that can serve this kind of request (the task relays' families).
    const usable = accept ? (c: RelayChannel) => c.status === CHANNEL_STATUS.enabled && accept(c) : (c: RelayChannel) => c.status === CHANNEL_STATUS.enabled;
    const rules: ((c: RelayChannel) => boolean)[] = [(c) => usable(c) && !tried.has(c.id) && this.breaker.allows(c.id, now), (c) => usable(c) && this.breaker.allows(c.id, now), usable];
    for (const rule of rules) {
      for (const i of order) {
        const candidates = tiers[i]!.channels.filter(rule);
        if (candidates.length > 0) {
          const chosen = weightedPick(candidates);
          this.breaker.picked(chosen.id, now);
          return chosen;
        }
      }
    }
    return undefined;
  }

  /** Takes a channel out of selection at once (automatic disable), before the rebuild lands. */
  markDisabled(id: number, status: number): void {
    const channel = this.#byId.get(id);
    if (channel) channel.status = status;
  }
}
