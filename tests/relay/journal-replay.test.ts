/**
 * The start of a node replays the local settlement journals its earlier processes left
 * (billing/journal-replay.ts): exactly the settlements their checkpoint rows do not cover, a
 * running stream's last progress, a settlement at most once even when two journals hold it
 * (a replay that died half-way), nothing from a journal without a checkpoint row; the files and
 * rows go, and a second start changes nothing.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';
import { seedUser, type SeededUser } from './seed';
import type { SettleItem } from '../../src/server/relay/billing/ledger-sql';
import type { JournalRecord } from '../../src/server/relay/billing/local-journal';

const NODE = 'replay-node';
/** Above Linux's largest pid: no such process. */
const DEAD_PID = 4_194_400;

function item(reservationId: string, userId: number, quota: number): SettleItem {
  return { reservationId, userId, tokenId: 0, tokenLimited: false, channelId: 0, reserved: 0, quota, countUsage: true, memoryHold: true };
}

function writeJournal(dataDir: string, instance: string, records: JournalRecord[]): void {
  const dir = join(dataDir, 'ledger');
  mkdirSync(dir, { recursive: true });
  // A torn last line, as a kill in the middle of a write leaves it.
  writeFileSync(join(dir, `${NODE}.${instance}.${DEAD_PID}.0.wal`), records.map((r) => JSON.stringify(r)).join('\n') + '\n{"k":"f","n":99,"it');
}

describeEachDialect('settlement journal replay at start', (dialect) => {
  let first: TestServer;
  let user: SeededUser;
  const started: TestServer[] = [];
  beforeAll(async () => {
    first = await startTestServer(dialect, { env: { NODE_NAME: NODE } });
    user = await seedUser(first, 1_000_000);
  }, 60_000);
  afterAll(async () => {
    for (const s of started) await s.close();
    await first?.close();
  });

  async function books() {
    const row = await first.app.ctx.db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', user.id).executeTakeFirstOrThrow();
    return { quota: Number(row.quota), used: Number(row.used_quota), requests: Number(row.request_count) };
  }

  it('bills what the checkpoints do not cover, once, and forgets the journals', async () => {
    const db = first.app.ctx.db;
    const dataDir = first.database.dataDir;
    const now = Math.floor(Date.now() / 1000);
    // X: settlements 1 and 3 were written, 2 and 4 were not; r4 was still streaming.
    writeJournal(dataDir, 'aaaaaaaaaaaa', [
      { k: 'f', n: 1, item: item('r1', user.id, 100) },
      { k: 'p', item: item('r4', user.id, 40) },
      { k: 'f', n: 2, item: item('r2', user.id, 200) },
      { k: 'f', n: 3, item: item('r3', user.id, 300) },
      { k: 'p', item: item('r5', user.id, 70) },
      { k: 'p', item: item('r4', user.id, 50) },
      { k: 'f', n: 4, item: item('r5', user.id, 80) },
    ]);
    // Y: a later start that replayed r2 (its own number 1) and wrote it, then died.
    writeJournal(dataDir, 'bbbbbbbbbbbb', [{ k: 'f', n: 1, item: item('r2', user.id, 200) }]);
    // Z: no checkpoint row: nothing tells what was written, so nothing is replayed.
    writeJournal(dataDir, 'cccccccccccc', [{ k: 'f', n: 1, item: item('r9', user.id, 900) }]);
    await db
      .insertInto('ledger_checkpoints')
      .values([
        { instance: 'aaaaaaaaaaaa', node: NODE, applied_low: 1, applied_above: '3', updated_at: now },
        { instance: 'bbbbbbbbbbbb', node: NODE, applied_low: 1, applied_above: '', updated_at: now },
      ])
      .execute();
    const before = await books();

    const second = await startTestServer(dialect, { database: first.database, env: { NODE_NAME: NODE } });
    started.push(second);
    const after = await books();
    // r5's settlement (80) and r4's last progress (50); r1, r2 and r3 were written already.
    expect(before.quota - after.quota).toBe(130);
    expect(after.used - before.used).toBe(130);
    expect(after.requests - before.requests).toBe(2);
    expect(readdirSync(join(dataDir, 'ledger')).filter((f) => f.includes('.aaaaaaaaaaaa.') || f.includes('.bbbbbbbbbbbb.') || f.includes('.cccccccccccc.'))).toEqual([]);
    const rows = await db.selectFrom('ledger_checkpoints').select('instance').where('instance', 'in', ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc']).execute();
    expect(rows).toEqual([]);

    // The replayed settlements are journaled and written by the second start: a third one
    // (the second stopped cleanly) has nothing to do.
    await second.close();
    started.pop();
    const third = await startTestServer(dialect, { database: first.database, env: { NODE_NAME: NODE } });
    started.push(third);
    expect(await books()).toEqual(after);
  }, 120_000);
});
