/**
 * Whether this process should be sent traffic: its database answers, every migration has run
 * and it is not draining. Load balancers and orchestrators poll it often, so one check is
 * cheap: a `SELECT 1` bounded by a short timeout, and the migration table read only until it
 * was once found complete (migrations never un-run).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/connect';
import { pendingMigrations } from '../db/migrate';

/** A database that has not answered `SELECT 1` by then counts as unreachable (a stalled network). */
export const READINESS_DB_TIMEOUT_MS = 2_000;

export interface ReadinessReport {
  ready: boolean;
  database: 'ok' | 'unreachable';
  migrations: 'done' | 'pending' | 'unknown';
  draining: boolean;
}

export class Readiness {
  private draining = false;
  private migrationsDone = false;
  private running: Promise<ReadinessReport> | undefined;

  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DialectName,
  ) {}

  /** From now on the process reports not ready, while it still serves what it is sent. */
  startDraining(): void {
    this.draining = true;
  }

  /**
   * Probes are unauthenticated and not rate limited: concurrent ones share the check under
   * way, so a flood of them costs the database one query at a time.
   */
  check(): Promise<ReadinessReport> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<ReadinessReport> {
    const database = await this.ping();
    const migrations = database === 'ok' ? await this.migrations() : 'unknown';
    const draining = this.draining;
    return { ready: database === 'ok' && migrations === 'done' && !draining, database, migrations, draining };
  }

  private async ping(): Promise<ReadinessReport['database']> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'unreachable'>((resolve) => {
      timer = setTimeout(() => resolve('unreachable'), READINESS_DB_TIMEOUT_MS);
    });
    const query = sql`SELECT 1`.execute(this.db).then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async migrations(): Promise<ReadinessReport['migrations']> {
    if (this.migrationsDone) return 'done';
    try {
      // A slave node (or a cluster worker) does not migrate: it is ready once a master did.
      this.migrationsDone = (await pendingMigrations(this.db, this.dialect)).length === 0;
      return this.migrationsDone ? 'done' : 'pending';
    } catch {
      return 'unknown';
    }
  }
}
