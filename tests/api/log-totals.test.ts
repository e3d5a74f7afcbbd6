/**
 * Log totals at scale (issue #6): the logs' indexes after the migrations, and the totals
 * the log list and stat answer (from the hourly totals where the database keeps them, from
 * the page itself when it is the last one) always equal COUNT(*) and SUM(quota) over the
 * logs, through inserts, updates, deletes, rollbacks and a rebuild of the hourly totals.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database, NewLog } from '../../src/server/db/tables';
import * as hourTotalsMigration from '../../src/server/db/migrations/2026-11-21-004-log-hour-totals';
import { hasHourTotals } from '../../src/server/services/logs/log.repository';
import { LOG_TYPE } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';

const HOUR = 3600;

describeEachDialect('log totals', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let db: Kysely<Database>;
  /** First second of an hour two days back: the seeded logs sit around it. */
  let base = 0;

  interface Filter {
    type?: number;
    start?: number;
    end?: number;
    username?: string;
  }

  /** The truth: COUNT(*) and SUM(quota) of consumption over the logs themselves. */
  async function truth(f: Filter): Promise<{ total: number; consumed: number }> {
    let q = db.selectFrom('logs');
    if (f.start !== undefined) q = q.where('created_at', '>=', f.start);
    if (f.end !== undefined) q = q.where('created_at', '<=', f.end);
    if (f.username !== undefined) q = q.where('username', '=', f.username);
    const total = await (f.type === undefined ? q : q.where('type', '=', f.type)).select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const consumed = await q
      .where('type', '=', LOG_TYPE.consume)
      .select(sql<number | string | null>`sum(quota)`.as('q'))
      .executeTakeFirstOrThrow();
    return { total: Number(total.n), consumed: Number(consumed.q ?? 0) };
  }

  function query(f: Filter): string {
    const parts = [
      f.type !== undefined ? `type=${f.type}` : '',
      f.start !== undefined ? `start_timestamp=${f.start}` : '',
      f.end !== undefined ? `end_timestamp=${f.end}` : '',
      f.username !== undefined ? `username=${f.username}` : '',
    ];
    return parts.filter(Boolean).join('&');
  }

  /** Ranges with whole hours, partial hours at either end, open ends and none at all. */
  function filters(): Filter[] {
    const ranges: Array<Pick<Filter, 'start' | 'end'>> = [
      {},
      { start: base },
      { start: base + 1 },
      { end: base + HOUR - 1 },
      { end: base + HOUR },
      { start: base - 1, end: base + 2 * HOUR },
      { start: base + 10, end: base + 3 * HOUR + 10 },
      { start: base, end: base + HOUR - 1 },
      { start: base + 100, end: base + 200 },
      { start: base + HOUR, end: base + HOUR },
      { start: base - 2 * HOUR, end: base + 9 * HOUR },
    ];
    const out: Filter[] = [];
    for (const range of ranges) for (const type of [undefined, LOG_TYPE.consume, LOG_TYPE.topup]) out.push({ ...range, ...(type === undefined ? {} : { type }) });
    // Filters the hourly totals cannot answer, for comparison.
    out.push({ username: 'carol' }, { username: 'dave', type: LOG_TYPE.consume, start: base + 10, end: base + 3 * HOUR + 10 });
    return out;
  }

  /** Every filter's list total (counted, and from a last page) and stat quota against the truth. */
  async function expectExactTotals(stage: string): Promise<void> {
    for (const f of filters()) {
      const want = await truth(f);
      const q = query(f);
      const counted = (await root.get(`/api/log/?page_size=1&${q}`)).body.data;
      expect(counted.total, `${stage}: total of ${q}`).toBe(want.total);
      expect(counted.items).toHaveLength(Math.min(1, want.total));
      const pastTheEnd = (await root.get(`/api/log/?p=500&page_size=100&${q}`)).body.data;
      expect(pastTheEnd, `${stage}: total past the end of ${q}`).toMatchObject({ total: want.total, items: [] });
      const whole = (await root.get(`/api/log/?page_size=100&${q}`)).body.data;
      if (want.total < 100) expect(whole.items, `${stage}: rows of ${q}`).toHaveLength(want.total);
      expect(whole.total, `${stage}: total from the page of ${q}`).toBe(want.total);
      const stat = (await root.get(`/api/log/stat?${q}`)).body;
      expect(stat.data?.quota, `${stage}: quota of ${q}`).toBe(want.consumed);
    }
    if (hasHourTotals(dialect.name)) {
      const kept = await db.selectFrom('log_hour_totals').select(['hour', 'type', 'n', 'quota']).orderBy('hour').orderBy('type').execute();
      const grouped = await db
        .selectFrom('logs')
        .select([sql<number>`created_at - created_at % 3600`.as('hour'), 'type', sql<number>`count(*)`.as('n'), sql<number>`sum(quota)`.as('quota')])
        .groupBy([sql`created_at - created_at % 3600`, 'type'])
        .orderBy('hour')
        .orderBy('type')
        .execute();
      const numbers = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.hour, r.type, r.n, r.quota].map(Number));
      expect(numbers(kept), `${stage}: hourly totals`).toEqual(numbers(grouped));
    }
  }

  /** Logs at the edges and inside of hours around `base`, of every type, in one statement. */
  function seedRows(): NewLog[] {
    const rows: NewLog[] = [];
    const types = [LOG_TYPE.topup, LOG_TYPE.consume, LOG_TYPE.consume, LOG_TYPE.manage, LOG_TYPE.system, LOG_TYPE.consume];
    let n = 0;
    for (let hour = -1; hour <= 5; hour++) {
      for (const offset of [0, 1, 10, 1799, 3598, 3599]) {
        const type = types[n % types.length]!;
        rows.push({ user_id: 1, username: n % 3 === 0 ? 'carol' : 'dave', type, created_at: base + hour * HOUR + offset, quota: type === LOG_TYPE.consume ? 100 + n : 0, content: '' });
        n++;
      }
    }
    return rows;
  }

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    db = s.app.ctx.db;
    base = Math.floor(Date.now() / 1000 / HOUR) * HOUR - 48 * HOUR;
    await db.deleteFrom('logs').execute();
    await db.insertInto('logs').values(seedRows()).execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('indexes the logs by time with type and quota, no longer by type first nor by token id', async () => {
    const names = async (): Promise<string[]> => {
      if (dialect.name === 'sqlite') return (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs'`.execute(db)).rows.map((r) => r.name);
      if (dialect.name === 'postgres') return (await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'logs'`.execute(db)).rows.map((r) => r.name);
      return (await sql<{ name: string }>`SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = database() AND table_name = 'logs'`.execute(db)).rows.map(
        (r) => r.name,
      );
    };
    const indexes = await names();
    expect(indexes).toContain('idx_logs_created_at_type_quota');
    expect(indexes).not.toContain('idx_logs_created_at_type');
    expect(indexes).not.toContain('idx_logs_type_created_at');
    for (const column of ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group']) expect(indexes).toContain(`idx_logs_${column}_created_at`);
    // No query filters logs by token id: that index is gone (one fewer per log insert).
    expect(indexes).not.toContain('idx_logs_token_id_created_at');
  });

  it('keeps hourly totals exactly where the log repository reads them', async () => {
    const found = await db
      .selectFrom('log_hour_totals')
      .select('hour')
      .limit(1)
      .execute()
      .then(() => true)
      .catch(() => false);
    expect(found).toBe(hasHourTotals(dialect.name));
    expect(hasHourTotals(dialect.name)).toBe(dialect.name !== 'mysql');
  });

  it('answers the same totals as counting the logs, for every range and type', async () => {
    await expectExactTotals('seeded');
  });

  it('follows logs moved between hours and types, and quota changed', async () => {
    const ids = (await db.selectFrom('logs').select('id').orderBy('id').execute()).map((r) => r.id);
    await db
      .updateTable('logs')
      .set({ created_at: base + 2 * HOUR + 5, type: LOG_TYPE.consume, quota: 4242 })
      .where('id', 'in', ids.slice(0, 5))
      .execute();
    await db
      .updateTable('logs')
      .set({ quota: sql`quota + 7` })
      .where('type', '=', LOG_TYPE.consume)
      .where('id', 'in', ids.slice(10, 20))
      .execute();
    await db.updateTable('logs').set({ content: 'edited' }).where('id', 'in', ids.slice(20, 25)).execute();
    await expectExactTotals('updated');
  });

  it('counts nothing a rolled back transaction inserted, and everything a batch inserted', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('logs').values(seedRows()).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectExactTotals('rolled back');
    const batch = Array.from({ length: 300 }, (_, i): NewLog => ({
      user_id: 1,
      username: 'dave',
      type: i % 4 === 0 ? LOG_TYPE.system : LOG_TYPE.consume,
      created_at: base + ((i * 7919) % (6 * HOUR)),
      quota: i,
      content: '',
    }));
    for (let i = 0; i < batch.length; i += 100)
      await db
        .insertInto('logs')
        .values(batch.slice(i, i + 100))
        .execute();
    await expectExactTotals('batch inserted');
  });

  it('drops the hours the clean-up of old logs emptied', async () => {
    const res = await root.delete(`/api/log/?target_timestamp=${base + HOUR}`);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toBeGreaterThan(0);
    await expectExactTotals('cleaned');
    if (hasHourTotals(dialect.name)) {
      const left = await db
        .selectFrom('log_hour_totals')
        .select(['hour', 'n'])
        .where((eb) => eb.or([eb('hour', '<', base + HOUR), eb('n', '=', 0)]))
        .execute();
      expect(left).toEqual([]);
    }
  });

  it('rebuilds the totals of existing logs when the migration runs', async () => {
    if (!hasHourTotals(dialect.name)) return;
    await hourTotalsMigration.down(db, dialect.name);
    await db.insertInto('logs').values(seedRows()).execute();
    await hourTotalsMigration.up(db, dialect.name);
    await expectExactTotals('migrated over existing logs');
  });

  it('empties the totals with the logs', async () => {
    if (dialect.name === 'postgres') await sql`TRUNCATE logs`.execute(db);
    else await db.deleteFrom('logs').execute();
    await expectExactTotals('emptied');
    if (hasHourTotals(dialect.name)) expect(await db.selectFrom('log_hour_totals').selectAll().execute()).toEqual([]);
  });
});
