// Our gateway as the benchmark runs it: the built server (the bundle of `npm run build:server`,
// built into dist/bench/server) on a fresh data folder and database, pinned to the target core,
// seeded through the real console API, and the ledger read back after it stopped.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CORES, sleep, startPinned, stop } from './procs.mjs';
import { ApiClient } from './api-client.mjs';
import { openBenchDb } from './db.mjs';
import { startNodeFlags } from '../../scripts/start-flags.mjs';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const SERVER_ENTRY = join(ROOT, 'dist/bench/server/main.js');
const OUT_DIR = join(ROOT, 'bench/.out');
/** The model of the load rows, and the slow ones of the memory run (the fake knows them). */
export const MODEL = 'gpt-4o-mini';
export const SLOW_MODELS = ['bench-slow-short', 'bench-slow-long'];
/** The Node flags of `npm start`: the bench measures the gateway as it is shipped. */
const START_NODE_FLAGS = startNodeFlags();
/** Quota given to the bench user and token: ample for hours of load. */
export const AMPLE_QUOTA = 1_000_000_000_000;

function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) walk(join(ROOT, p));
  return newest;
}

/** Output missing or older than any of its sources (the rule of scripts/start.mjs). */
export function stale(output, sources) {
  const out = join(ROOT, output);
  return !existsSync(out) || statSync(out).mtimeMs < newestMtime(sources);
}

/** Runs an npm script of the project on the client core; throws with its output on failure. */
export async function npmScript(name) {
  const child = startPinned(CORES.client, ['npm', 'run', '-s', name], { cwd: ROOT });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`npm run ${name} failed (${code}): ${out.slice(-2000)}`);
}

/**
 * Builds the server from the current sources into a folder of its own (dist/bench/server),
 * by scripts/build-server.mjs: another engineer's rebuild of dist/server
 * cannot swap the bundle (or the source map the profile summary reads) during a run. From
 * there the server still finds the project root (package.json, schemas/, dist/web).
 */
export async function buildServer(log, { entry = SERVER_ENTRY, sourceRoot } = {}) {
  log(`building the server (scripts/build-server.mjs)${sourceRoot ? ` from ${sourceRoot}` : ''} ...`);
  const { buildServer: bundle } = await import('../../scripts/build-server.mjs');
  await bundle(entry.slice(ROOT.length + 1), sourceRoot);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built gateway on a fresh database: SQLite in a new temporary folder, or the
 * given PostgreSQL DSN. Resolves when /api/status answers.
 */
export async function startGateway({ name, sqlDsn = '', env = {}, nodeArgs = [], entry = SERVER_ENTRY }) {
  const dataDir = mkdtempSync(join(tmpdir(), `switchyard-bench-${name}-`));
  const gw = {
    name,
    dataDir,
    sqlitePath: join(dataDir, 'bench.db'),
    sqlDsn,
    logFile: join(dataDir, 'server.log'),
    nodeArgs,
    entry,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SQLITE_PATH: join(dataDir, 'bench.db'),
      SQL_DSN: sqlDsn,
      SESSION_SECRET: randomBytes(24).toString('hex'),
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
      ...env,
    },
  };
  await launch(gw);
  return gw;
}

async function launch(gw) {
  const port = await freePort();
  const child = startPinned(CORES.target, [process.execPath, ...START_NODE_FLAGS, ...gw.nodeArgs, gw.entry], { cwd: ROOT, logFile: gw.logFile, env: { ...gw.env, PORT: String(port) } });
  Object.assign(gw, { child, pid: child.pid, url: `http://127.0.0.1:${port}` });
  // BENCH_GATEWAY_START_SECONDS: more for a gateway run under a profiler or valgrind.
  const startSeconds = Number(process.env.BENCH_GATEWAY_START_SECONDS ?? 60);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway ${gw.name} exited at start (${child.exitCode}); see ${gw.logFile}`);
    try {
      const res = await fetch(`${gw.url}/api/status`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`gateway ${gw.name} did not answer /api/status within ${startSeconds} s; see ${gw.logFile}`);
    }
    await sleep(200);
  }
}

/** Stops the gateway (SIGTERM, so it settles and flushes) and waits for its exit. */
export async function stopGateway(gw) {
  await stop(gw?.child, 15_000);
}

/** Removes the gateway's temporary folder, keeping its server log in bench/.out. */
export function removeGatewayFiles(gw) {
  if (!gw?.dataDir) return;
  if (existsSync(gw.logFile)) {
    mkdirSync(OUT_DIR, { recursive: true });
    copyFileSync(gw.logFile, join(OUT_DIR, `server-${gw.name}-${basename(gw.dataDir)}.log`));
  }
  rmSync(gw.dataDir, { recursive: true, force: true });
}

/** Warning and error lines (pino levels 40+) of the gateway's log, for the report. */
export function serverLogProblems(gw) {
  if (!existsSync(gw.logFile)) return [];
  return readFileSync(gw.logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(40|50|60)/.test(line));
}

function expectOk(what, res) {
  if (res.status !== 200 || !res.body?.success) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.data;
}

export async function rootClient(gw) {
  const root = new ApiClient(gw.url);
  await root.login('root', '123456');
  return root;
}

/** Sets one option through the console API. */
export async function setOption(root, key, value) {
  expectOk(`option ${key}`, await root.put('/api/option/', { key, value }));
}

/** Adds `ratios` to the ModelRatio option (keeping every other model's). */
export async function setModelRatios(root, ratios) {
  const options = expectOk('option list', await root.get('/api/option/'));
  const current = JSON.parse(options.find((o) => o.key === 'ModelRatio')?.value || '{}');
  await setOption(root, 'ModelRatio', JSON.stringify({ ...current, ...ratios }));
}

export async function createChannel(root, body) {
  return expectOk(`channel ${body.name}`, await root.post('/api/channel/', { type: 1, group: 'default', ...body })).ids;
}

export async function createToken(root, body) {
  const tokens = expectOk('token', await root.post('/api/token/', { expired_time: -1, ...body }));
  return tokens[0];
}

/**
 * The benchmark's resources, through the console API: root's quota, the model ratios (so
 * every request is billed), consume logging on or off, one channel on the fake upstream and
 * one token with ample quota. Returns what the load and the ledger check need.
 */
export async function seedGateway(gw, { fakeUrl, logConsume = true }) {
  const root = await rootClient(gw);
  const self = expectOk('self', await root.get('/api/user/self'));
  expectOk('root quota', await root.put('/api/user/', { id: self.id, username: self.username, quota: AMPLE_QUOTA }));
  await setModelRatios(root, Object.fromEntries([MODEL, ...SLOW_MODELS].map((m) => [m, 1])));
  await setOption(root, 'LogConsumeEnabled', logConsume ? 'true' : 'false');
  const [channelId] = await createChannel(root, { name: 'bench-fake', key: 'sk-bench-upstream', base_url: fakeUrl, models: [MODEL, ...SLOW_MODELS].join(',') });
  const token = await createToken(root, { name: 'bench', remain_quota: AMPLE_QUOTA, unlimited_quota: false });
  Object.assign(gw, { root, userId: self.id, channelId, tokenId: token.id, tokenKey: token.key, userQuota: AMPLE_QUOTA, tokenQuota: AMPLE_QUOTA });
  return gw;
}

/** The request of a load row: headers and body of one chat completion. */
export function chatRequest(tokenKey, { stream, model = MODEL }) {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello in twenty words.' }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) });
  return {
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer sk-${tokenKey}` },
    body,
  };
}

/** Whether the relay answers a chat completion (JSON and stream); the failure when not. */
export async function relayAnswers(gw) {
  for (const stream of [false, true]) {
    const { path, headers, body } = chatRequest(gw.tokenKey, { stream });
    try {
      const res = await fetch(gw.url + path, { method: 'POST', headers, body });
      const text = await res.text();
      const good = res.status === 200 && (stream ? text.includes('data: [DONE]') : text.includes('"usage"'));
      if (!good) return { ok: false, reason: `${stream ? 'stream' : 'JSON'}: HTTP ${res.status} ${text.slice(0, 160).replace(/\s+/g, ' ')}` };
    } catch (err) {
      return { ok: false, reason: String(err) };
    }
  }
  return { ok: true };
}

/**
 * The ledger test of the relay issue, read from the database after the gateway stopped:
 * the consume logs of the bench token sum to its used quota, no reservation is left open,
 * and quota was neither made nor lost (user and token: remaining + used = what was given).
 */
export async function ledgerCheck(gw) {
  const db = await openBenchDb(gw);
  try {
    const one = async (sql, params) => (await db.all(sql, params))[0];
    const token = await one('SELECT used_quota, remain_quota FROM tokens WHERE id = ?', [gw.tokenId]);
    const logs = await one('SELECT COALESCE(SUM(quota), 0) AS quota, COUNT(*) AS n FROM logs WHERE token_id = ? AND type = 2', [gw.tokenId]);
    const user = await one('SELECT quota, used_quota FROM users WHERE id = ?', [gw.userId]);
    let open = 0;
    try {
      open = Number((await one('SELECT COUNT(*) AS n FROM quota_reservations')).n);
    } catch {
      open = 0; // no journal table: nothing can be open
    }
    const used = Number(token.used_quota);
    const logged = Number(logs.quota);
    const checks = {
      loggedEqualsUsed: logged === used,
      noOpenReservations: open === 0,
      tokenConserved: Number(token.remain_quota) + used === gw.tokenQuota,
      userConserved: Number(user.quota) + Number(user.used_quota) === gw.userQuota,
    };
    return { ok: Object.values(checks).every(Boolean), checks, used, logged, logs: Number(logs.n), open };
  } finally {
    await db.close();
  }
}
