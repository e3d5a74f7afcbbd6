/**
 * kill -9 in the middle of a load, on every database: right after the crash the books
 * balance with the reservations still open (money taken = consume logs + open
 * reservations), and once the node is back (same NODE_NAME) the open reservations are
 * refunded with a system log line, leaving money taken = consume logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { openDatabase, parseDsn, type Db } from '../../src/server/db/connect';
import { abilityRowsFor } from '../../src/server/services/channels/abilities.sync';
import { freePort } from '../helpers/ports';

const USER_QUOTA = 50_000_000;


function startNode(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return child;
}

async function waitUp(url: string, child: ChildProcess): Promise<void> {
  // Generous: a cold tsx start on a busy shared machine can take a while.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url + '/api/status')).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

async function books(db: Db['db'], userId: number) {
  const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('sum'), eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const open = await db
    .selectFrom('quota_reservations')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('sum'), eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { quota: Number(user.quota), used: Number(user.used_quota), logSum: Number(logs.sum), logs: Number(logs.n), openSum: Number(open.sum), open: Number(open.n) };
}

describeEachDialect('relay ledger across kill -9', (dialect) => {
  let database: TestDatabase;
  let fake: FakeOpenAI;
  let db: Db;
  let child: ChildProcess | undefined;
  let env: Record<string, string>;
  let url: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    fake = await startFakeOpenAI();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: database.dataDir,
      SQLITE_PATH: database.sqlitePath,
      SQL_DSN: database.sqlDsn,
      SESSION_SECRET: 'crash-test-session-secret-0123456789',
      NODE_NAME: 'crash-node',
      SYNC_FREQUENCY: '1',
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
    };
    child = startNode(env);
    await waitUp(url, child);
    db = await openDatabase(parseDsn(database.sqlDsn, database.sqlitePath), { maxConnections: 2 });
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await db?.close();
    await fake?.close();
    await database?.drop();
  });

  it('balances with open reservations right after the crash, and without any after the restart', async () => {
    const k = db.db;
    const username = `crash${randomBytes(3).toString('hex')}`;
    await k.insertInto('users').values({ username, password: '', access_token: null, aff_code: null, deleted_at: null, quota: USER_QUOTA }).execute();
    const userId = (await k.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const key = randomBytes(24).toString('hex');
    await k.insertInto('tokens').values({ user_id: userId, key, name: 'crash', remain_quota: 0, unlimited_quota: true, allow_ips: '', deleted_at: null }).execute();
    await k.insertInto('channels').values({ type: 1, key: 'sk-fake-good', name: 'fake', base_url: fake.url, models: 'gpt-4o-mini', group: 'default', openai_organization: null, test_model: null, model_mapping: null, status_code_mapping: null, tag: null, setting: null, param_override: null }).execute();
    const channel = await k.selectFrom('channels').selectAll().where('name', '=', 'fake').executeTakeFirstOrThrow();
    await k.insertInto('abilities').values(abilityRowsFor(channel)).execute();

    const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${url}/v1`, maxRetries: 0, timeout: 30_000 });
    // The node rebuilds its channel index every second.
    await expect.poll(async () => (await client.models.list().catch(() => ({ data: [] }))).data.length, { timeout: 5000 }).toBeGreaterThan(0);

    fake.defaultReply = { text: 'several words that stream slowly to keep requests in flight', usage: { prompt: 50, completion: 12 }, delayMs: 60 };
    let stop = false;
    /** When each answer was fully delivered to its client (ms since epoch). */
    const delivered: number[] = [];
    const load = Array.from({ length: 40 }, async (_, worker) => {
      for (let n = 0; !stop; n++) {
        const stream = worker % 2 === 0;
        try {
          if (stream) {
            const s = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true });
            for await (const chunk of s) void chunk;
          } else {
            await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
          }
          delivered.push(Date.now());
        } catch {
          if (stop) return;
        }
      }
    });
    // Let settlements commit (some logs written), reservations open and a batch be queued, then pull the plug.
    await expect.poll(async () => (await books(k, userId)).logs, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(5);
    await new Promise((r) => setTimeout(r, 300));
    const crashed = child!;
    const killedAt = Date.now();
    crashed.kill('SIGKILL');
    await exited(crashed);
    stop = true;
    await Promise.all(load);

    const atCrash = await books(k, userId);
    console.log('at crash', dialect.name, JSON.stringify(atCrash));
    expect(atCrash.logs).toBeGreaterThan(0);
    expect(USER_QUOTA - atCrash.quota).toBe(atCrash.logSum + atCrash.openSum);
    expect(atCrash.used).toBe(atCrash.logSum);

    child = startNode(env);
    await waitUp(url, child);
    const after = await books(k, userId);
    console.log('after restart', dialect.name, JSON.stringify(after));
    // Every answer costs the same and each consume log is one answer: at least this many
    // answers delivered well before the kill were never billed.
    const early = delivered.filter((t) => t <= killedAt - 100).length;
    const all = delivered.filter((t) => t <= killedAt).length;
    console.log(`kill -9 [${dialect.name}]: ${all} answers delivered before the kill, ${early} of them ≥ 100 ms before; ${after.logs} billed; unbilled of those ≥ 100 ms before: at least ${Math.max(0, early - after.logs)}`);
    expect(after.open).toBe(0);
    expect(USER_QUOTA - after.quota).toBe(after.logSum);
    expect(after.logSum).toBe(atCrash.logSum);
    expect(after.used).toBe(after.logSum);
    if (atCrash.open > 0) {
      const system = await k.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 4).execute();
      expect(system.some((l) => l.content.includes('未结算请求的预扣额度'))).toBe(true);
    }
  }, 240_000);
});
