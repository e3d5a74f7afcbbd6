/**
 * The migrations on databases of our own: a fresh start writes no option row and names the
 * channel organisation as the reference does; a database our earlier versions made (channel
 * organisation in `openai_organization`) keeps its values under the reference's name; every
 * step can run again.
 */
import { Migrator, type Kysely, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, parseDsn, type DialectName } from '../../src/server/db/connect';
import { migrateToLatest } from '../../src/server/db/migrate';
import { adoptReferenceTables } from '../../src/server/db/adopt-reference';
import { columnsOf } from '../../src/server/db/schema-helpers';
import * as initial from '../../src/server/db/migrations/2026-11-21-001-initial';
import * as relay from '../../src/server/db/migrations/2026-11-21-002-relay';
import * as logIndexes from '../../src/server/db/migrations/2026-11-21-003-log-indexes';
import * as logHourTotals from '../../src/server/db/migrations/2026-11-21-004-log-hour-totals';
import * as dropLogTokenIdIndex from '../../src/server/db/migrations/2026-11-21-005-drop-log-token-id-index';
import * as taskBilling from '../../src/server/db/migrations/2026-11-24-006-task-billing';
import * as sessions from '../../src/server/db/migrations/2026-11-24-007-sessions';
import * as responses from '../../src/server/db/migrations/2026-11-25-008-responses';
import * as ledgerCheckpoints from '../../src/server/db/migrations/2026-11-25-009-ledger-checkpoints';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/dialects';
import { startTestServer } from '../helpers/server';

/** The migrations our versions before the adoption of reference databases ran. */
const EARLIER: Record<string, { up(db: Kysely<any>, dialect: DialectName): Promise<void> }> = {
  '2026-11-21-001-initial': initial,
  '2026-11-21-002-relay': relay,
  '2026-11-21-003-log-indexes': logIndexes,
  '2026-11-21-004-log-hour-totals': logHourTotals,
  '2026-11-21-005-drop-log-token-id-index': dropLogTokenIdIndex,
  '2026-11-24-006-task-billing': taskBilling,
  '2026-11-24-007-sessions': sessions,
  '2026-11-25-008-responses': responses,
  '2026-11-25-009-ledger-checkpoints': ledgerCheckpoints,
};

async function migrateEarlier(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const provider = {
    getMigrations: async () => Object.fromEntries(Object.entries(EARLIER).map(([name, m]) => [name, { up: (k: Kysely<any>) => m.up(k, dialect) } satisfies Migration])),
  };
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
}

describeEachDialect('schema migrations', (dialect) => {
  const dropped: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of dropped) await d.drop();
  });

  it('a fresh start writes no option row and names the organisation column as the reference does', async () => {
    const s = await startTestServer(dialect);
    try {
      const rows = await s.app.ctx.db.selectFrom('options').selectAll().execute();
      expect(rows).toEqual([]);
      // Every key still answers its value.
      const listed = (await (await s.root()).get('/api/option/')).body.data as { key: string }[];
      expect(listed.length).toBe([...s.app.ctx.options.catalogue.keys.values()].filter((d) => !d.secret).length);
      const columns = await columnsOf(s.app.ctx.db, dialect.name, 'channels');
      expect(columns.has('open_ai_organization')).toBe(true);
      expect(columns.has('openai_organization')).toBe(false);
      expect(columns.has('max_input_tokens')).toBe(true);
    } finally {
      await s.close();
    }
  });

  it("moves an earlier database's organisations to the reference's column, and runs again harmlessly", async () => {
    const database = await createTestDatabase(dialect);
    dropped.push(database);
    const { db, close } = await openDatabase(parseDsn(database.sqlDsn, database.sqlitePath), { maxConnections: 1 });
    try {
      await migrateEarlier(db, dialect.name);
      const raw = db as unknown as Kysely<any>;
      await raw.insertInto('channels').values({ name: 'old', key: 'sk-old', openai_organization: 'org-old' }).execute();
      await migrateToLatest(db, dialect.name);
      const row = await db.selectFrom('channels').select(['open_ai_organization', 'max_input_tokens']).where('name', '=', 'old').executeTakeFirstOrThrow();
      expect(row).toEqual({ open_ai_organization: 'org-old', max_input_tokens: 0 });
      expect((await columnsOf(db, dialect.name, 'channels')).has('openai_organization')).toBe(false);
      const before = await columnsOf(db, dialect.name, 'channels');
      await adoptReferenceTables(db, dialect.name);
      await migrateToLatest(db, dialect.name);
      expect(await columnsOf(db, dialect.name, 'channels')).toEqual(before);
    } finally {
      await close();
    }
  });

  it('runs the first migration again over its own half-made result (MySQL DDL is not transactional)', async () => {
    const database = await createTestDatabase(dialect);
    dropped.push(database);
    const { db, close } = await openDatabase(parseDsn(database.sqlDsn, database.sqlitePath), { maxConnections: 1 });
    try {
      await initial.up(db, dialect.name);
      // A start that stopped after the first migration's tables and indexes, before recording it.
      await initial.up(db, dialect.name);
      await migrateToLatest(db, dialect.name);
      expect((await columnsOf(db, dialect.name, 'channels')).has('open_ai_organization')).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('columnsOf', () => {
  it('answers an empty set for a table that does not exist', async () => {
    const database = await createTestDatabase({ name: 'sqlite', url: 'sqlite' });
    const { db, close } = await openDatabase(parseDsn('', database.sqlitePath), { maxConnections: 1 });
    try {
      expect((await columnsOf(db, 'sqlite', 'no_such_table')).size).toBe(0);
    } finally {
      await close();
      await database.drop();
    }
  });
});
