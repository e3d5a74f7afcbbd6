/**
 * Collects consumption in memory per (user, username, model, hour) and writes it to
 * quota_data in one go (docs/logs.md#dashboard), so the relay never waits on the dashboard.
 * A flush is scheduled DataExportInterval minutes after the first record following the
 * previous flush; `stop()` flushes what is left, so a SIGTERM loses nothing. Each node
 * aggregates its own traffic; rows are added to with atomic updates.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables';
import type { OptionsService } from '../options/options.service';
import { addQuotaBucket, type QuotaBucket } from './quota-data.repository';

export interface QuotaUsage {
  userId: number;
  username: string;
  model: string;
  quota: number;
  /** Prompt + completion tokens. */
  tokens: number;
  /** Unix seconds of the request. */
  createdAt: number;
}

const HOUR = 3600;

export class QuotaDataAggregator {
  #buckets = new Map<string, QuotaBucket>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: OptionsService,
    private readonly onError: (err: unknown) => void = (err) => console.error(`quota data flush failed: ${err instanceof Error ? err.message : String(err)}`),
  ) {}

  /** Buckets waiting to be written. */
  get pending(): number {
    return this.#buckets.size;
  }

  record(usage: QuotaUsage): void {
    const createdAt = usage.createdAt - (usage.createdAt % HOUR);
    this.#add({ userId: usage.userId, username: usage.username, modelName: usage.model, createdAt, count: 1, quota: usage.quota, tokenUsed: usage.tokens });
    this.#schedule();
  }

  #add(bucket: QuotaBucket): void {
    const key = JSON.stringify([bucket.userId, bucket.username, bucket.modelName, bucket.createdAt]);
    const existing = this.#buckets.get(key);
    if (!existing) {
      this.#buckets.set(key, { ...bucket });
      return;
    }
    existing.count += bucket.count;
    existing.quota += bucket.quota;
    existing.tokenUsed += bucket.tokenUsed;
  }

  #schedule(): void {
    if (this.#timer || this.#stopped) return;
    const minutes = Math.max(1, this.options.number('DataExportInterval'));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(this.onError);
    }, minutes * 60_000);
    // Never keeps the process alive: shutdown flushes through stop().
    this.#timer.unref();
  }

  /**
   * Writes every pending bucket. Flushes run one after another; buckets that could not be
   * written go back into memory (merged with newer records) for the next flush.
   */
  flush(): Promise<void> {
    const run = this.#flushing.then(() => this.#writePending());
    this.#flushing = run.catch(() => undefined);
    return run;
  }

  async #writePending(): Promise<void> {
    const batch = [...this.#buckets.values()];
    this.#buckets = new Map();
    for (let i = 0; i < batch.length; i++) {
      try {
        await addQuotaBucket(this.db, batch[i]!);
      } catch (err) {
        for (const unwritten of batch.slice(i)) this.#add(unwritten);
        this.#schedule();
        throw err;
      }
    }
  }

  /** Stops scheduling and writes what is left. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
