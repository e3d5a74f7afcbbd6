/**
 * `/metrics` in cluster mode (WORKERS=2, the real server as a child process, SQLite): requests
 * spread over both workers (one connection each; the primary hands connections out in turn)
 * and every scrape, whichever worker it lands on, reads the sum of both workers' counters.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects';
import { freePort } from '../helpers/ports';
import { parseExposition, valueOf } from '../helpers/prometheus';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { openDatabase, parseDsn, type Db } from '../../src/server/db/connect';
import { migrateToLatest } from '../../src/server/db/migrate';
import { insertChannel } from '../helpers/channels';

const TOKEN = 'cluster-scrape-secret-0123456789';
const MODEL = 'gpt-4o-mini';

/** One request on a connection of its own (so that consecutive ones go to different workers). */
function onNewConnection(url: string, method: string, path: string, headers: Record<string, string>, payload?: unknown): Promise<{ status: number; text: string }> {
  const body = payload === undefined ? '' : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(!DIALECTS[0]!.url)('metrics of a cluster (WORKERS=2)', () => {
  let database: TestDatabase;
  let db: Db;
  let fake: FakeOpenAI;
  let child: ChildProcess | undefined;
  let url: string;
  let apiKey: string;
  let channelId: number;
  const output: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(DIALECTS[0]!);
    fake = await startFakeOpenAI();
    fake.defaultReply = { text: 'hello', usage: { prompt: 9, completion: 2 } };
    db = await openDatabase(parseDsn(database.sqlDsn, database.sqlitePath), { maxConnections: 2 });
    await migrateToLatest(db.db, db.dialect);
    const k = db.db;
    const username = `mc${randomBytes(3).toString('hex')}`;
    await k.insertInto('users').values({ username, password: '', access_token: null, aff_code: null, deleted_at: null, quota: 100_000_000 }).execute();
    const userId = (await k.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const key = randomBytes(24).toString('hex');
    await k.insertInto('tokens').values({ user_id: userId, key, name: 'metrics', remain_quota: 0, unlimited_quota: true, allow_ips: '', deleted_at: null }).execute();
    apiKey = `sk-${key}`;
    channelId = (await insertChannel(k, { type: 1, key: 'sk-fake-good', name: 'fake', base_url: fake.url, models: MODEL, group: 'default' }, { abilities: true })).id;

    url = `http://127.0.0.1:${await freePort()}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? '',
        WORKERS: '2',
        PORT: new URL(url).port,
        HOST: '127.0.0.1',
        DATA_DIR: database.dataDir,
        SQLITE_PATH: database.sqlitePath,
        SQL_DSN: database.sqlDsn,
        SESSION_SECRET: 'cluster-metrics-session-secret-0123456789',
        NODE_NAME: 'mcm',
        GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
        METRICS_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) =>
        output.push(
          ...text
            .split('\n')
            .filter(Boolean)
            .map((l) => l.slice(0, 300)),
        ),
      );
    }
    const deadline = Date.now() + 90_000;
    while (!output.some((l) => l.includes('all 2 workers listen'))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`cluster did not start:\n${output.slice(-30).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    await db?.close();
    await fake?.close();
    await database?.drop();
  }, 60_000);

  it('adds up both workers in every scrape', async () => {
    const scrape = async () => {
      const res = await onNewConnection(url, 'GET', '/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(res.status, output.slice(-20).join('\n')).toBe(200);
      return parseExposition(res.text);
    };
    const before = await scrape();
    const labels = { channel: String(channelId), model: MODEL, status_class: '2xx' };
    const requests = 8;
    for (let n = 0; n < requests; n++) {
      const res = await onNewConnection(url, 'POST', '/v1/chat/completions', { authorization: `Bearer ${apiKey}` }, { model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
    }
    // Four scrapes on new connections: both workers answer some, each with the whole host's count.
    for (let n = 0; n < 4; n++) {
      const e = await scrape();
      expect(valueOf(e, 'switchyard_relay_requests_total', labels) - valueOf(before, 'switchyard_relay_requests_total', labels)).toBe(requests);
      expect(e.types.get('switchyard_relay_duration_seconds')).toBe('histogram');
      expect(valueOf(e, 'switchyard_relay_duration_seconds_count', labels) - valueOf(before, 'switchyard_relay_duration_seconds_count', labels)).toBe(requests);
    }
    // Both workers served: the fake saw the two workers' connections (one pool per process).
    expect(new Set(fake.requests.map((r) => r.remotePort)).size).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
