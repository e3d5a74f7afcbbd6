/**
 * The probes: /healthz answers while the process lives; /readyz answers 503 when the database
 * is cut (behind the test's own TCP proxy), when migrations are missing, and from the moment
 * a real server process gets SIGTERM, while the requests it already has still finish.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parseDsn } from '../../src/server/db/connect';
import { migrateToLatest } from '../../src/server/db/migrate';
import { Readiness } from '../../src/server/health/readiness';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects';
import { freePort } from '../helpers/ports';
import { startTestServer, type TestServer } from '../helpers/server';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { exitOf, processSandbox } from '../helpers/server-process';

async function probe(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('probes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0]!);
  });
  afterAll(async () => s?.close());

  it('answers /healthz and /readyz without a session, and not under /api', async () => {
    const health = await probe(`${s.url}/healthz`);
    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await probe(`${s.url}/readyz`);
    expect(ready).toEqual({ status: 200, body: { status: 'ready', database: 'ok', migrations: 'done', draining: false } });
    expect((await fetch(`${s.url}/api/readyz`)).status).toBe(404);
  });

  it('reports not ready once draining, still alive', async () => {
    const other = await startTestServer(DIALECTS[0]!);
    try {
      other.app.startDraining();
      const ready = await probe(`${other.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not ready', draining: true, database: 'ok' });
      expect((await probe(`${other.url}/healthz`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('readiness of a database without its migrations', () => {
  it('is pending until the migrations ran', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-ready-'));
    const database = await openDatabase(parseDsn('', join(dir, 'empty.db')));
    try {
      const readiness = new Readiness(database.db, database.dialect);
      expect(await readiness.check()).toEqual({ ready: false, database: 'ok', migrations: 'pending', draining: false });
      // Concurrent probes share one check.
      const [a, b] = [readiness.check(), readiness.check()];
      expect(a).toBe(b);
      await a;
      await migrateToLatest(database.db, database.dialect);
      expect(await readiness.check()).toEqual({ ready: true, database: 'ok', migrations: 'done', draining: false });
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const dialect of DIALECTS.filter((d) => d.name !== 'sqlite')) {
  describe.skipIf(!dialect.url)(`readiness under a database fault [${dialect.name}]`, () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let s: TestServer;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const target = new URL(database.sqlDsn);
      proxy = await startTcpProxy(target.hostname, Number(target.port));
      s = await startTestServer(dialect, { database: { ...database, sqlDsn: proxy.through(database.sqlDsn) } });
    });
    afterAll(async () => {
      await s?.close();
      await proxy?.close();
      await database?.drop();
    });

    it('flips to 503 when the database is cut or stalls, back to 200 when it returns', async () => {
      expect((await probe(`${s.url}/readyz`)).status).toBe(200);

      await proxy.cut();
      const cut = await probe(`${s.url}/readyz`);
      expect(cut.status).toBe(503);
      expect(cut.body).toMatchObject({ status: 'not ready', database: 'unreachable', draining: false });
      // The process itself is fine.
      expect((await probe(`${s.url}/healthz`)).status).toBe(200);

      await proxy.restore();
      await until('ready again after the cut', async () => (await probe(`${s.url}/readyz`)).status === 200);

      // A network that stops answering: the probe still answers, quickly, with 503.
      proxy.stall();
      const started = Date.now();
      const stalled = await probe(`${s.url}/readyz`);
      expect(stalled.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(5_000);
      await proxy.restore();
      await until('ready again after the stall', async () => (await probe(`${s.url}/readyz`)).status === 200);
    }, 60_000);
  });
}

describe('drain on SIGTERM', () => {
  const { dataDir, track } = processSandbox('switchyard-drain-');

  it('reports not ready first, finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const running = track(
      spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: process.cwd(),
        env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SQLITE_PATH: join(dataDir, 'switchyard.db'), DRAIN_DELAY: '2' },
        stdio: ['ignore', 'ignore', 'ignore'],
      }),
    );
    // Generous: tsx compiles the server on start, slow on a loaded machine.
    await until('the server to be ready', async () => running.exitCode === null && (await probe(`${url}/readyz`)).status === 200, 90_000);

    // A login whose body is only half sent when the signal comes: a request in flight.
    const body = JSON.stringify({ username: 'root', password: '123456' });
    const half = Math.floor(body.length / 2);
    let inFlight: { end(chunk: string): void } | undefined;
    const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, half));
      inFlight = req;
    });
    await new Promise((r) => setTimeout(r, 200));

    running.kill('SIGTERM');
    await until(
      '/readyz to answer 503',
      async () => {
        const ready = await probe(`${url}/readyz`);
        return ready.status === 503 && ready.body.draining === true;
      },
      5_000,
    );
    // Alive, and still serving during the delay.
    expect((await probe(`${url}/healthz`)).status).toBe(200);

    // After the delay the listener closes: new connections are refused ...
    await until(
      'the listener to close',
      async () => {
        try {
          await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
          return false;
        } catch {
          return true;
        }
      },
      10_000,
    );
    expect(running.exitCode).toBeNull();
    // ... while the request in flight is still answered in full.
    inFlight!.end(body.slice(half));
    const done = await reply;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.text)).toMatchObject({ success: true, data: { username: 'root' } });
    expect(await exitOf(running)).toBe(0);
  }, 150_000);
});
