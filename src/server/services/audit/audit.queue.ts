/**
 * Writes audit rows in the background: entries are queued and inserted in batches shortly
 * after, so recording a change never delays or fails the request that made it. A batch that
 * cannot be written is tried again a few times, then dropped with a warning that names the
 * error and the count only (the rows are masked already, but logs stay free of them).
 */
import type { Insertable, Kysely } from 'kysely';
import type { AuditLogsTable, Database } from '../../db/tables';

export type AuditRow = Insertable<AuditLogsTable>;

/** Milliseconds between the first queued entry and its batch's insert. */
const FLUSH_DELAY_MS = 200;
/** Rows per INSERT statement. */
const BATCH_SIZE = 200;
/** Tries of one batch before it is dropped. */
const ATTEMPTS = 4;
/** First wait between tries; doubled after each. */
const RETRY_BASE_MS = 250;
/** Entries kept while the database refuses them; older ones go first beyond this. */
const MAX_PENDING = 10_000;

export type AuditWarn = (message: string) => void;

export class AuditQueue {
  #pending: AuditRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly warn: AuditWarn = (message) => void process.stderr.write(`${message}\n`),
    private readonly retryBaseMs = RETRY_BASE_MS,
  ) {}

  push(row: AuditRow): void {
    this.#pending.push(row);
    if (this.#pending.length > MAX_PENDING) this.#pending.splice(0, this.#pending.length - MAX_PENDING);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, FLUSH_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes everything queued so far (after the batches already being written); never rejects. */
  flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const rows = this.#pending;
    this.#pending = [];
    this.#writing = this.#writing.then(() => this.#write(rows));
    return this.#writing;
  }

  async #write(rows: AuditRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH_SIZE) {
      const batch = rows.slice(i, i + BATCH_SIZE);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.db.insertInto('audit_logs').values(batch).execute();
          break;
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          if (attempt >= ATTEMPTS) {
            this.warn(`audit log: ${batch.length} entries dropped after ${attempt} tries: ${why}`);
            break;
          }
          this.warn(`audit log: writing ${batch.length} entries failed (try ${attempt} of ${ATTEMPTS}): ${why}`);
          await new Promise((resolve) => setTimeout(resolve, this.retryBaseMs * 2 ** (attempt - 1)));
        }
      }
    }
  }
}
