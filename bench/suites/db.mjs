// `npm run bench -- db`: database scale. The gateway on a fresh SQLite database (and on
// PostgreSQL when TEST_POSTGRES_URL is set) seeded with 1,000 channels through the console
// API and 1,000,000 logs, 10,000 tokens and 100 users in SQL; then the console's queries
// timed over HTTP (log list, log stat, channel list), the relay's channel choice timed in
// process, how long a channel edit takes to reach the relay on the same node, and the
// server's peak RSS while every log is exported as CSV (it must stay flat: the export streams).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CORES, rssSampler, runWorker, settledRssKb, sleep, stop } from '../lib/procs.mjs';
import { openBenchDb } from '../lib/db.mjs';
import { chatRequest, createChannel, buildServer, ledgerCheck, relayAnswers, removeGatewayFiles, ROOT, seedGateway, setModelRatios, startGateway, stopGateway } from '../lib/gateway.mjs';
import { fakeStats, startFake } from '../lib/targets.mjs';
import { percentile } from '../lib/stats.mjs';
import { fmt, printTable } from '../lib/report.mjs';

const DAY = 86_400;
const SPAN = 30 * DAY;
const USERS = 100;
const MODELS = 100;
const BATCHES = 20;
/** A prime above the row counts: n → n·p mod it is a permutation, a cheap independent hash per column. */
const HASH_MODULUS = 1_000_003;
const GROUPS = ['default,vip', 'default', 'vip,svip'];
const modelName = (i) => `bench-model-${String(i % MODELS).padStart(3, '0')}`;

/** SQL fragments that differ between SQLite and PostgreSQL. */
function dialectSql(dialect) {
  const pg = dialect === 'postgres';
  return {
    pad: (expr, width) => (pg ? `lpad((${expr})::text, ${width}, '0')` : `printf('%0${width}d', ${expr})`),
    text: (expr) => (pg ? `(${expr})::text` : `(${expr})`),
    bool: (expr) => (pg ? `(${expr}) = 1` : `(${expr})`),
    /** `n` from `from` to `to`, as a row source. */
    series: (from, to) =>
      pg ? `generate_series(${from}::bigint, ${to}::bigint) AS s(n)` : `(WITH RECURSIVE s(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM s WHERE n < ${to}) SELECT n FROM s) AS s`,
  };
}

async function seedRows(db, settings, now, log) {
  const q = dialectSql(db.dialect);
  log(`seeding ${USERS} users and ${fmt.int(settings.tokens)} tokens ...`);
  await db.exec(
    `INSERT INTO users (username, password, display_name, role, status, quota, "group")
     SELECT 'bench-user-' || ${q.text('n')}, '', 'bench', 1, 1, 1000000, 'default' FROM ${q.series(1, USERS)}`,
  );
  const [{ first }] = await db.all(`SELECT MIN(id) AS "first" FROM users WHERE username LIKE 'bench-user-%'`);
  await db.exec(
    `INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, expired_time, remain_quota, unlimited_quota, used_quota, "group")
     SELECT ${Number(first)} + n % ${USERS}, 'bt' || ${q.pad('n', 46)}, 1, 'token-' || ${q.text('n')}, ${now - SPAN}, ${now}, -1, 500000, ${q.bool('0')}, 0, ''
     FROM ${q.series(1, settings.tokens)}`,
  );
  // Logs point at the seeded tokens and channels only: the bench token's ledger stays its own.
  const [{ firstToken }] = await db.all(`SELECT MIN(id) AS "firstToken" FROM tokens WHERE key LIKE 'bt%'`);
  const [{ firstChannel }] = await db.all(`SELECT MIN(id) AS "firstChannel" FROM channels WHERE name LIKE 'bench-ch-%'`);
  const chunk = 100_000;
  const began = Date.now();
  for (let from = 1; from <= settings.logs; from += chunk) {
    const to = Math.min(settings.logs, from + chunk - 1);
    // Rows in time order (ids grow with created_at, as in a live system); every other column
    // spread over users, tokens, models, channels and groups by its own hash of n, so the
    // filters are independent of each other (as in real traffic).
    const h = (prime, modulo) => `((n * ${prime}) % ${HASH_MODULUS}) % ${modulo}`;
    const user = h(7919, USERS);
    const tokenIndex = h(15485863, settings.tokens);
    const token = `${Number(firstToken)} + ${tokenIndex}`;
    const channel = `${Number(firstChannel)} + ${h(32452843, settings.channels)}`;
    await db.exec(
      `INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, "group", other)
       SELECT ${Number(first)} + ${user}, ${now - SPAN} + (n * ${SPAN}) / ${settings.logs},
         CASE n % 10 WHEN 0 THEN 1 WHEN 5 THEN 4 ELSE 2 END,
         'model price 1.00, completion ratio 1.00, group ratio 1.00',
         'bench-user-' || ${q.text(`1 + ${user}`)}, 'token-' || ${q.text(`1 + ${tokenIndex}`)}, 'bench-model-' || ${q.pad(h(104729, MODELS), 3)},
         1 + (n * 37) % 5000, (n * 11) % 2000, (n * 3) % 1000, n % 30, ${q.bool('n % 2')}, ${channel}, ${token},
         CASE ${h(49979687, 3)} WHEN 0 THEN 'default' WHEN 1 THEN 'vip' ELSE 'svip' END,
         '{"model_ratio":1,"group_ratio":1,"completion_ratio":1,"cache_tokens":0,"cache_ratio":1,"frt":-1000,"admin_info":{"use_channel":["' || ${q.text(channel)} || '"]}}'
       FROM ${q.series(from, to)}`,
    );
    log(`  logs ${fmt.int(to)} / ${fmt.int(settings.logs)} (${((Date.now() - began) / 1000).toFixed(0)} s)`);
  }
  // PostgreSQL's autovacuum would analyze a table this size within a minute; do it now.
  if (db.dialect === 'postgres') await db.exec('ANALYZE');
}

/** 1,000 channels through the console API: BATCHES creates of one channel per key. */
async function seedChannels(root, settings, fakeUrl) {
  const perBatch = Math.ceil(settings.channels / BATCHES);
  for (let b = 0, made = 0; made < settings.channels; b++) {
    const n = Math.min(perBatch, settings.channels - made);
    const models = Array.from({ length: 20 }, (_, k) => modelName(b * 5 + k)).join(',');
    const key = Array.from({ length: n }, (_, i) => `sk-bench-${b}-${i}`).join('\n');
    await createChannel(root, { name: `bench-ch-${b}`, key, base_url: fakeUrl, models, group: GROUPS[b % GROUPS.length], priority: b % 4, weight: (b * 3) % 20, tag: `tag-${b % 5}` });
    made += n;
  }
}

/** Runs each console query `repeats` times; returns per-kind timings (ms). */
async function timeQueries(root, kinds, repeats) {
  const out = [];
  for (const [kind, pathFor] of kinds) {
    const ms = [];
    let failures = 0;
    for (let i = 0; i < repeats; i++) {
      const path = pathFor(i);
      const start = performance.now();
      const res = await root.get(path);
      ms.push(performance.now() - start);
      if (res.status !== 200 || !res.body?.success) failures++;
    }
    out.push({ kind, ms, failures, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms) });
  }
  return out;
}

function logFilters(now, settings) {
  const week = `start_timestamp=${now - 7 * DAY}&end_timestamp=${now}`;
  return [
    ['no filter', () => ''],
    ['last 24 h', () => `start_timestamp=${now - DAY}&end_timestamp=${now}`],
    ['user, 7 days', (i) => `username=bench-user-${1 + ((i * 37) % USERS)}&${week}`],
    ['model', (i) => `model_name=${modelName(i * 7)}`],
    ['token name', (i) => `token_name=token-${1 + ((i * 997) % settings.tokens)}`],
    ['channel', (i) => `channel=${1 + ((i * 97) % settings.channels)}`],
    ['consume, 30 days', () => `type=2&start_timestamp=${now - SPAN}&end_timestamp=${now}`],
    ['user+model+type, 7 days', (i) => `username=bench-user-${1 + ((i * 37) % USERS)}&model_name=${modelName(i * 7)}&type=2&${week}`],
  ];
}

/** More than this above the settled RSS during an export means it does not stream. */
const EXPORT_RSS_GROWTH_LIMIT_KB = 64 * 1024;

/**
 * Downloads the CSV export of every log (GET /api/log/export) and samples the server's RSS
 * meanwhile: the settled RSS before it, the peak during it, the rows and bytes received.
 */
async function measureExport(gw) {
  const before = await settledRssKb(gw.pid);
  const sampler = rssSampler(gw.pid, 50);
  const start = performance.now();
  let bytes = 0;
  let lines = 0;
  let peak;
  try {
    const res = await fetch(`${gw.url}/api/log/export`, { headers: { cookie: gw.root.cookie, 'new-api-user': String(gw.root.userId) } });
    if (res.status !== 200) throw new Error(`log export answered ${res.status}`);
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
  } finally {
    peak = sampler.stop();
  }
  // The header line is no log.
  return { rows: lines - 1, bytes, seconds: (performance.now() - start) / 1000, beforeKb: before, peakKb: peak };
}

/** Edits the channel's model mapping and measures until the relay sends the new model upstream. */
async function editPropagation(gw, fake, channelId, rounds = 3) {
  const { headers, body, path } = chatRequest(gw.tokenKey, { stream: false, model: 'bench-edit' });
  const times = [];
  for (let r = 1; r <= rounds; r++) {
    const target = `bench-edit-v${r}`;
    const before = (await fakeStats(fake)).models[target] ?? 0;
    const start = performance.now();
    const res = await gw.root.put('/api/channel/', { id: channelId, model_mapping: JSON.stringify({ 'bench-edit': target }) });
    if (!res.body?.success) throw new Error(`channel edit: ${JSON.stringify(res.body).slice(0, 200)}`);
    let took;
    while (performance.now() - start < 5000) {
      await fetch(gw.url + path, { method: 'POST', headers, body }).then((x) => x.arrayBuffer());
      if (((await fakeStats(fake)).models[target] ?? 0) > before) {
        took = performance.now() - start;
        break;
      }
      await sleep(5);
    }
    times.push(took ?? Infinity);
  }
  return times;
}

async function runOn(label, sqlDsn, settings, goals, log) {
  const result = { label };
  const fake = await startFake();
  let gw;
  try {
    gw = await startGateway({ name: `db-${label}`, sqlDsn });
    await seedGateway(gw, { fakeUrl: fake.url });
    const root = gw.root;
    log(`[${label}] seeding ${fmt.int(settings.channels)} channels through the console API ...`);
    const t0 = Date.now();
    await seedChannels(root, settings, fake.url);
    await setModelRatios(root, Object.fromEntries(['bench-edit', 'bench-edit-v1', 'bench-edit-v2', 'bench-edit-v3', ...Array.from({ length: MODELS }, (_, i) => modelName(i))].map((m) => [m, 1])));
    const [editChannel] = await createChannel(root, { name: 'bench-edit', key: 'sk-bench-edit', base_url: fake.url, models: 'bench-edit' });
    result.channelSeedSeconds = (Date.now() - t0) / 1000;
    const db = await openBenchDb(gw);
    const now = Math.floor(Date.now() / 1000);
    try {
      const t1 = Date.now();
      await seedRows(db, settings, now, (m) => log(`[${label}] ${m}`));
      result.rowSeedSeconds = (Date.now() - t1) / 1000;
      result.seededLogs = settings.logs;
    } finally {
      await db.close();
    }

    // The seeding blocked this process for minutes: let it see the keep-alive connections
    // the server closed meanwhile before asking again.
    await sleep(500);
    log(`[${label}] timing the console queries (${settings.dbRepeats} runs each) ...`);
    const filters = logFilters(now, settings);
    const page = (i) => `p=0&page_size=${i % 2 ? 10 : 100}`;
    result.logList = await timeQueries(
      root,
      [...filters.map(([k, f]) => [k, (i) => `/api/log/?${page(i)}&${f(i)}`]), ['page 1000, no filter', (i) => `/api/log/?p=${1000 + i}&page_size=10`]],
      settings.dbRepeats,
    );
    result.logStat = await timeQueries(
      root,
      filters.map(([k, f]) => [k, (i) => `/api/log/stat?${f(i)}`]),
      settings.dbRepeats,
    );
    result.channelList = await timeQueries(
      root,
      [
        ['first page', (i) => `/api/channel/?p=0&page_size=${i % 2 ? 10 : 100}`],
        ['page 50', () => '/api/channel/?p=50&page_size=10'],
        ['id order', (i) => `/api/channel/?p=${i}&page_size=20&id_sort=true`],
        ['tag mode', () => '/api/channel/?p=0&page_size=10&tag_mode=true'],
        ['search keyword', (i) => `/api/channel/search?keyword=bench-ch-${i % BATCHES}&p=0&page_size=10`],
        ['search model', (i) => `/api/channel/search?model=${modelName(i)}&p=0&page_size=10`],
      ],
      settings.dbRepeats,
    );

    log(`[${label}] exporting every log as CSV, sampling the server's RSS ...`);
    result.export = await measureExport(gw);

    log(`[${label}] channel choice in process (the relay's ChannelIndex) ...`);
    const location = sqlDsn || gw.sqlitePath;
    try {
      result.choice = await runWorker(
        CORES.target,
        join(ROOT, 'bench/suites/channel-choice.ts'),
        { dialect: sqlDsn ? 'postgres' : 'sqlite', location, picks: 200_000 },
        { timeoutMs: 120_000, node: ['--import', 'tsx'], cwd: ROOT },
      );
    } catch (err) {
      result.choiceError = String(err.message ?? err).slice(0, 300);
    }

    const relay = await relayAnswers(gw);
    result.relay = relay;
    if (relay.ok) {
      log(`[${label}] channel edit → relay ...`);
      result.editMs = await editPropagation(gw, fake, editChannel);
    }
    await stopGateway(gw);
    result.ledger = relay.ok ? await ledgerCheck(gw) : undefined;
    removeGatewayFiles(gw);
  } catch (err) {
    if (gw) log(`[${label}] failed; the gateway's folder is kept: ${gw.dataDir} (log: ${gw.logFile})`);
    throw err;
  } finally {
    await stopGateway(gw);
    await stop(fake.child);
  }
  reportDb(result, goals);
  return result;
}

function reportDb(r, goals) {
  const all = (list) => list.flatMap((x) => x.ms);
  const table = (title, list) =>
    printTable(
      title,
      [
        ['query', 'kind'],
        ['p50 ms', (x) => fmt.ms(x.p50, 1)],
        ['p95 ms', (x) => fmt.ms(x.p95, 1)],
        ['max ms', (x) => fmt.ms(x.max, 1)],
        ['failed', 'failures'],
      ],
      list,
    );
  console.log(`\n[${r.label}] seeded channels in ${r.channelSeedSeconds.toFixed(1)} s, users/tokens/logs in ${r.rowSeedSeconds.toFixed(1)} s`);
  table(`[${r.label}] log list`, r.logList);
  table(`[${r.label}] log stat`, r.logStat);
  table(`[${r.label}] channel list`, r.channelList);
  const p95 = (list) => percentile(all(list), 95);
  const worst = (list) => list.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  const failed = (list) => list.reduce((n, x) => n + x.failures, 0);
  const line = (list) =>
    `p95 ${fmt.ms(p95(list), 1)} ms over ${all(list).length} queries (slowest kind: ${worst(list).kind}, p95 ${fmt.ms(worst(list).p95, 1)} ms)${failed(list) ? `; ${failed(list)} failed` : ''}`;
  goals.add(`[${r.label}] log list with filters p95 ≤ 100 ms`, p95(r.logList) <= 100 && !failed(r.logList), line(r.logList));
  goals.add(`[${r.label}] log stat p95 ≤ 500 ms`, p95(r.logStat) <= 500 && !failed(r.logStat), line(r.logStat));
  goals.add(`[${r.label}] channel list page p95 ≤ 100 ms`, p95(r.channelList) <= 100 && !failed(r.channelList), line(r.channelList));
  const e = r.export;
  const growthKb = e.peakKb - e.beforeKb;
  goals.add(
    `[${r.label}] log CSV export of every log with flat memory (peak RSS ≤ settled + ${EXPORT_RSS_GROWTH_LIMIT_KB / 1024} MB)`,
    e.rows >= r.seededLogs && growthKb <= EXPORT_RSS_GROWTH_LIMIT_KB,
    `${fmt.int(e.rows)} rows (${(e.bytes / 1e6).toFixed(0)} MB) in ${e.seconds.toFixed(1)} s; RSS ${(e.beforeKb / 1024).toFixed(0)} MB before, peak ${(e.peakKb / 1024).toFixed(0)} MB (+${(growthKb / 1024).toFixed(0)} MB)`,
  );
  if (r.choice) {
    const c = r.choice;
    console.log(`\n[${r.label}] channel choice: ${fmt.int(c.picks)} picks over ${c.pairs} (group, model) pairs of ${c.channels} channels; index built in ${c.buildMs.toFixed(1)} ms`);
    goals.add(
      `[${r.label}] channel choice p99 ≤ 0.1 ms`,
      c.p99us <= 100 && c.misses === 0,
      `p99 ${c.p99us.toFixed(1)} µs, p50 ${c.p50us.toFixed(1)} µs, max ${c.maxUs.toFixed(0)} µs${c.misses ? `, ${c.misses} found no channel` : ''}`,
    );
  } else {
    goals.add(`[${r.label}] channel choice p99 ≤ 0.1 ms`, undefined, `not measured: ${r.choiceError}`);
  }
  if (r.relay.ok) {
    const worstEdit = Math.max(...r.editMs);
    goals.add(`[${r.label}] channel edit used by the relay in < 1 s`, worstEdit < 1000, `${r.editMs.map((ms) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : '> 5 s')).join(', ')}`);
    goals.add(`[${r.label}] ledger after the run`, r.ledger.ok, `${fmt.int(r.ledger.logged)} logged vs ${fmt.int(r.ledger.used)} used; open ${r.ledger.open}`);
  } else {
    goals.add(`[${r.label}] channel edit used by the relay in < 1 s`, undefined, `not measured: the relay does not answer (${r.relay.reason})`);
  }
}

export async function dbSuite(settings, goals, log) {
  await buildServer(log);
  const results = [await runOn('sqlite', '', settings, goals, log)];
  const pgUrl = process.env.TEST_POSTGRES_URL;
  if (!pgUrl) {
    log('PostgreSQL: skipped (TEST_POSTGRES_URL is not set)');
    return results;
  }
  const { default: pg } = await import('pg');
  const name = `sy_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  try {
    const dsn = new URL(pgUrl);
    dsn.pathname = `/${name}`;
    results.push(await runOn('postgres', dsn.toString(), settings, goals, log));
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  return results;
}
