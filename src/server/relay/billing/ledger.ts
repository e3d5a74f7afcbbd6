/**
 * The ledger writer: reservations and settlements go through one queue and are written by a
 * group commit — one transaction carries every item waiting at that moment.
 *
 * - A reservation is written with the requests that arrived in the same turn of the event
 *   loop (or, when a batch is being written, with the next one); the request waits for its
 *   commit (it must know the money is there before calling upstream).
 * - A settlement is not waited for: it is written at the latest SETTLE_DELAY_MS after it was
 *   queued (sooner when MAX_BATCH are waiting, and at stop()), many in one transaction.
 *   A crash therefore loses at most the settlements of the last ~100 ms, each one whole: its
 *   journal row stays, and recovery at the next start refunds that reservation, so "quota
 *   taken = consume logs + open reservations" holds at every instant. Each settlement that
 *   charges something is also appended to the node's local journal file first (local-journal.ts)
 *   and the batch records how far it got, so the next start bills those delivered answers
 *   exactly once (journal-replay.ts) instead of serving them free.
 *
 * - A reservation the learned balances clearly cover is held in memory instead (quota-holds.ts):
 *   no write before the upstream call; its settlement charges the whole cost.
 *
 * One batch at a time per process: no two of our own transactions contend for the same user
 * row. A batch that fails is retried on deadlocks; on other errors its items are written one
 * per transaction so a single bad item cannot hold the others back.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { LedgerStatements, type HeldInMemory, type ReserveItem, type ReserveOutcome, type SettleItem, type SettleResult } from './ledger-sql';
import { ledgerStore, type LedgerStore, type SqlRunner } from './ledger-store';
import { QuotaHolds } from './quota-holds';
import { LocalJournal, type Checkpoint } from './local-journal';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { nowSeconds } from '../../../shared/time';

export type { ReserveOutcome, SettleItem, SettleResult } from './ledger-sql';

/** Settlements wait at most this long for a batch (plus one write): the crash-loss window. */
export const SETTLE_DELAY_MS = 50;
/**
 * Items per transaction. Larger batches are much cheaper per item: with many users, tokens
 * and models, each log index gets a different page dirtied per row, and SQLite writes every
 * dirtied page to the WAL once per commit (measured on 200k+ rows with spread keys: about 75 µs
 * a row in batches of 25, 65 in batches of 100, 37 in batches of 400). But SQLite writes on the
 * event loop, so a batch holds requests up while it runs (5–15 ms at 400), and the loop
 * serves sockets between batches (see #loop).
 */
const MAX_BATCH = 400;
/** A settlement that keeps failing alone is given up after this many tries (its reservation stays open). */
const MAX_SETTLE_TRIES = 12;
const MAX_BACKOFF_MS = 30_000;
/** A request waits at most this long for its reservation to be written. */
const RESERVE_WAIT_MS = 5000;
/** While the database is down, one write probes it this often; requests between fail at once. */
const PROBE_EVERY_MS = 1000;
/** How often books nobody holds anything on are dropped. */
const PRUNE_EVERY_MS = 10_000;

export interface ReserveRequest {
  userId: number;
  tokenId: number;
  tokenLimited: boolean;
  amount: number;
}

export type Reservation = { ok: true; id: string } | Exclude<ReserveOutcome, { ok: true }>;

interface PendingReserve {
  item: ReserveItem;
  resolve(outcome: ReserveOutcome): void;
  reject(err: unknown): void;
  /** Its request was refused for taking too long: a late success is given back. */
  abandoned: boolean;
}

interface PendingSettle {
  item: SettleItem;
  /** Date.now() when it was queued (settlement lag). */
  queuedAt: number;
  /** Its number in the local journal (undefined: not journaled). */
  number: number | undefined;
  tries: number;
  notBefore: number;
  resolve(result: SettleResult): void;
}

function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '40P01' || code === '40001' || code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where the time from a settlement's queueing to its commit goes (the metrics, when enabled). */
export interface SettlementLagObserver {
  observeMs(ms: number): void;
}

export class Ledger {
  /** NODE_NAME: recovery at start refunds this node's leftovers only. */
  readonly node: string;
  /** Random per process start. */
  readonly instance = randomBytes(6).toString('hex');
  readonly #sql: LedgerStatements;
  readonly #store: LedgerStore;
  #seq = 0;
  #reserves: PendingReserve[] = [];
  #settles: PendingSettle[] = [];
  #running = false;
  #soon = false;
  #settleDue = false;
  #timer: NodeJS.Timeout | undefined;
  #idle: (() => void)[] = [];
  #stopped = false;
  readonly #holds = new QuotaHolds();
  #prunedAt = Date.now();
  /** Set while the database is unreachable (from the first failed write to the next success). */
  #downSince: number | undefined;
  #lastFailure = 0;
  #lastError: unknown;
  /** Open once start() made its file and checkpoint row (absent: DATA_DIR not writable). */
  readonly #journal: LocalJournal;
  /** Told each committed settlement's lag (set by the metrics; absent, nothing is measured). */
  settlementLag: SettlementLagObserver | undefined;

  constructor(
    private readonly ctx: AppContext,
    node = ctx.config.nodeName || hostname(),
    private readonly onError: (message: string, err: unknown) => void = () => undefined,
  ) {
    this.node = node.slice(0, 128);
    this.#sql = new LedgerStatements(ctx.dialect);
    this.#store = ledgerStore(ctx.db, ctx.dialect);
    this.#journal = new LocalJournal(ctx.config.dataDir, this.node, this.instance);
  }

  /**
   * Opens the local journal: its checkpoint row first, so no journal file ever exists without
   * one. Without a writable DATA_DIR the ledger runs as before (a crash loses the last batch).
   */
  async start(): Promise<void> {
    await this.ctx.db.insertInto('ledger_checkpoints').values({ instance: this.instance, node: this.node, applied_low: 0, applied_above: '', updated_at: nowSeconds() }).execute();
    try {
      this.#journal.open();
    } catch (err) {
      this.onError('local settlement journal unavailable (DATA_DIR not writable): a kill -9 may leave the last ~100 ms of answers unbilled', err);
    }
  }

  /**
   * What a running stream delivered so far, journaled locally (never written to the database
   * while the process lives): a crash bills the stream for it.
   */
  progress(item: SettleItem): void {
    if (!this.#journal.isOpen) return;
    if (this.#holds.isHeld(item.reservationId)) item.memoryHold = true;
    this.#journal.progress(item);
  }

  /** Settlements queued and not yet written. */
  get pending(): number {
    return this.#settles.length + this.#reserves.length;
  }

  /** Milliseconds the oldest settlement still queued has waited (0: none queued); read at a metrics scrape. */
  oldestPendingMs(now = Date.now()): number {
    let oldest = now;
    for (const s of this.#settles) if (s.queuedAt < oldest) oldest = s.queuedAt;
    return now - oldest;
  }

  /** Reservations held in memory now (no journal row); read at a metrics scrape. */
  get heldInMemory(): number {
    return this.#holds.size;
  }

  /** Whether the database failed the last write (and no write has succeeded since). */
  get databaseDown(): boolean {
    return this.#downSince !== undefined;
  }

  /**
   * Takes `amount` from the user (and token) before an upstream call; resolves once committed.
   * While the database is down no request is admitted on memory alone (its charge could not be
   * written if the outage outlasted the process), and reservations fail at once between probes.
   */
  reserve(request: ReserveRequest): Promise<Reservation> {
    if (this.#stopped) return Promise.reject(new Error('ledger stopped'));
    if (this.#downSince !== undefined && Date.now() - this.#lastFailure < PROBE_EVERY_MS) return Promise.reject(this.#lastError);
    const id = `${this.instance}-${(++this.#seq).toString(36)}`;
    if (this.#downSince === undefined && this.#holds.tryHold(id, request.userId, request.tokenId, request.tokenLimited, request.amount)) return Promise.resolve({ ok: true, id });
    return new Promise<ReserveOutcome>((resolve, reject) => {
      const pending: PendingReserve = { item: { id, ...request }, resolve, reject, abandoned: false };
      // A database that stopped answering must not hold the request: it is refused after a
      // while, and a reservation that still commits later is given back at once.
      const deadline = setTimeout(() => {
        pending.abandoned = true;
        reject(Object.assign(new Error('database did not answer in time'), { code: 'ETIMEDOUT' }));
      }, RESERVE_WAIT_MS);
      pending.resolve = (outcome) => {
        clearTimeout(deadline);
        if (pending.abandoned) {
          if (outcome.ok)
            void this.settle({
              reservationId: id,
              userId: request.userId,
              tokenId: request.tokenId,
              tokenLimited: request.tokenLimited,
              channelId: 0,
              reserved: request.amount,
              quota: 0,
              countUsage: false,
            });
          return;
        }
        resolve(outcome);
      };
      pending.reject = (err) => {
        clearTimeout(deadline);
        reject(err);
      };
      this.#reserves.push(pending);
      this.#kickSoon();
    }).then((outcome) => (outcome.ok ? { ok: true as const, id } : outcome));
  }

  /**
   * Queues a final charge (or refund); resolves with what was charged once committed. The
   * item is the ledger's from here on (it marks memory holds on it).
   */
  settle(item: SettleItem): Promise<SettleResult> {
    if (this.#holds.isHeld(item.reservationId)) {
      // A failed request on a memory hold: nothing was written, so nothing is.
      if (item.quota === 0 && !item.countUsage && !item.log) {
        this.#holds.release(item.reservationId);
        this.#journal.forget(item.reservationId);
        return Promise.resolve({ charged: 0, userQuotaAfter: 0 });
      }
      item.memoryHold = true;
      this.#holds.grow(item.reservationId, item.quota);
    }
    // A refund needs no journal line (recovery refunds an open reservation anyway) unless the
    // stream left progress that must not be billed after all.
    const journaled = this.#journal.isOpen && (item.quota > 0 || item.log !== undefined || this.#journal.hasProgress(item.reservationId));
    const number = journaled ? this.#journal.final(item) : undefined;
    return new Promise<SettleResult>((resolve) => {
      this.#settles.push({ item, queuedAt: Date.now(), number, tries: 0, notBefore: 0, resolve });
      if (this.#settles.length >= MAX_BATCH) this.#settleDue = true;
      this.#armTimer();
      this.#kick();
    });
  }

  /** Writes everything queued now (tests, shutdown). */
  async flush(): Promise<void> {
    for (let round = 0; round < 100 && (this.#running || this.pending > 0); round++) {
      this.#settleDue = true;
      for (const s of this.#settles) s.notBefore = 0;
      await new Promise<void>((resolve) => {
        this.#idle.push(resolve);
        this.#kick();
      });
    }
  }

  /** Refuses new reservations and writes what is queued (SIGTERM). */
  async stop(): Promise<void> {
    this.#stopped = true;
    const deadline = Date.now() + 10_000;
    while (this.pending > 0 && Date.now() < deadline) {
      this.#settleDue = true;
      for (const s of this.#settles) s.notBefore = 0;
      await new Promise<void>((resolve) => {
        this.#idle.push(resolve);
        this.#kick();
      });
      if (this.pending > 0) await sleep(50);
    }
    if (this.#timer) clearTimeout(this.#timer);
    const clean = this.#journal.settled;
    this.#journal.close();
    // Nothing left to replay: the checkpoint row goes with the files.
    if (clean)
      await this.ctx.db
        .deleteFrom('ledger_checkpoints')
        .where('instance', '=', this.instance)
        .execute()
        .catch(() => undefined);
  }

  #armTimer(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#settleDue = true;
      this.#kick();
    }, SETTLE_DELAY_MS);
  }

  /** After the requests already read from the sockets in this turn joined the batch. */
  #kickSoon(): void {
    if (this.#soon || this.#running) return;
    this.#soon = true;
    setImmediate(() => {
      this.#soon = false;
      this.#kick();
    });
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#loop().finally(() => {
      this.#running = false;
      const waiting = this.#idle;
      this.#idle = [];
      for (const resolve of waiting) resolve();
      // Items that arrived while the last batch was finishing.
      if (this.#reserves.length > 0 || (this.#settleDue && this.#readySettles() > 0)) this.#kick();
      else if (this.#settles.length > 0) this.#armTimer();
    });
  }

  #readySettles(): number {
    const now = Date.now();
    return this.#settles.filter((s) => s.notBefore <= now).length;
  }

  /** Writes batches until nothing is due; between two batches, waiting sockets are served. */
  async #loop(): Promise<void> {
    let wrote = false;
    for (;;) {
      const now = Date.now();
      const settles: PendingSettle[] = [];
      if (this.#settleDue) {
        const later: PendingSettle[] = [];
        for (const s of this.#settles) (s.notBefore <= now && settles.length < MAX_BATCH ? settles : later).push(s);
        this.#settles = later;
        if (later.length === 0) this.#settleDue = false;
      }
      const reserves = this.#reserves.splice(0, MAX_BATCH);
      if (settles.length === 0 && reserves.length === 0) return;
      if (wrote) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.#write(settles, reserves);
      wrote = true;
    }
  }

  async #write(settles: PendingSettle[], reserves: PendingReserve[]): Promise<void> {
    try {
      await this.#transaction(settles, reserves);
      if (this.#downSince !== undefined) this.onError(`database back after ${Math.round((Date.now() - this.#downSince) / 1000)} s; settlements resume`, undefined);
      this.#downSince = undefined;
      return;
    } catch (err) {
      if (isDatabaseUnavailable(err)) {
        // The database, not an item: nothing is split or given up; settlements wait for it.
        if (this.#downSince === undefined) {
          this.#downSince = Date.now();
          this.onError('database unavailable: settlements are kept and retried, new requests refused until it is back', err);
        }
        this.#lastFailure = Date.now();
        this.#lastError = err;
        for (const s of settles) this.#retryLater(s, err, true);
        for (const r of reserves) r.reject(err);
        return;
      }
      this.onError('ledger batch failed, writing its items one by one', err);
    }
    // Alone, each item either goes through or fails by itself.
    for (const s of settles) {
      try {
        await this.#transaction([s], []);
      } catch (err) {
        this.#retryLater(s, err);
      }
    }
    for (const r of reserves) {
      try {
        await this.#transaction([], [r]);
      } catch (err) {
        r.reject(err);
      }
    }
  }

  /** `outage`: the database was down, which never counts against the item's tries. */
  #retryLater(s: PendingSettle, err: unknown, outage = false): void {
    if (!outage) s.tries++;
    if (s.tries >= MAX_SETTLE_TRIES) {
      // Its reservation stays open and is refunded at the next start (a memory hold took
      // nothing): the ledger still adds up.
      this.onError(`settlement of reservation ${s.item.reservationId} given up`, err);
      this.#holds.release(s.item.reservationId);
      if (s.number !== undefined) this.#journal.giveUp(s.number);
      s.resolve({ charged: 0, userQuotaAfter: 0 });
      return;
    }
    s.notBefore = Date.now() + (outage ? PROBE_EVERY_MS : Math.min(MAX_BACKOFF_MS, 100 * 2 ** s.tries));
    this.#settles.push(s);
    this.#armTimer();
  }

  /**
   * One batch in one transaction, which also reads the balances it leaves (the figures memory
   * holds are admitted against, and the quota warning's). Memory holds settled here stop
   * counting once it committed: their charges are in those figures.
   */
  async #transaction(settles: PendingSettle[], reserves: PendingReserve[]): Promise<void> {
    const now = nowSeconds();
    const settling = new Set(settles.filter((s) => s.item.memoryHold).map((s) => s.item.reservationId));
    const held: HeldInMemory = {
      user: (userId) => this.#holds.heldOnUser(userId, settling),
      token: (tokenId) => this.#holds.heldOnToken(tokenId, settling),
    };
    const items = [...settles.map((s) => s.item), ...reserves.map((r) => r.item)];
    const numbers = settles.flatMap((s) => (s.number === undefined ? [] : [s.number]));
    const checkpoint = numbers.length > 0 ? this.#journal.checkpointWith(numbers) : undefined;
    const userIds = items.map((i) => i.userId);
    const tokenIds = items.filter((i) => i.tokenId > 0 && i.tokenLimited).map((i) => i.tokenId);
    for (let attempt = 1; ; attempt++) {
      try {
        const { charged, outcomes, balances } = await this.#store.transaction(async (trx) => {
          const charged =
            settles.length > 0
              ? await this.#sql.settle(
                  trx,
                  settles.map((s) => s.item),
                  now,
                )
              : [];
          const outcomes =
            reserves.length > 0
              ? await this.#sql.reserve(
                  trx,
                  this.node,
                  this.instance,
                  reserves.map((r) => r.item),
                  now,
                  held,
                )
              : [];
          if (checkpoint) await this.#writeCheckpoint(trx, checkpoint, now);
          return { charged, outcomes, balances: await this.#sql.balances(trx, userIds, tokenIds) };
        });
        for (const id of settling) this.#holds.release(id);
        if (checkpoint) this.#journal.committed(numbers);
        if (this.settlementLag && settles.length > 0) {
          const committedAt = Date.now();
          for (const s of settles) this.settlementLag.observeMs(committedAt - s.queuedAt);
        }
        for (const [userId, quota] of balances.users) this.#holds.learnUser(userId, quota);
        for (const [tokenId, remain] of balances.tokens) this.#holds.learnToken(tokenId, remain);
        this.#pruneSometimes();
        settles.forEach((s, n) => s.resolve({ charged: charged[n]!, userQuotaAfter: balances.users.get(s.item.userId) ?? 0 }));
        reserves.forEach((r, n) => r.resolve(outcomes[n]!));
        return;
      } catch (err) {
        if (attempt >= 5 || !isRetryable(err)) throw err;
        await sleep(5 * attempt + Math.random() * 10);
      }
    }
  }

  /** Moves this process's checkpoint row (made anew if someone removed it). */
  async #writeCheckpoint(trx: SqlRunner, checkpoint: Checkpoint, now: number): Promise<void> {
    const moved = await trx.run('UPDATE ledger_checkpoints SET applied_low = ?, applied_above = ?, updated_at = ? WHERE instance = ?', [checkpoint.low, checkpoint.above, now, this.instance]);
    if (moved.changes === 0) {
      await trx.run('INSERT INTO ledger_checkpoints (instance, node, applied_low, applied_above, updated_at) VALUES (?, ?, ?, ?, ?)', [
        this.instance,
        this.node,
        checkpoint.low,
        checkpoint.above,
        now,
      ]);
    }
  }

  #pruneSometimes(): void {
    const now = Date.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    this.#holds.prune();
  }
}
