/**
 * Tokens and their owners in memory, so authenticating a relay request costs no query.
 *
 * An entry lives SYNC_FREQUENCY seconds at most; a token or user write on this node drops
 * the entry at once (change events), and with Redis other nodes drop theirs at once too.
 * Unknown keys are remembered as well (bounded), so a flood of bad keys cannot turn into a
 * flood of queries. A load that raced with an invalidation is answered but not kept.
 */
import type { AppContext } from '../../context';
import { asBool } from '../../db/tables';
import { changeEvents, type Change } from '../../plumbing/change-events';
import { compileAllowList, type IpAllowList } from '../../services/tokens/ip-allow-list';
import { findTokenByKey } from '../../services/tokens/token.repository';

export interface CachedToken {
  id: number;
  userId: number;
  /** The stored 48 characters (never logged or returned). */
  key: string;
  name: string;
  status: number;
  expiredTime: number;
  /** Kept roughly current by our own reservations; the database decides. */
  remainQuota: number;
  unlimited: boolean;
  /** Set when model limits are enabled (possibly empty: no model allowed). */
  modelLimits: ReadonlySet<string> | undefined;
  allowIps: IpAllowList | undefined;
  group: string;
}

export interface CachedUser {
  id: number;
  username: string;
  group: string;
  role: number;
  status: number;
  /** User setting `accept_unset_model_ratio_model` (models without a ratio are billed at 37.5). */
  acceptUnsetRatio: boolean;
  /** Parsed `users.setting` for the notifier. */
  setting: Record<string, unknown>;
}

interface Entry<T> {
  value: T;
  expires: number;
}

/** Unknown keys remembered at most; beyond that the oldest half is forgotten. */
const MAX_NEGATIVE = 10_000;

function parseSetting(text: string | null | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function modelSet(enabled: boolean, list: string): ReadonlySet<string> | undefined {
  if (!enabled) return undefined;
  return new Set(
    list
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  );
}

export class AuthCache {
  readonly #tokens = new Map<string, Entry<CachedToken | null>>();
  readonly #keyById = new Map<number, string>();
  readonly #users = new Map<number, Entry<CachedUser | null>>();
  readonly #loading = new Map<string, Promise<CachedToken | null>>();
  readonly #loadingUsers = new Map<number, Promise<CachedUser | null>>();
  #negatives = 0;
  /** Bumped by every invalidation: loads started before it are not kept. */
  #generation = 0;
  #unsubscribe?: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly ttlMs = Math.max(1, ctx.config.syncFrequency) * 1000,
  ) {}

  start(): void {
    this.#unsubscribe = changeEvents(this.ctx).on((change) => this.#onChange(change));
  }

  stop(): void {
    this.#unsubscribe?.();
  }

  /** The live token with this stored key, or null. */
  async token(key: string): Promise<CachedToken | null> {
    const hit = this.#tokens.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = this.#loadToken(key).finally(() => this.#loading.delete(key));
      this.#loading.set(key, pending);
    }
    return pending;
  }

  /** The live (not deleted) user, or null. */
  async user(id: number): Promise<CachedUser | null> {
    const hit = this.#users.get(id);
    if (hit && hit.expires > Date.now()) return hit.value;
    let pending = this.#loadingUsers.get(id);
    if (!pending) {
      pending = this.#loadUser(id).finally(() => this.#loadingUsers.delete(id));
      this.#loadingUsers.set(id, pending);
    }
    return pending;
  }

  /** Follows our own charges so the "remain ≤ 0" check of the next request is current. */
  adjustRemain(tokenId: number, delta: number): void {
    const key = this.#keyById.get(tokenId);
    const entry = key === undefined ? undefined : this.#tokens.get(key);
    if (entry?.value) entry.value.remainQuota += delta;
  }

  /** Forgets a token (after the relay changed its status itself). */
  forgetToken(tokenId: number): void {
    this.#generation++;
    const key = this.#keyById.get(tokenId);
    if (key !== undefined) this.#tokens.delete(key);
    this.#keyById.delete(tokenId);
  }

  #onChange(change: Change): void {
    if (change.topic !== 'tokens' && change.topic !== 'users') return;
    this.#generation++;
    if (change.topic === 'tokens') {
      if (change.ids.length === 0) {
        this.#tokens.clear();
        this.#keyById.clear();
        this.#negatives = 0;
      } else {
        for (const id of change.ids) this.forgetToken(id);
      }
    } else if (change.ids.length === 0) {
      this.#users.clear();
    } else {
      for (const id of change.ids) this.#users.delete(id);
    }
  }

  async #loadToken(key: string): Promise<CachedToken | null> {
    const generation = this.#generation;
    const row = await findTokenByKey(this.ctx.db, key);
    const value: CachedToken | null = row
      ? {
          id: row.id,
          userId: row.user_id,
          key: row.key,
          name: row.name,
          status: row.status,
          expiredTime: Number(row.expired_time),
          remainQuota: Number(row.remain_quota),
          unlimited: asBool(row.unlimited_quota),
          modelLimits: modelSet(asBool(row.model_limits_enabled), row.model_limits ?? ''),
          allowIps: compileAllowList(row.allow_ips),
          group: row.group ?? '',
        }
      : null;
    if (generation === this.#generation) this.#storeToken(key, value);
    return value;
  }

  #storeToken(key: string, value: CachedToken | null): void {
    if (value === null) {
      if (++this.#negatives > MAX_NEGATIVE) this.#dropNegatives();
    } else {
      this.#keyById.set(value.id, key);
    }
    this.#tokens.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  #dropNegatives(): void {
    let dropped = 0;
    for (const [key, entry] of this.#tokens) {
      if (entry.value === null) {
        this.#tokens.delete(key);
        if (++dropped >= MAX_NEGATIVE / 2) break;
      }
    }
    this.#negatives -= dropped;
  }

  async #loadUser(id: number): Promise<CachedUser | null> {
    const generation = this.#generation;
    const row = await this.ctx.db.selectFrom('users').select(['id', 'username', 'group', 'role', 'status', 'setting']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    let value: CachedUser | null = null;
    if (row) {
      const setting = parseSetting(row.setting);
      value = {
        id: row.id,
        username: row.username,
        group: row.group,
        role: row.role,
        status: row.status,
        acceptUnsetRatio: setting.accept_unset_model_ratio_model === true,
        setting,
      };
    }
    if (generation === this.#generation) this.#users.set(id, { value, expires: Date.now() + this.ttlMs });
    return value;
  }
}
