/**
 * Runs the migrations in src/server/db/migrations in name order. They are imported
 * statically (not read from disk) so the bundled server carries them.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { optimizeSqlite, type DialectName } from './connect';
import * as adoptReference from './migrations/2026-11-21-000-adopt-reference';
import * as initial from './migrations/2026-11-21-001-initial';
import * as relay from './migrations/2026-11-21-002-relay';
import * as logIndexes from './migrations/2026-11-21-003-log-indexes';
import * as logHourTotals from './migrations/2026-11-21-004-log-hour-totals';
import * as dropLogTokenIdIndex from './migrations/2026-11-21-005-drop-log-token-id-index';
import * as taskBilling from './migrations/2026-11-24-006-task-billing';
import * as sessions from './migrations/2026-11-24-007-sessions';
import * as responses from './migrations/2026-11-25-008-responses';
import * as ledgerCheckpoints from './migrations/2026-11-25-009-ledger-checkpoints';
import * as referenceColumnNames from './migrations/2026-11-26-010-reference-column-names';
import * as auditLog from './migrations/2026-11-26-011-audit-log';

interface DialectMigration {
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

const MIGRATIONS: Record<string, DialectMigration> = {
  '2026-11-21-000-adopt-reference': adoptReference,
  '2026-11-21-001-initial': initial,
  '2026-11-21-002-relay': relay,
  '2026-11-21-003-log-indexes': logIndexes,
  '2026-11-21-004-log-hour-totals': logHourTotals,
  '2026-11-21-005-drop-log-token-id-index': dropLogTokenIdIndex,
  '2026-11-24-006-task-billing': taskBilling,
  '2026-11-24-007-sessions': sessions,
  '2026-11-25-008-responses': responses,
  '2026-11-25-009-ledger-checkpoints': ledgerCheckpoints,
  '2026-11-26-010-reference-column-names': referenceColumnNames,
  '2026-11-26-011-audit-log': auditLog,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        ...(m.down ? { down: (db: Kysely<any>) => m.down!(db, this.dialect) } : {}),
      };
    }
    return out;
  }
}

function migratorFor(db: Kysely<any>, dialect: DialectName): Migrator {
  // Unordered: 000 (adopting a reference's database) sorts before the migrations an existing
  // database of ours has already run, and must still run there.
  return new Migrator({ db, provider: new StaticProvider(dialect), allowUnorderedMigrations: true });
}

/** Names of the migrations this database has not run yet (readiness of a node that does not migrate). */
export async function pendingMigrations(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const all = await migratorFor(db, dialect).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}

export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const migrator = migratorFor(db, dialect);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const why = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`database migration failed: ${why}`);
  }
  // A migration may have added indexes the statistics taken at open do not know yet.
  if (dialect === 'sqlite' && results?.length) await optimizeSqlite(db, true);
}
