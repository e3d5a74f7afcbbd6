// Console weight as served: the bytes a real browser (Debian's Chromium through playwright-core)
// receives over the wire for the JavaScript of each route, cold cache, with the
// Accept-Encoding Chromium itself sends; nothing is recomputed from dist. Per script, from the
// DevTools protocol: "over the wire" is Network.loadingFinished's encodedDataLength (response
// headers and body as received, compressed or not, as the server chose), "decoded" the body
// after content decoding (Network.getResponseBody). Routes: /login signed out, and /channel
// signed in as root (session cookie and stored user of a login through the console API).
// Also every JavaScript file of the build, to show the routes are split.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, printTable } from '../lib/report.mjs';
import { buildServer, npmScript, removeGatewayFiles, ROOT, rootClient, stale, startGateway, stopGateway } from '../lib/gateway.mjs';

const WEB_DIR = join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BUDGET_BYTES = 300 * 1024;

/** Builds the console when dist/web is missing or older than its sources (scripts/start.mjs's rule). */
export async function ensureWebBuild(log) {
  if (!stale('dist/web/index.html', ['index.html', 'src/web', 'src/shared', 'resources', 'schemas', 'vite.config.ts', 'package.json'])) return;
  log('building the console (npm run build:web) ...');
  await npmScript('build:web');
}

/** Every JavaScript file of the build with its size on disk (what the routes may load). */
function allBuiltScripts() {
  const dir = join(WEB_DIR, 'assets');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ name: f, disk: statSync(join(dir, f)).size }));
}

const headerOf = (headers, name) => {
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === name) return v;
  return undefined;
};

/**
 * Opens `route` in a fresh browser context (empty cache, and the cache disabled besides) and
 * returns every response of the gateway's origin with its size over the wire and decoded.
 * `session`: an ApiClient signed in (its session cookie and user record are handed to the page).
 */
async function measureRoute(browser, url, route, { session, ready }) {
  const origin = new URL(url).origin;
  const context = await browser.newContext();
  try {
    if (session) {
      const eq = session.cookie.indexOf('=');
      await context.addCookies([{ name: session.cookie.slice(0, eq), value: session.cookie.slice(eq + 1), url }]);
      await context.addInitScript((user) => localStorage.setItem('user', JSON.stringify(user)), session.user);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    const entry = (id) => {
      if (!requests.has(id)) requests.set(id, { id, decoded: 0 });
      return requests.get(id);
    };
    cdp.on('Network.requestWillBeSent', (e) => Object.assign(entry(e.requestId), { url: e.request.url, type: e.type }));
    // The headers the network stack really sent (Accept-Encoding is added there).
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => (entry(e.requestId).acceptEncoding = headerOf(e.headers, 'accept-encoding')));
    cdp.on('Network.responseReceived', (e) =>
      Object.assign(entry(e.requestId), { url: e.response.url, type: e.type, status: e.response.status, encoding: headerOf(e.response.headers, 'content-encoding') ?? 'identity', fromCache: e.response.fromDiskCache || e.response.fromServiceWorker }),
    );
    cdp.on('Network.loadingFinished', (e) => Object.assign(entry(e.requestId), { wire: e.encodedDataLength, finished: true }));
    cdp.on('Network.loadingFailed', (e) => Object.assign(entry(e.requestId), { failed: e.errorText }));
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

    await page.goto(`${url}${route}`, { waitUntil: 'networkidle', timeout: 60_000 });
    await ready(page);
    await page.waitForLoadState('networkidle');
    const landed = new URL(page.url()).pathname;
    if (landed !== route) throw new Error(`${route}: the console went to ${landed}`);

    const own = [...requests.values()].filter((r) => r.url && new URL(r.url).origin === origin && r.finished);
    for (const r of own) {
      try {
        const { body, base64Encoded } = await cdp.send('Network.getResponseBody', { requestId: r.id });
        r.decoded = Buffer.byteLength(body, base64Encoded ? 'base64' : 'utf8');
      } catch {
        r.decoded = NaN;
      }
    }
    const isScript = (r) => r.type === 'Script' || new URL(r.url).pathname.endsWith('.js');
    const scripts = own.filter(isScript).map((r) => ({
      name: new URL(r.url).pathname.replace(/^\/assets\//, ''),
      encoding: r.encoding,
      wire: r.wire,
      decoded: r.decoded,
      status: r.status,
      fromCache: Boolean(r.fromCache),
    }));
    const sum = (list, key) => list.reduce((n, s) => n + s[key], 0);
    return {
      route,
      acceptEncoding: own.find((r) => r.acceptEncoding)?.acceptEncoding ?? '(not seen)',
      scripts,
      wire: sum(scripts, 'wire'),
      decoded: sum(scripts, 'decoded'),
      everything: { count: own.length, wire: sum(own, 'wire'), decoded: sum(own, 'decoded') },
      fromCache: scripts.filter((s) => s.fromCache).length,
    };
  } finally {
    await context.close();
  }
}

/** `root`: an ApiClient signed in as root on the gateway at `url` (for /channel). */
export async function measureConsoleWeight(url, log, { root } = {}) {
  const result = { routes: [], all: allBuiltScripts(), errors: [] };
  let browser;
  try {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    const plan = [
      ['/login', { ready: (page) => page.locator('input[type=password]').first().waitFor({ state: 'visible', timeout: 30_000 }) }],
      ['/channel', { session: root, ready: (page) => page.locator('.ant-table').first().waitFor({ state: 'visible', timeout: 30_000 }) }],
    ];
    for (const [route, options] of plan) {
      try {
        if (route !== '/login' && !root?.user) throw new Error(`${route}: no signed-in root session`);
        result.routes.push(await measureRoute(browser, url, route, options));
      } catch (err) {
        const message = String(err.message ?? err).split('\n')[0];
        result.errors.push({ route, message });
        log(`console weight ${route}: ${message}`);
      }
    }
  } catch (err) {
    const message = String(err.message ?? err).split('\n')[0];
    result.errors.push({ route: '*', message });
    log(`console weight: ${message}`);
  } finally {
    await browser?.close();
  }
  result.allDisk = result.all.reduce((n, s) => n + s.disk, 0);
  result.print = () => printConsole(result);
  return result;
}

function printConsole(result) {
  for (const r of result.routes) {
    printTable(
      `Console ${r.route}: JavaScript as served (${r.scripts.length} of ${result.all.length} built chunks; Chromium sent Accept-Encoding: ${r.acceptEncoding}; cold cache)`,
      [
        ['script', 'name'],
        ['encoding', 'encoding'],
        ['over the wire', (s) => fmt.kb(s.wire)],
        ['decoded', (s) => fmt.kb(s.decoded)],
      ],
      [...r.scripts].sort((a, b) => b.wire - a.wire).concat([{ name: 'total', encoding: '', wire: r.wire, decoded: r.decoded }]),
    );
    console.log(`Everything ${r.route} loaded from the gateway (document, scripts, styles, API, ...): ${r.everything.count} responses, ${fmt.kb(r.everything.wire)} over the wire, ${fmt.kb(r.everything.decoded)} decoded.`);
  }
  for (const e of result.errors) console.log(`Console ${e.route}: not measured: ${e.message}`);
  console.log(`Every built chunk together: ${fmt.kb(result.allDisk)} on disk in ${result.all.length} files.`);
}

export function consoleGoals(result, goals) {
  const login = result.routes.find((r) => r.route === '/login');
  const failed = login ? undefined : `not measured: ${result.errors.map((e) => `${e.route} ${e.message}`).join('; ')}`;
  goals.add(
    'console JavaScript to show /login ≤ 300 KB over the wire (as served to Chromium)',
    failed ? undefined : login.wire <= BUDGET_BYTES && login.fromCache === 0,
    failed ?? `${fmt.kb(login.wire)} over the wire (${[...new Set(login.scripts.map((s) => s.encoding))].join(', ')}), ${fmt.kb(login.decoded)} decoded, in ${login.scripts.length} files`,
  );
  const loaded = new Set(login?.scripts.map((s) => s.name));
  const lazy = result.all.filter((s) => !loaded.has(s.name));
  goals.add(
    'console routes split (chunks /login does not load)',
    failed ? undefined : lazy.length > 0,
    failed ?? `${lazy.length} of ${result.all.length} chunks (${fmt.kb(lazy.reduce((n, s) => n + s.disk, 0))} on disk) not loaded by /login`,
  );
  const channel = result.routes.find((r) => r.route === '/channel');
  goals.add(
    'console /channel (signed in) measured as served',
    channel ? true : undefined,
    channel ? `${fmt.kb(channel.wire)} of JavaScript over the wire, ${fmt.kb(channel.decoded)} decoded, in ${channel.scripts.length} files` : `not measured: ${result.errors.find((e) => e.route !== '/login')?.message ?? '?'}`,
  );
}

/** `npm run bench -- console`: the console weight alone, on a gateway of its own. */
export async function consoleSuite(_settings, goals, log) {
  await buildServer(log);
  await ensureWebBuild(log);
  const gw = await startGateway({ name: 'console' });
  try {
    const result = await measureConsoleWeight(gw.url, log, { root: await rootClient(gw) });
    result.print();
    consoleGoals(result, goals);
    return result;
  } finally {
    await stopGateway(gw);
    removeGatewayFiles(gw);
  }
}
