/**
 * The ledger's statements, run by the group-commit writer inside one transaction per batch.
 *
 * Every quota change is a relative, conditional update (`quota = quota - ? WHERE quota >= ?`),
 * never a value computed from a read. Where a condition fails (someone is about to hit zero),
 * the row is read *locked* (FOR UPDATE; SQLite serialises writers) and the exact amount left is
 * taken instead, so no balance ever goes below zero and every log says what was really charged.
 *
 * Lock order in every transaction: journal rows, tokens, users, channels, logs — so two nodes'
 * batches cannot deadlock on each other in the common case (the writer retries if they do).
 */
import type { Insertable } from 'kysely';
import type { LogsTable } from '../../db/tables';
import type { DialectName } from '../../db/connect';
import type { SqlRunner } from './ledger-store';

type Trx = SqlRunner;

/** Ids per IN list and rows per multi-row INSERT at most: well under every database's limits. */
const CHUNK = 256;

export interface ReserveItem {
  id: string;
  userId: number;
  /** 0: no token (playground). */
  tokenId: number;
  /** A limited token must itself cover the amount. */
  tokenLimited: boolean;
  amount: number;
}

/** What this process holds in memory on a user or a limited token (see quota-holds.ts). */
export interface HeldInMemory {
  user(userId: number): number;
  token(tokenId: number): number;
}

/** Balances read inside a batch's transaction: users' quota, limited tokens' remaining quota. */
export interface Balances {
  users: Map<number, number>;
  tokens: Map<number, number>;
}

export type ReserveOutcome = { ok: true } | { ok: false; reason: 'user'; quota: number } | { ok: false; reason: 'token'; remain: number };

/** What a settlement did: the amount charged and the user's balance once the batch was applied. */
export interface SettleResult {
  charged: number;
  userQuotaAfter: number;
}

export interface SettleItem {
  reservationId: string;
  userId: number;
  tokenId: number;
  tokenLimited: boolean;
  channelId: number;
  /** What the reservation took. */
  reserved: number;
  /** What the request costs (0: a refund). */
  quota: number;
  /** Usage was non-zero: used_quota and request_count move (docs/billing.md#settlement). */
  countUsage: boolean;
  /** The reservation was held in memory (no journal row; `reserved` was never taken). */
  memoryHold?: boolean;
  /** The consume log row without its quota, which is filled with what was charged. */
  log?: Omit<Insertable<LogsTable>, 'quota'>;
}

/*
 * Statements come in a few lengths only. A statement's text depends on how many rows or ids
 * it carries, and SQLite keeps every statement the ledger ran prepared (ledger-store.ts):
 * with one text per length from 1 to 200, the log inserts alone held ~30 MB of prepared
 * statements once a busy gateway had seen every batch size, and each new size cost a prepare.
 * Now there are at most nine of each kind (lengths 1, 2, 4 … CHUNK).
 */

/** Rows for multi-row INSERTs: chunks whose lengths are powers of two (137 rows: 128, 8, 1). */
export function insertChunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length;) {
    let size = CHUNK;
    while (size > items.length - i) size >>= 1;
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

/** Ids for IN lists: chunks of CHUNK, the last padded to a power of two with its last id (a repeated id matches nothing more). */
export function idLists<T>(ids: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    let size = 1;
    while (size < chunk.length) size <<= 1;
    while (chunk.length < size) chunk.push(chunk[chunk.length - 1]!);
    out.push(chunk);
  }
  return out;
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Consume-log columns, in insert order (`group` quoted for every database). */
export const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'token_id',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'group',
  'other',
] as const;

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The values of the logs of `items[n]` for each n, in LOG_COLUMNS order, with the quota charged. */
function logValues(items: readonly SettleItem[], indexes: readonly number[], charged: readonly number[]): unknown[] {
  const values: unknown[] = [];
  for (const n of indexes) {
    const log = items[n]!.log as Record<string, unknown>;
    for (const c of LOG_COLUMNS) values.push(c === 'quota' ? charged[n] : (log[c] ?? (c === 'other' || c === 'content' ? '' : 0)));
  }
  return values;
}

export class LedgerStatements {
  /** FOR UPDATE where rows can be locked (SQLite serialises writers instead). */
  readonly #forUpdate: string;
  readonly #logInsertHead: string;

  constructor(dialect: DialectName) {
    this.#forUpdate = dialect === 'sqlite' ? '' : ' FOR UPDATE';
    const quote = dialect === 'mysql' ? (c: string) => `\`${c}\`` : (c: string) => `"${c}"`;
    this.#logInsertHead = `INSERT INTO logs (${LOG_COLUMNS.map(quote).join(', ')}) VALUES `;
  }

  /** `quota = quota - amount` only while at least `floor` is there; answers whether it moved. */
  async #takeUser(trx: Trx, userId: number, amount: number, floor: number): Promise<boolean> {
    return (await trx.run('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?', [amount, userId, floor])).changes > 0;
  }

  async #takeToken(trx: Trx, tokenId: number, amount: number, floor: number): Promise<boolean> {
    return (await trx.run('UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?', [amount, tokenId, floor])).changes > 0;
  }

  async #moveUser(trx: Trx, userId: number, amount: number): Promise<void> {
    if (amount !== 0) await trx.run('UPDATE users SET quota = quota - ? WHERE id = ?', [amount, userId]);
  }

  async #moveToken(trx: Trx, tokenId: number, amount: number): Promise<void> {
    if (amount !== 0) await trx.run('UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ?', [amount, tokenId]);
  }

  async #userQuota(trx: Trx, userId: number): Promise<number> {
    const { rows } = await trx.run(`SELECT quota FROM users WHERE id = ?${this.#forUpdate}`, [userId]);
    return Number(rows[0]?.quota ?? 0);
  }

  async #tokenRemain(trx: Trx, tokenId: number): Promise<number> {
    const { rows } = await trx.run(`SELECT remain_quota FROM tokens WHERE id = ?${this.#forUpdate}`, [tokenId]);
    return Number(rows[0]?.remain_quota ?? 0);
  }

  /**
   * Takes each item's amount from its user (and token: a limited one must cover it, an
   * unlimited one is only counted down, as the reference does) and journals it. Per user the
   * whole group is tried in one statement first; only when that fails are items tried one
   * by one, so a nearly empty balance admits exactly the requests it can pay for.
   */
  async reserve(trx: Trx, node: string, instance: string, items: readonly ReserveItem[], now: number, held: HeldInMemory): Promise<ReserveOutcome[]> {
    const outcomes = new Map<ReserveItem, ReserveOutcome>();
    for (const [userId, group] of groupBy(items, (i) => i.userId)) {
      if (!(await this.#reserveGroup(trx, userId, group, held))) {
        for (const item of group) outcomes.set(item, await this.#reserveOne(trx, item, held));
      } else {
        for (const item of group) outcomes.set(item, { ok: true });
      }
    }
    const accepted = items.filter((i) => outcomes.get(i)!.ok);
    for (const [tokenId, group] of groupBy(
      accepted.filter((i) => i.tokenId > 0 && !i.tokenLimited),
      (i) => i.tokenId,
    )) {
      await this.#moveToken(
        trx,
        tokenId,
        group.reduce((s, i) => s + i.amount, 0),
      );
    }
    for (const chunk of insertChunks(accepted)) {
      await trx.run(
        `INSERT INTO quota_reservations (id, node, instance, user_id, token_id, amount, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((i) => [i.id, node, instance, i.userId, i.tokenId, i.amount, now]),
      );
    }
    return items.map((i) => outcomes.get(i)!);
  }

  /**
   * All items of one user at once; undone and answered false when any part does not fit.
   * What this process holds in memory must stay covered too: it is not in the balance yet.
   */
  async #reserveGroup(trx: Trx, userId: number, group: readonly ReserveItem[], held: HeldInMemory): Promise<boolean> {
    const taken: [number, number][] = [];
    for (const [tokenId, items] of groupBy(
      group.filter((i) => i.tokenId > 0 && i.tokenLimited),
      (i) => i.tokenId,
    )) {
      const sum = items.reduce((s, i) => s + i.amount, 0);
      if (!(await this.#takeToken(trx, tokenId, sum, Math.max(sum, 1) + held.token(tokenId)))) {
        for (const [t, amount] of taken) await this.#moveToken(trx, t, -amount);
        return false;
      }
      taken.push([tokenId, sum]);
    }
    const total = group.reduce((s, i) => s + i.amount, 0);
    if (await this.#takeUser(trx, userId, total, Math.max(total, 1) + held.user(userId))) return true;
    for (const [t, amount] of taken) await this.#moveToken(trx, t, -amount);
    return false;
  }

  /** One item; a refusal reports what is left for others, i.e. without this process's memory holds. */
  async #reserveOne(trx: Trx, item: ReserveItem, held: HeldInMemory): Promise<ReserveOutcome> {
    const floor = Math.max(item.amount, 1);
    const limited = item.tokenId > 0 && item.tokenLimited;
    if (limited) {
      const onToken = held.token(item.tokenId);
      if (!(await this.#takeToken(trx, item.tokenId, item.amount, floor + onToken))) {
        return { ok: false, reason: 'token', remain: Math.max(0, (await this.#tokenRemain(trx, item.tokenId)) - onToken) };
      }
    }
    const onUser = held.user(item.userId);
    if (await this.#takeUser(trx, item.userId, item.amount, floor + onUser)) return { ok: true };
    if (limited) await this.#moveToken(trx, item.tokenId, -item.amount);
    return { ok: false, reason: 'user', quota: Math.max(0, (await this.#userQuota(trx, item.userId)) - onUser) };
  }

  /** Users' quota and limited tokens' remaining quota, as this transaction sees them. */
  async balances(trx: Trx, userIds: readonly number[], tokenIds: readonly number[]): Promise<Balances> {
    const out: Balances = { users: new Map(), tokens: new Map() };
    for (const ids of idLists([...new Set(userIds)])) {
      const { rows } = await trx.run(`SELECT id, quota FROM users WHERE id IN (${placeholders(ids.length)})`, ids);
      for (const row of rows) out.users.set(Number(row.id), Number(row.quota));
    }
    for (const ids of idLists([...new Set(tokenIds)])) {
      const { rows } = await trx.run(`SELECT id, remain_quota FROM tokens WHERE id IN (${placeholders(ids.length)})`, ids);
      for (const row of rows) out.tokens.set(Number(row.id), Number(row.remain_quota));
    }
    return out;
  }

  /**
   * Applies final charges: `charge − reserved` to user and token (the reservation's journal
   * row is removed; a row that is already gone — refunded by a recovery — means the whole
   * charge is new), used_quota/request_count to user, token and channel, and the consume
   * logs. Answers what was charged per item (the ledger reads the balances after the batch).
   */
  async settle(trx: Trx, items: readonly SettleItem[], now: number): Promise<number[]> {
    const open = await this.#lockJournal(
      trx,
      items.filter((i) => !i.memoryHold).map((i) => i.reservationId),
    );
    const delta = items.map((i) => i.quota - (open.has(i.reservationId) ? i.reserved : 0));
    const extra = [...delta];
    const index = new Map(items.map((item, n) => [item, n]));

    // Tokens first (lock order), then users: the whole net change in one statement each; a
    // limited token or a user without enough left becomes "tight" and is shared out exactly.
    const tightToken = new Map<number, number>();
    for (const [tokenId, group] of groupBy(
      items.filter((i) => i.tokenId > 0),
      (i) => i.tokenId,
    )) {
      const net = group.reduce((s, i) => s + delta[index.get(i)!]!, 0);
      const limited = group.some((i) => i.tokenLimited);
      if (!limited || net <= 0) await this.#moveToken(trx, tokenId, net);
      else if (!(await this.#takeToken(trx, tokenId, net, net))) {
        tightToken.set(tokenId, (await this.#tokenRemain(trx, tokenId)) + this.#refunds(group, delta, index));
      }
    }
    const tightUser = new Map<number, number>();
    for (const [userId, group] of groupBy(items, (i) => i.userId)) {
      const net = group.reduce((s, i) => s + delta[index.get(i)!]!, 0);
      if (net <= 0) await this.#moveUser(trx, userId, net);
      else if (!(await this.#takeUser(trx, userId, net, net))) {
        tightUser.set(userId, (await this.#userQuota(trx, userId)) + this.#refunds(group, delta, index));
      }
    }

    // Share out what the tight ones have, in order; what an item cannot get is given back to
    // the side that had already taken it in full.
    const backToUser = new Map<number, number>();
    const backToToken = new Map<number, number>();
    if (tightToken.size > 0 || tightUser.size > 0) {
      items.forEach((item, n) => {
        const want = delta[n]!;
        if (want <= 0) return;
        let grant = want;
        const userLeft = tightUser.get(item.userId);
        const tokenLeft = item.tokenId > 0 ? tightToken.get(item.tokenId) : undefined;
        if (userLeft !== undefined) grant = Math.min(grant, Math.max(0, userLeft));
        if (tokenLeft !== undefined) grant = Math.min(grant, Math.max(0, tokenLeft));
        if (userLeft !== undefined) tightUser.set(item.userId, userLeft - grant);
        if (tokenLeft !== undefined) tightToken.set(item.tokenId, tokenLeft - grant);
        extra[n] = grant;
        const shortfall = want - grant;
        if (shortfall > 0 && userLeft === undefined) backToUser.set(item.userId, (backToUser.get(item.userId) ?? 0) + shortfall);
        if (shortfall > 0 && item.tokenId > 0 && tokenLeft === undefined) {
          backToToken.set(item.tokenId, (backToToken.get(item.tokenId) ?? 0) + shortfall);
        }
      });
      for (const [tokenId] of tightToken) {
        const net = items.reduce((s, item, n) => (item.tokenId === tokenId ? s + extra[n]! : s), 0);
        await this.#moveToken(trx, tokenId, net);
      }
      for (const [userId] of tightUser) {
        const net = items.reduce((s, item, n) => (item.userId === userId ? s + extra[n]! : s), 0);
        await this.#moveUser(trx, userId, net);
      }
    }

    const charged = items.map((item, n) => (open.has(item.reservationId) ? item.reserved : 0) + extra[n]!);
    await this.#countUsage(trx, items, charged, backToUser, backToToken, now);
    const logged = items.flatMap((item, n) => (item.log ? [n] : []));
    for (const chunk of insertChunks(logged)) {
      const row = `(${placeholders(LOG_COLUMNS.length)})`;
      await trx.run(this.#logInsertHead + chunk.map(() => row).join(', '), logValues(items, chunk, charged));
    }
    for (const ids of idLists([...open])) await trx.run(`DELETE FROM quota_reservations WHERE id IN (${placeholders(ids.length)})`, ids);
    return charged;
  }

  #refunds(group: readonly SettleItem[], delta: number[], index: Map<SettleItem, number>): number {
    return group.reduce((s, i) => s + Math.max(0, -delta[index.get(i)!]!), 0);
  }

  async #lockJournal(trx: Trx, ids: string[]): Promise<Set<string>> {
    const open = new Set<string>();
    for (const chunk of idLists(ids)) {
      const { rows } = await trx.run(`SELECT id FROM quota_reservations WHERE id IN (${placeholders(chunk.length)})${this.#forUpdate}`, chunk);
      for (const row of rows) open.add(String(row.id));
    }
    return open;
  }

  /** used_quota / request_count of users, tokens and channels, plus any shortfall given back. */
  async #countUsage(trx: Trx, items: readonly SettleItem[], charged: number[], backToUser: Map<number, number>, backToToken: Map<number, number>, now: number): Promise<void> {
    const users = new Map<number, { used: number; requests: number }>();
    const tokens = new Map<number, number>();
    const channels = new Map<number, number>();
    items.forEach((item, n) => {
      const quota = charged[n]!;
      const u = users.get(item.userId) ?? { used: 0, requests: 0 };
      if (item.countUsage) {
        u.used += quota;
        u.requests += 1;
        if (item.channelId > 0) channels.set(item.channelId, (channels.get(item.channelId) ?? 0) + quota);
      }
      users.set(item.userId, u);
      if (item.tokenId > 0) tokens.set(item.tokenId, (tokens.get(item.tokenId) ?? 0) + (item.countUsage ? quota : 0));
    });
    for (const [tokenId, used] of [...tokens].sort((a, b) => a[0] - b[0])) {
      const back = backToToken.get(tokenId) ?? 0;
      await trx.run('UPDATE tokens SET used_quota = used_quota + ?, remain_quota = remain_quota + ?, accessed_time = ? WHERE id = ?', [used, back, now, tokenId]);
    }
    for (const [userId, u] of [...users].sort((a, b) => a[0] - b[0])) {
      const back = backToUser.get(userId) ?? 0;
      if (u.used === 0 && u.requests === 0 && back === 0) continue;
      await trx.run('UPDATE users SET used_quota = used_quota + ?, request_count = request_count + ?, quota = quota + ? WHERE id = ?', [u.used, u.requests, back, userId]);
    }
    for (const [channelId, used] of [...channels].sort((a, b) => a[0] - b[0])) {
      if (used !== 0) await trx.run('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?', [used, channelId]);
    }
  }
}
