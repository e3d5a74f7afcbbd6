/**
 * Browser tests: Debian's Chromium against the real server on a free port with a throw-away
 * database, rate limits off. The console is built into the run's own folder (a rebuild of
 * dist/web by someone else's `npm start` cannot pull it away mid-run), the server fresh.
 * The port and data folder are chosen once in the runner and inherited by the workers.
 */
import { defineConfig } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

// The runner chooses; workers inherit through the environment.
const isRunner = !process.env.E2E_DATA_DIR;
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
if (isRunner) process.on('exit', () => rmSync(process.env.E2E_DATA_DIR!, { recursive: true, force: true }));
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/playwright-artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npx vite build --outDir ${join(dataDir, 'web')} --emptyOutDir --logLevel warn && npm run -s build:server && node dist/server/main.js`,
    url: `${baseURL}/api/status`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SQLITE_PATH: join(dataDir, 'e2e.db'),
      WEB_DIST_DIR: join(dataDir, 'web'),
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
    },
  },
});
