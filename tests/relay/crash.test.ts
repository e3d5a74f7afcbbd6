/**
 * kill -9 in the middle of a load, on every database: right after the crash the books
 * balance with the reservations still open (money taken = consume logs + open
 * reservations). Once the node is back (same NODE_NAME and DATA_DIR) every answer delivered
 * at least 100 ms before the kill is billed exactly once (its request id is in exactly one
 * consume log), streams cut by the kill are billed for what the journal knew they delivered,
 * the rest of the reservations is refunded with a system log line, and money taken = consume
 * logs. The figures (delivered before the kill, billed after) are printed per database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { openDatabase, parseDsn, type Db } from '../../src/server/db/connect';
import { insertChannel } from '../helpers/channels';
import { freePort } from '../helpers/ports';

const USER_QUOTA = 50_000_000;

/** The node's log lines (shown when the test fails). */
const serverLog: string[] = [];

function startNode(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (text: string) => {
      for (const line of text.split('\n')) if (line && !line.includes('relay error')) serverLog.push(line.slice(0, 300));
      if (serverLog.length > 200) serverLog.splice(0, serverLog.length - 200);
    });
  }
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

/** How many of these requests have a progress line in the node's local settlement journal. */
function streamsInJournal(dataDir: string, requestIds: string[]): number {
  const dir = join(dataDir, 'ledger');
  const text = readdirSync(dir)
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('');
  const progress = text.split('\n').filter((line) => line.startsWith('["p",'));
  return requestIds.filter((id) => progress.some((line) => line.includes(id))).length;
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
  let slow: FakeOpenAI;
  let db: Db;
  let child: ChildProcess | undefined;
  let env: Record<string, string>;
  let url: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    fake = await startFakeOpenAI();
    slow = await startFakeOpenAI();
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
    await slow?.close();
    await database?.drop();
  });

  it('bills every answer delivered before the crash once, streams cut by it for what they delivered, and refunds the rest', async () => {
    const k = db.db;
    const username = `crash${randomBytes(3).toString('hex')}`;
    await k.insertInto('users').values({ username, password: '', access_token: null, aff_code: null, deleted_at: null, quota: USER_QUOTA }).execute();
    const userId = (await k.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const key = randomBytes(24).toString('hex');
    await k.insertInto('tokens').values({ user_id: userId, key, name: 'crash', remain_quota: 0, unlimited_quota: true, allow_ips: '', deleted_at: null }).execute();
    for (const [name, upstream, model] of [
      ['fake', fake, 'gpt-4o-mini'],
      ['slow', slow, 'gpt-4o'],
    ] as const) {
      await insertChannel(k, { type: 1, key: 'sk-fake-good', name, base_url: upstream.url, models: model, group: 'default' }, { abilities: true });
    }

    const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${url}/v1`, maxRetries: 0, timeout: 60_000 });
    // The node rebuilds its channel index every second.
    await expect.poll(async () => (await client.models.list().catch(() => ({ data: [] }))).data.length, { timeout: 5000 }).toBe(2);

    fake.defaultReply = { text: 'several words that stream slowly to keep requests in flight', usage: { prompt: 50, completion: 12 }, delayMs: 60 };
    // Streams that are still running when the process dies (usage would only come at the end).
    slow.defaultReply = { text: Array.from({ length: 100 }, () => 'hello').join(' '), usage: { prompt: 40, completion: 100 }, delayMs: 150 };
    let stop = false;
    /** Request id → when its answer was fully delivered to the client (ms since epoch). */
    const delivered = new Map<string, number>();
    const requestId = (response: Response) => response.headers.get('x-oneapi-request-id') ?? '';
    const load = Array.from({ length: 40 }, async (_, worker) => {
      for (let n = 0; !stop; n++) {
        try {
          if (worker % 2 === 0) {
            const { data: stream, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true }).withResponse();
            for await (const chunk of stream) void chunk;
            delivered.set(requestId(response), Date.now());
          } else {
            const { response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).withResponse();
            delivered.set(requestId(response), Date.now());
          }
        } catch {
          if (stop) return;
        }
      }
    });
    /** The long streams: request id → characters of answer received when the process died. */
    const cut = new Map<string, number>();
    const long = Array.from({ length: 4 }, async () => {
      let chars = 0;
      try {
        const { data: stream, response } = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true }).withResponse();
        cut.set(requestId(response), 0);
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta?.content;
          if (text) cut.set(requestId(response), (chars += text.length));
        }
        cut.delete(requestId(response));
      } catch {
        // cut by the kill, as intended
      }
    });
    // Let settlements commit (some logs written), reservations open, a batch be queued and the
    // long streams run a few seconds, then pull the plug.
    await expect.poll(async () => (await books(k, userId)).logs, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(5);
    // Each long stream's progress is in the node's journal (written about once a second while a
    // stream runs: a stream cut sooner may be known to it by nothing yet, and is not billed).
    await expect.poll(() => streamsInJournal(database.dataDir, [...cut.keys()]), { timeout: 30_000, interval: 100 }).toBe(4);
    await new Promise((r) => setTimeout(r, 300));
    const crashed = child!;
    const killedAt = Date.now();
    crashed.kill('SIGKILL');
    await exited(crashed);
    stop = true;
    await Promise.all([...load, ...long]);
    const atCrash = await books(k, userId);
    expect(atCrash.logs).toBeGreaterThan(0);
    expect(USER_QUOTA - atCrash.quota).toBe(atCrash.logSum + atCrash.openSum);
    expect(atCrash.used).toBe(atCrash.logSum);

    child = startNode(env);
    await waitUp(url, child);
    const after = await books(k, userId);
    expect(after.open).toBe(0);
    expect(USER_QUOTA - after.quota).toBe(after.logSum);
    expect(after.used).toBe(after.logSum);

    const logs = await k.selectFrom('logs').select(['other', 'content', 'completion_tokens']).where('user_id', '=', userId).where('type', '=', 2).execute();
    const billed = new Map<string, number>();
    const byId = new Map<string, (typeof logs)[number]>();
    for (const log of logs) {
      const id = String((JSON.parse(log.other) as { request_id?: unknown }).request_id ?? '');
      billed.set(id, (billed.get(id) ?? 0) + 1);
      byId.set(id, log);
    }
    const early = [...delivered].filter(([, at]) => at <= killedAt - 100).map(([id]) => id);
    const late = [...delivered].filter(([, at]) => at > killedAt - 100).map(([id]) => id);
    const unbilledEarly = early.filter((id) => !billed.has(id));
    const unbilledLate = late.filter((id) => !billed.has(id));
    const cutBilled = [...cut.keys()].filter((id) => billed.has(id));
    console.log(
      `kill -9 [${dialect.name}]: ${early.length} answers delivered ≥ 100 ms before the kill, ${unbilledEarly.length} of them unbilled; ` +
        `${late.length} in the last 100 ms, ${unbilledLate.length} unbilled; ${cut.size} streams cut by the kill, ${cutBilled.length} billed for what they delivered; ` +
        `${atCrash.logs} logs at the crash, ${after.logs} after the restart`,
    );
    expect(early.length).toBeGreaterThan(0);
    expect(unbilledEarly, serverLog.slice(-30).join('\n')).toEqual([]);
    // Nothing is billed twice.
    expect([...billed.values()].every((n) => n === 1)).toBe(true);
    // The long streams were cut with text delivered, and each is billed by the progress the
    // journal had (a second old at most): some of what the client got, never more (counted,
    // or — no encoding loaded in this node — about a token per four characters).
    expect(cut.size).toBe(4);
    for (const [id, chars] of cut) {
      const log = byId.get(id);
      expect(log, `stream ${id} cut after ${chars} characters is billed; the node said:\n${serverLog.slice(-30).join('\n')}`).toBeDefined();
      expect(log!.content).toContain('服务中断时仍在传输，按已送达内容计费');
      expect(log!.completion_tokens).toBeGreaterThan(0);
      expect(log!.completion_tokens).toBeLessThanOrEqual(Math.ceil(chars / 4) + 1);
    }
    if (atCrash.open > after.logs - atCrash.logs) {
      const system = await k.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 4).execute();
      expect(system.some((l) => l.content.includes('未结算请求的预扣额度'))).toBe(true);
    }
  }, 240_000);
});
