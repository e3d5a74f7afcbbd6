/**
 * The server as an operator runs it: a real process started from the environment, which
 * creates its data folder, keeps a generated session secret across restarts, and stops
 * cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server';
import { freePort } from '../helpers/ports';
import { exitOf } from '../helpers/server-process';

function startProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function waitForStatus(url: string, child: ChildProcess): Promise<void> {
  // Generous: tsx compiles the server on start, slow on a loaded two-core machine.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(url + '/api/status');
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not answer in time');
}

describe('server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-proc-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on a bare data folder, keeps sessions across a restart and stops on SIGTERM', async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SQLITE_PATH: join(dataDir, 'switchyard.db') };
    const url = `http://127.0.0.1:${port}`;

    const first = startProcess(env);
    await waitForStatus(url, first);
    expect(existsSync(join(dataDir, 'switchyard.db'))).toBe(true);
    const secret = readFileSync(join(dataDir, 'session-secret'), 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);

    const client = new ApiClient(url);
    const login = await client.post('/api/user/login', { username: 'root', password: '123456' });
    expect(login.body.success).toBe(true);

    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);

    const second = startProcess(env);
    try {
      await waitForStatus(url, second);
      // Same generated secret, so the cookie signed by the first process is still valid.
      expect(readFileSync(join(dataDir, 'session-secret'), 'utf8').trim()).toBe(secret);
      const self = await client.get('/api/user/self');
      expect(self.body.success).toBe(true);
      expect(self.body.data.username).toBe('root');
      // Only one root account after two starts.
      const again = await client.post('/api/user/login', { username: 'root', password: '123456' });
      expect(again.body.data.id).toBe(login.body.data.id);
    } finally {
      second.kill('SIGTERM');
      expect(await exitOf(second)).toBe(0);
    }
  }, 240_000);

  it('refuses to start with the literal SESSION_SECRET random_string', async () => {
    const child = startProcess({ PORT: '0', DATA_DIR: dataDir, SESSION_SECRET: 'random_string' });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toContain('SESSION_SECRET');
  }, 30_000);
});
