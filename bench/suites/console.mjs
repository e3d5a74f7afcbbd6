// Console weight as served: the bytes a real browser (Debian's Chromium through playwright-core)
// receives over the wire for the JavaScript of each route, cold cache, with the
// Accept-Encoding Chromium itself sends; nothing is recomputed from dist. Per script, from the
// DevTools protocol: "over the wire" is Network.loadingFinished's encodedDataLength (response
// headers and body as received, compressed or not, as the server chose), "decoded" the body
// after content decoding (Network.getResponseBody). Routes: /login signed out, and /channel
// signed in as root (session cookie and stored user of a login through the console API).
// Also every JavaScript file of the build, to show the routes are split.
//
// Then how soon the console is usable, cold (a fresh browser context each load, the cache
// disabled), on loopback: from navigation start until the sign-in form is usable (password
// field and submit button shown and enabled), and until /channel shows rows of a list of
// `consoleChannels` channels (created through the console API before, deleted after), signed
// in as root. The median of `consoleLoads` loads each, after one load that is not counted (the
// server's first answers warm its file and database caches). Chromium runs on every core of
// the machine, as a visitor's browser has its computer's cores (the gateway, pinned to the
// target core, shares one of them); the same loads with Chromium held to the client core
// alone are printed beside, without a goal, for comparison with runs before this rule.
import { WEB_BUILD_SOURCES } from '../../scripts/web-sources.mjs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, printTable } from '../lib/report.mjs';
import { ALL_CORES, CORES, withCores } from '../lib/procs.mjs';
import { buildServer, createChannel, npmScript, removeGatewayFiles, ROOT, rootClient, stale, startGateway, stopGateway } from '../lib/gateway.mjs';
import { percentile } from '../lib/stats.mjs';

const WEB_DIR = join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BUDGET_BYTES = 150 * 1024;
const LOGIN_USABLE_GOAL_MS = 400;
const CHANNEL_ROWS_GOAL_MS = 800;
/** How long a fresh tab is left at about:blank before the timed navigation (see `timeReady`). */
const TAB_SETTLE_MS = 500;
/** Channels per create call when seeding the list (one channel per key line). */
const CHANNELS_PER_CREATE = 50;

/** Builds the console when dist/web is missing or older than its sources (scripts/start.mjs's rule). */
export async function ensureWebBuild(log) {
  if (!stale('dist/web/index.html', WEB_BUILD_SOURCES)) return;
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
    if (session) await signIn(context, url, session);
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
      Object.assign(entry(e.requestId), {
        url: e.response.url,
        type: e.type,
        status: e.response.status,
        encoding: headerOf(e.response.headers, 'content-encoding') ?? 'identity',
        fromCache: e.response.fromDiskCache || e.response.fromServiceWorker,
      }),
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

/**
 * Runs in the page before its own scripts (an init script): notes in `window.__syReadyAt`
 * the time (ms since navigation start) of the first frame at which `kind` holds, checked at
 * the frame after every DOM change, or of the page's first paint when that comes later. Self-contained: playwright sends its source to the page.
 */
function installReadyProbe(kind) {
  const shown = (el) => {
    if (!el) return false;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const holds = {
    // The sign-in form can be filled in and sent.
    'login form': () => {
      const password = document.querySelector('input[type=password]');
      const submit = password?.form?.querySelector('button[type=submit]');
      return shown(password) && !password.disabled && !password.readOnly && shown(submit) && !submit.disabled;
    },
    'channel rows': () => shown(document.querySelector('.ant-table-tbody tr.ant-table-row')),
  }[kind];
  // Shown means painted: a condition that holds before the page's first paint (a prerendered
  // page's form) counts from that paint (first-contentful-paint), not from the frame that began it.
  let heldAt;
  const firstPaint = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  const noteReady = () => {
    const painted = firstPaint();
    if (heldAt !== undefined && painted !== undefined && window.__syReadyAt === undefined) window.__syReadyAt = Math.max(heldAt, painted);
  };
  new PerformanceObserver(noteReady).observe({ type: 'paint', buffered: true });
  let queued = false;
  const check = () => {
    queued = false;
    const now = performance.now();
    if (heldAt === undefined && holds()) {
      heldAt = now;
      noteReady();
    }
    // The console's scripts have rendered (a prerendered page: hydrated), src/web/app.tsx.
    if (window.__syConsoleAt === undefined && document.documentElement.dataset.console === 'ready') window.__syConsoleAt = now;
    if (heldAt !== undefined && window.__syConsoleAt !== undefined) observer.disconnect();
  };
  const observer = new MutationObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(check);
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/** One cold load of `route` (fresh context, cache disabled): ms from navigation start until `kind` holds. */
async function timeReady(browser, url, route, { session, kind }) {
  const context = await browser.newContext();
  try {
    if (session) await signIn(context, url, session);
    await context.addInitScript(installReadyProbe, kind);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // The tab is open before the address is typed, as a visitor's is: a new window's own work
    // (Chromium loads its WebUI pages into it) is done before the navigation starts.
    await page.goto('about:blank');
    await page.waitForTimeout(TAB_SETTLE_MS);
    await page.goto(`${url}${route}`, { waitUntil: 'commit', timeout: 30_000 });
    const handle = await page.waitForFunction(() => window.__syReadyAt !== undefined && window.__syConsoleAt !== undefined && [window.__syReadyAt, window.__syConsoleAt], undefined, {
      timeout: 30_000,
      polling: 50,
    });
    const [ms, consoleMs] = await handle.jsonValue();
    const landed = new URL(page.url()).pathname;
    if (landed !== route) throw new Error(`${route}: the console went to ${landed}`);
    // What the page fetched and when (ms from navigation start), for reading where the time went.
    const timeline = await page.evaluate(() =>
      [...performance.getEntriesByType('resource'), ...performance.getEntriesByType('paint')].map((e) => ({
        name: e.entryType === 'paint' ? `(${e.name})` : new URL(e.name).pathname + new URL(e.name).search,
        start: e.startTime,
        end: e.entryType === 'paint' ? e.startTime : e.responseEnd,
      })),
    );
    return { ms, consoleMs, timeline };
  } finally {
    await context.close();
  }
}

/** `loads` cold loads after one not counted; the times (ms) and their median. */
async function readyTimes(browser, url, route, options, loads) {
  await timeReady(browser, url, route, options);
  const runs = [];
  for (let i = 0; i < loads; i++) runs.push(await timeReady(browser, url, route, options));
  const ms = runs.map((r) => r.ms);
  const median = percentile(ms, 50);
  const consoleMedian = percentile(
    runs.map((r) => r.consoleMs),
    50,
  );
  // The timeline of the load closest to the median.
  const typical = runs.reduce((best, r) => (Math.abs(r.ms - median) < Math.abs(best.ms - median) ? r : best));
  return { route, kind: options.kind, ms, median, consoleMedian, min: Math.min(...ms), max: Math.max(...ms), timeline: typical.timeline, typicalMs: typical.ms };
}

/** `count` channels through the console API (CHANNELS_PER_CREATE per create); their ids. */
async function seedChannels(root, count) {
  const ids = [];
  for (let made = 0, batch = 0; made < count; batch++) {
    const n = Math.min(CHANNELS_PER_CREATE, count - made);
    const key = Array.from({ length: n }, (_, i) => `sk-bench-console-${batch}-${i}`).join('\n');
    ids.push(...(await createChannel(root, { name: `bench-console-${batch}`, key, base_url: 'http://127.0.0.1:9', models: 'gpt-4o-mini,gpt-4o' })));
    made += n;
  }
  return ids;
}

async function deleteChannels(root, ids) {
  const res = await root.post('/api/channel/batch', { ids });
  if (res.status !== 200 || !res.body?.success) throw new Error(`deleting the seeded channels: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
}

/** The session cookie and stored user of `session` (an ApiClient signed in), handed to a context. */
async function signIn(context, url, session) {
  const eq = session.cookie.indexOf('=');
  await context.addCookies([{ name: session.cookie.slice(0, eq), value: session.cookie.slice(eq + 1), url }]);
  await context.addInitScript((user) => localStorage.setItem('user', JSON.stringify(user)), session.user);
}

/**
 * `root`: an ApiClient signed in as root on the gateway at `url` (for /channel);
 * `loads`: counted cold loads per timed route; `channels`: the size of the timed channel list.
 */
export async function measureConsoleWeight(url, log, { root, loads = 7, channels = 200 } = {}) {
  const result = { routes: [], timings: [], oneCore: [], all: allBuiltScripts(), errors: [] };
  let browser;
  let oneCoreBrowser;
  try {
    const { chromium } = await import('playwright-core');
    const launch = () => chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    browser = await withCores(ALL_CORES, launch);
    oneCoreBrowser = await withCores(CORES.client, launch);
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
    await timeConsole({ goal: browser, oneCore: oneCoreBrowser }, url, log, { root, loads, channels }, result);
  } catch (err) {
    const message = String(err.message ?? err).split('\n')[0];
    result.errors.push({ route: '*', message });
    log(`console weight: ${message}`);
  } finally {
    await browser?.close();
    await oneCoreBrowser?.close();
  }
  result.allDisk = result.all.reduce((n, s) => n + s.disk, 0);
  result.print = () => printConsole(result);
  return result;
}

/**
 * The "usable" times: the sign-in form, then the channel list of `channels` seeded channels;
 * with `browsers.goal` (every core) into `result.timings`, then `browsers.oneCore` into `result.oneCore`.
 */
async function timeConsole(browsers, url, log, { root, loads, channels }, result) {
  const attempt = async (name, fn) => {
    try {
      result.timings.push(await fn(browsers.goal));
      result.oneCore.push(await fn(browsers.oneCore));
    } catch (err) {
      const message = String(err.message ?? err).split('\n')[0];
      result.errors.push({ route: name, message });
      log(`console ${name}: ${message}`);
    }
  };
  log(`console: sign-in form usable, ${loads} cold loads on every core, then on one ...`);
  await attempt('login form', (browser) => readyTimes(browser, url, '/login', { kind: 'login form' }, loads));
  if (!root?.user) {
    result.errors.push({ route: 'channel rows', message: 'no signed-in root session' });
    return;
  }
  log(`console: /channel rows with ${channels} channels, ${loads} cold loads on every core, then on one ...`);
  const ids = await seedChannels(root, channels);
  try {
    await attempt('channel rows', async (browser) => ({ ...(await readyTimes(browser, url, '/channel', { session: root, kind: 'channel rows' }, loads)), channels: ids.length }));
  } finally {
    await deleteChannels(root, ids);
  }
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
    console.log(
      `Everything ${r.route} loaded from the gateway (document, scripts, styles, API, ...): ${r.everything.count} responses, ${fmt.kb(r.everything.wire)} over the wire, ${fmt.kb(r.everything.decoded)} decoded.`,
    );
  }
  const timingColumns = [
    ['route', (t) => `${t.route}${t.channels ? ` (${t.channels} channels)` : ''}`],
    ['until', 'kind'],
    ['median', (t) => fmt.ms(t.median, 0)],
    ['min', (t) => fmt.ms(t.min, 0)],
    ['max', (t) => fmt.ms(t.max, 0)],
    ['loads', (t) => t.ms.map((ms) => ms.toFixed(0)).join(' ')],
    ['console rendered (median)', (t) => fmt.ms(t.consoleMedian, 0)],
  ];
  if (result.timings.length) {
    printTable(`Console usable, cold cache, loopback, Chromium on cores ${ALL_CORES} (ms from navigation start; one uncounted load first)`, timingColumns, result.timings);
  }
  if (result.oneCore.length) {
    printTable(`The same with Chromium held to core ${CORES.client} alone (no goal; as runs before session 11 measured)`, timingColumns, result.oneCore);
  }
  for (const t of result.timings) {
    // Scripts are many and load together: the first and the last stand for them.
    const scripts = t.timeline.filter((e) => e.name.endsWith('.js'));
    const rows = t.timeline.filter((e) => !e.name.endsWith('.js'));
    if (scripts.length) {
      rows.push(
        { name: `first of ${scripts.length} scripts`, ...scripts.reduce((a, b) => (b.start < a.start ? b : a)) },
        { name: 'last script to arrive', ...scripts.reduce((a, b) => (b.end > a.end ? b : a)) },
      );
    }
    printTable(
      `Console ${t.route}, the load closest to the median (${t.typicalMs.toFixed(0)} ms until ${t.kind}): what it fetched, ms from navigation start`,
      [
        ['', (e) => (e.name.length > 60 ? `${e.name.slice(0, 57)}...` : e.name)],
        ['start', (e) => fmt.ms(e.start, 0)],
        ['end', (e) => fmt.ms(e.end, 0)],
      ],
      rows.sort((a, b) => a.start - b.start),
    );
  }
  for (const e of result.errors) console.log(`Console ${e.route}: not measured: ${e.message}`);
  console.log(`Every built chunk together: ${fmt.kb(result.allDisk)} on disk in ${result.all.length} files.`);
}

export function consoleGoals(result, goals) {
  const login = result.routes.find((r) => r.route === '/login');
  const failed = login ? undefined : `not measured: ${result.errors.map((e) => `${e.route} ${e.message}`).join('; ')}`;
  goals.add(
    `console JavaScript to show /login ≤ ${BUDGET_BYTES / 1024} KB over the wire (as served to Chromium)`,
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
    channel
      ? `${fmt.kb(channel.wire)} of JavaScript over the wire, ${fmt.kb(channel.decoded)} decoded, in ${channel.scripts.length} files`
      : `not measured: ${result.errors.find((e) => e.route === '/channel')?.message ?? '?'}`,
  );
  timeGoal(result, goals, 'login form', `console /login form usable ≤ ${LOGIN_USABLE_GOAL_MS} ms (cold cache, loopback, median)`, LOGIN_USABLE_GOAL_MS);
  timeGoal(result, goals, 'channel rows', `console /channel with many channels shows rows ≤ ${CHANNEL_ROWS_GOAL_MS} ms (cold cache, signed in as root, median)`, CHANNEL_ROWS_GOAL_MS);
}

function timeGoal(result, goals, kind, name, goalMs) {
  const t = result.timings.find((x) => x.kind === kind);
  const one = result.oneCore.find((x) => x.kind === kind);
  goals.add(
    name,
    t ? t.median <= goalMs : undefined,
    t
      ? `median ${t.median.toFixed(0)} ms of ${t.ms.length} loads (${t.min.toFixed(0)}–${t.max.toFixed(0)} ms)${t.channels ? `, ${t.channels} channels` : ''}, Chromium on cores ${ALL_CORES}` +
          `; the console's scripts rendered${kind === 'login form' ? ' (the prerendered form hydrated)' : ''} at ${t.consoleMedian.toFixed(0)} ms` +
          (one ? `; on core ${CORES.client} alone ${one.median.toFixed(0)} ms` : '')
      : `not measured: ${result.errors.find((e) => e.route === kind)?.message ?? '?'}`,
  );
}

/** `npm run bench -- console`: the console weight alone, on a gateway of its own. */
export async function consoleSuite(settings, goals, log) {
  await buildServer(log);
  await ensureWebBuild(log);
  const gw = await startGateway({ name: 'console' });
  try {
    const result = await measureConsoleWeight(gw.url, log, { root: await rootClient(gw), loads: settings.consoleLoads, channels: settings.consoleChannels });
    result.print();
    consoleGoals(result, goals);
    return result;
  } finally {
    await stopGateway(gw);
    removeGatewayFiles(gw);
  }
}
