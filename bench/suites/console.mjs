// Console weight: the JavaScript the built console needs to show /login, measured in a real
// browser (Debian's Chromium through playwright-core): every script the page loads until
// the network is idle and the password field is visible, each gzipped (level 9) from the
// built file. Also every JavaScript file of the build, to show the routes are split.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fmt, printTable } from '../lib/report.mjs';
import { buildServer, npmScript, removeGatewayFiles, ROOT, stale, startGateway, stopGateway } from '../lib/gateway.mjs';

const WEB_DIR = join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BUDGET_BYTES = 300 * 1024;

/** Builds the console when dist/web is missing or older than its sources (scripts/start.mjs's rule). */
export async function ensureWebBuild(log) {
  if (!stale('dist/web/index.html', ['index.html', 'src/web', 'src/shared', 'resources', 'schemas', 'vite.config.ts', 'package.json'])) return;
  log('building the console (npm run build:web) ...');
  await npmScript('build:web');
}

const gzipBytes = (buf) => gzipSync(buf, { level: 9 }).length;

function builtFile(pathname) {
  const file = join(WEB_DIR, decodeURIComponent(pathname));
  return file.startsWith(WEB_DIR) && existsSync(file) ? readFileSync(file) : undefined;
}

function allBuiltScripts() {
  const dir = join(WEB_DIR, 'assets');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ name: f, gzip: gzipBytes(readFileSync(join(dir, f))) }));
}

export async function measureConsoleWeight(url, log) {
  const result = { scripts: [], all: allBuiltScripts(), rendered: false };
  let browser;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    const seen = new Map();
    page.on('response', (res) => {
      const u = new URL(res.url());
      if (u.origin === new URL(url).origin && (res.request().resourceType() === 'script' || u.pathname.endsWith('.js'))) seen.set(u.pathname, res);
    });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle', timeout: 60_000 });
    await page.locator('input[type=password]').first().waitFor({ state: 'visible', timeout: 30_000 });
    result.rendered = true;
    await page.waitForLoadState('networkidle');
    for (const [pathname, res] of seen) {
      const body = builtFile(pathname) ?? (await res.body());
      result.scripts.push({ name: pathname.replace(/^\/assets\//, ''), raw: body.length, gzip: gzipBytes(body) });
    }
  } catch (err) {
    result.error = String(err.message ?? err).split('\n')[0];
    log(`console weight: ${result.error}`);
  } finally {
    await browser?.close();
  }
  result.gzip = result.scripts.reduce((n, s) => n + s.gzip, 0);
  result.raw = result.scripts.reduce((n, s) => n + s.raw, 0);
  result.allGzip = result.all.reduce((n, s) => n + s.gzip, 0);
  result.print = () => {
    printTable(
      `Console: JavaScript loaded to show /login (${result.scripts.length} of ${result.all.length} built chunks)`,
      [
        ['script', 'name'],
        ['raw', (s) => fmt.kb(s.raw)],
        ['gzip', (s) => fmt.kb(s.gzip)],
      ],
      [...result.scripts].sort((a, b) => b.gzip - a.gzip).concat([{ name: 'total', raw: result.raw, gzip: result.gzip }]),
    );
    console.log(`Every built chunk together: ${fmt.kb(result.allGzip)} gzip in ${result.all.length} files.`);
  };
  return result;
}

export function consoleGoals(result, goals) {
  const failed = result.error ? `not measured: ${result.error}` : undefined;
  goals.add('console JavaScript to show /login ≤ 300 KB gzip', failed ? undefined : result.rendered && result.gzip <= BUDGET_BYTES, failed ?? `${fmt.kb(result.gzip)} in ${result.scripts.length} files`);
  const loaded = new Set(result.scripts.map((s) => s.name));
  const lazy = result.all.filter((s) => !loaded.has(s.name));
  goals.add(
    'console routes split (chunks /login does not load)',
    failed ? undefined : lazy.length > 0,
    failed ?? `${lazy.length} of ${result.all.length} chunks (${fmt.kb(lazy.reduce((n, s) => n + s.gzip, 0))} gzip) not loaded by /login`,
  );
}

/** `npm run bench -- console`: the console weight alone, on a gateway of its own. */
export async function consoleSuite(_settings, goals, log) {
  await buildServer(log);
  await ensureWebBuild(log);
  const gw = await startGateway({ name: 'console' });
  try {
    const result = await measureConsoleWeight(gw.url, log);
    result.print();
    consoleGoals(result, goals);
    return result;
  } finally {
    await stopGateway(gw);
    removeGatewayFiles(gw);
  }
}
