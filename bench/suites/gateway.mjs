// The gateway-overhead benchmark: our gateway against a bare pass-through proxy over the same
// fake upstream, each target alone on one core, the load and the fake on the other.
//   1. unloaded probe (one connection, sequential): added latency and time to first byte
//   2. memory run: 1,000 concurrent slow streams, short and long answers
//   3. load rows (wrk): JSON and stream, at each connection count, for the fake upstream
//      directly (the rig's own ceiling), the bare proxy, the gateway and the gateway with
//      consume logging off; req/s, p50/p99, CPU µs per request, peak RSS, event-loop delay
//   4. console weight, then the ledger check after the gateway stopped
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CORES, hwmKb, rssSampler, runWorker, settledRssKb, sleep, stop } from '../lib/procs.mjs';
import { ensureWrk, wrkLoadRow, wrkVersion } from '../lib/wrk.mjs';
import { eldCleanup, eldFileOf, eldNodeArgs } from '../lib/eld.mjs';
import { COSTLY_PROMOTION, gcTraceNodeArgs } from '../lib/gc-trace.mjs';
import {
  chatRequest,
  buildServer,
  rootClient,
  SERVER_ENTRY,
  serverLogProblems,
  ledgerCheck,
  removeGatewayFiles,
  relayAnswers,
  seedGateway,
  SLOW_MODELS,
  startGateway,
  stopGateway,
} from '../lib/gateway.mjs';
import { startBare, startFake, worker } from '../lib/targets.mjs';
import { fmt, printTable } from '../lib/report.mjs';
import { printProfile, summarizeProfile } from '../lib/profile.mjs';
import { consoleGoals, ensureWebBuild, measureConsoleWeight } from './console.mjs';

const MB = 1024;
/** The bare proxy's row is the proxy's own limit only when the rig alone goes this much faster. */
const RIG_HEADROOM = 2.5;
/** The gateway's goals against the bare proxy (issue #16). */
const GOALS = { throughput: 0.7, cpu: 1.5, idleExtraMb: 40, loadExtraMb: 80 };
/** How long the gateway and the bare proxy go without requests before their idle RSS is read. */
const IDLE_QUIET_SECONDS = 60;
/** Metrics on may cost the gateway this share of its throughput at most: within the noise of a row. */
const METRICS_MIN_RATIO = 0.95;
const OUT_DIR = join(new URL('..', import.meta.url).pathname, '.out');

/** How a target is addressed: bare proxy and fake take the request without a token. */
function requestFor(target, { stream, model }) {
  const r = chatRequest(target.tokenKey ?? 'unused', { stream, model });
  return { ...r, url: target.url + r.path };
}

async function probe(target, stream, settings) {
  const { url, headers, body } = requestFor(target, { stream });
  return runWorker(CORES.client, worker('probe-worker.mjs'), { url, headers, body, stream, warmup: settings.probeWarmup, count: settings.probeCount }, { timeoutMs: 300_000 });
}

async function memoryRound(target, model, settings) {
  const { url, headers, body } = requestFor(target, { stream: true, model });
  const baseline = await settledRssKb(target.pid);
  const sampler = rssSampler(target.pid, 100);
  const run = await runWorker(CORES.client, worker('streams-worker.mjs'), { url, headers, body, count: settings.streams, timeoutMs: 120_000 }, { timeoutMs: 300_000 });
  const peak = sampler.stop();
  await sleep(settings.settle * 1000);
  const after = await settledRssKb(target.pid);
  return { target: target.label, model, ...run, baseline, peak, after, growth: peak - baseline, residual: after - baseline };
}

async function loadRow(target, stream, connections, settings) {
  const { url, headers, body } = requestFor(target, { stream });
  const row = await wrkLoadRow({ url, headers, body, stream, connections, warmupSeconds: settings.warmup, durationSeconds: settings.duration, target });
  return { target: target.label, key: target.key, mode: stream ? 'stream' : 'JSON', stream, connections, ...row };
}

/** Marks a target started with the event-loop delay probe (eld-probe.mjs). */
const withEld = (target) => Object.assign(target, { eldFile: eldFileOf(target.pid) });
/**
 * A gateway of the load rows: started with the event-loop delay probe and printing its
 * collections (gc-trace.mjs) to its server log, and marked so each row reads both.
 */
async function startMeasuredGateway({ nodeArgs = [], ...options }) {
  const gw = await startGateway({ ...options, nodeArgs: [...eldNodeArgs(), ...gcTraceNodeArgs(), ...nodeArgs] });
  return Object.assign(withEld(gw), { gcLog: gw.logFile });
}

export async function gatewaySuite(settings, goals, log) {
  ensureWrk(log);
  await buildServer(log);
  await ensureWebBuild(log);
  const started = [];
  const results = { probes: [], memory: [], rows: [], loadGenerator: wrkVersion() };
  try {
    log('starting the fake upstream, the bare proxy and three gateways ...');
    const fake = await startFake();
    started.push(fake);
    const bare = withEld({ ...(await startBare(fake.url, { nodeArgs: eldNodeArgs() })), key: 'bare', label: 'bare proxy' });
    started.push(bare);
    const profileDir = join(OUT_DIR, `profile-${Date.now()}`);
    const gw = await startMeasuredGateway({ name: 'on', nodeArgs: settings.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
    started.push(gw);
    const gwOff = await startMeasuredGateway({ name: 'off' });
    started.push(gwOff);
    // The gateway again with Prometheus metrics on (issue #19: recording must cost no more than
    // the bench's noise), scraped every SCRAPE_EVERY_MS during its rows as Prometheus would.
    const metricsToken = randomBytes(16).toString('hex');
    const gwMetrics = await startMeasuredGateway({ name: 'metrics', env: { METRICS_TOKEN: metricsToken } });
    started.push(gwMetrics);
    await seedGateway(gw, { fakeUrl: fake.url, logConsume: true });
    await seedGateway(gwOff, { fakeUrl: fake.url, logConsume: false });
    await seedGateway(gwMetrics, { fakeUrl: fake.url, logConsume: true });
    Object.assign(gw, { key: 'gw', label: 'gateway' });
    Object.assign(gwOff, { key: 'gwOff', label: 'gateway, log off' });
    Object.assign(gwMetrics, { key: 'gwMetrics', label: 'gateway, metrics on' });
    const scraper = startScraper(gwMetrics, metricsToken);
    const direct = { ...fake, key: 'direct', label: 'fake (direct)' };

    // RSS right after start: the bare proxy and the gateway (logging on) once started and
    // seeded, before any request went through them (mean over 1 s).
    results.idle = { bare: await settledRssKb(bare.pid), gw: await settledRssKb(gw.pid) };

    const relay = await relayAnswers(gw);
    results.relay = relay;
    if (!relay.ok) log(`⚠ the relay does not answer yet (${relay.reason}): gateway rows are skipped`);
    const gateways = relay.ok ? [gw, gwOff, gwMetrics] : [];

    // 1. Unloaded probe.
    for (const target of settings.probeCount > 0 ? [direct, bare, ...(relay.ok ? [gw] : [])] : []) {
      for (const stream of [false, true]) {
        log(`probe: ${target.label}, ${stream ? 'stream' : 'JSON'} ...`);
        results.probes.push({ target: target.label, key: target.key, mode: stream ? 'stream' : 'JSON', ...(await probe(target, stream, settings)) });
      }
    }
    const probed = Date.now();

    // 2. Memory run: each round on a fresh process (so no round inherits the heap another one
    //    grew), after a few streams of each kind that load what is loaded once (lazy modules,
    //    tokenizer tables) into the baseline.
    for (const kind of settings.streams > 0 ? ['bare', ...(relay.ok ? ['gw'] : [])] : []) {
      for (const model of SLOW_MODELS) {
        const target = kind === 'bare' ? { ...(await startBare(fake.url)), key: 'bare', label: 'bare proxy' } : await seedGateway(await startGateway({ name: 'memory' }), { fakeUrl: fake.url });
        started.push(target);
        if (kind === 'gw') Object.assign(target, { key: 'gw', label: 'gateway' });
        try {
          for (const m of SLOW_MODELS) await memoryRound(target, m, { ...settings, streams: 20, settle: 0 });
          log(`memory: ${settings.streams} slow streams through a fresh ${target.label} (${model}) ...`);
          results.memory.push({ key: target.key, ...(await memoryRound(target, model, settings)) });
        } finally {
          if (kind === 'gw') await stopGateway(target);
          else await stop(target.child);
        }
        if (kind === 'gw') {
          results.memoryLedgers = [...(results.memoryLedgers ?? []), await ledgerCheck(target)];
          removeGatewayFiles(target);
        }
      }
    }

    // Idle RSS: the bare proxy and the gateway after the probe's requests and then at least
    //    IDLE_QUIET_SECONDS without any (the memory rounds ran on processes of their own). V8
    //    sizes its young generation for the allocations of start-up and gives that back only
    //    once a process has been quiet for a while (its memory reducer), so this is the figure
    //    of a node waiting for work; "right after start" (above) is reported beside it.
    const quietMs = IDLE_QUIET_SECONDS * 1000 - (Date.now() - probed);
    if (quietMs > 0) {
      log(`idle: ${Math.ceil(quietMs / 1000)} s more without requests before reading idle RSS ...`);
      await sleep(quietMs);
    }
    results.idleQuiet = { bare: await settledRssKb(bare.pid), gw: await settledRssKb(gw.pid), seconds: Math.round((Date.now() - probed) / 1000) };

    // 3. Load rows (wrk), the targets interleaved so drift on the shared machine hits them
    //    alike, after one longer warm-up of each target and mode (JIT, pools, heap size). The
    //    fake answered directly, with the same requests, is the rig's own ceiling: the bare
    //    proxy's row is a yardstick only when the rig could have driven far more than it did.
    const loadTargets = [direct, bare, ...gateways];
    if (settings.firstWarmup > 0) {
      for (const target of loadTargets) {
        log(`warm-up: ${target.label}, ${settings.firstWarmup} s per mode ...`);
        for (const stream of [false, true]) await loadRow(target, stream, Math.max(...settings.connectionList), { ...settings, warmup: 0, duration: settings.firstWarmup });
      }
    }
    const runs = [];
    for (let round = 1; round <= settings.repeats; round++) {
      for (const stream of [false, true]) {
        for (const connections of settings.connectionList) {
          for (const target of loadTargets) {
            log(`load${settings.repeats > 1 ? ` (round ${round})` : ''}: ${target.label}, ${stream ? 'stream' : 'JSON'}, ${connections} connections, ${settings.warmup}+${settings.duration} s ...`);
            runs.push(await loadRow(target, stream, connections, settings));
          }
        }
      }
    }
    results.runs = runs;
    results.rows = bestOf(runs);
    results.hwm = Object.fromEntries([bare, ...gateways].map((t) => [t.key, hwmKb(t.pid)]));

    // 4. Console weight, served by the gateway.
    log('console weight (/login and /channel in Chromium, bytes as served) ...');
    results.console = await measureConsoleWeight(gw.url, log, { root: gw.root ?? (await rootClient(gw)), loads: settings.consoleLoads, channels: settings.consoleChannels });

    log('stopping the gateways and reading the ledger ...');
    await stopGateway(gw);
    await stopGateway(gwOff);
    results.scrapes = scraper.stop();
    await stopGateway(gwMetrics);
    results.serverLog = Object.fromEntries(
      [gw, gwOff, gwMetrics].map((g) => {
        const lines = serverLogProblems(g);
        return [g.key, { count: lines.length, first: lines.slice(0, 3).map((l) => l.slice(0, 300)) }];
      }),
    );
    results.ledger = relay.ok ? await ledgerCheck(gw) : undefined;
    if (settings.profile) results.profile = profileOf(profileDir);
    results.ledgerOff = relay.ok ? await ledgerCheck(gwOff) : undefined;
    results.ledgerMetrics = relay.ok ? await ledgerCheck(gwMetrics) : undefined;
    removeGatewayFiles(gw);
    removeGatewayFiles(gwOff);
    removeGatewayFiles(gwMetrics);
  } finally {
    for (const s of started.reverse()) await stop(s.child);
    for (const s of started) eldCleanup(s);
  }
  report(results, settings, goals);
  return results;
}

const SCRAPE_EVERY_MS = 5000;

/** Scrapes the gateway's /metrics every SCRAPE_EVERY_MS until stopped; counts answers and failures. */
function startScraper(gw, token) {
  const counts = { ok: 0, failed: 0, bytes: 0, lastError: '' };
  const timer = setInterval(async () => {
    try {
      const res = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      if (res.status === 200 && text.includes('switchyard_relay_requests_total')) {
        counts.ok++;
        counts.bytes = text.length;
      } else {
        counts.failed++;
        counts.lastError = `HTTP ${res.status} ${text.slice(0, 120)}`;
      }
    } catch (err) {
      counts.failed++;
      counts.lastError = String(err);
    }
  }, SCRAPE_EVERY_MS);
  return { stop: () => (clearInterval(timer), counts) };
}

/**
 * One row per target, mode and connection count: with several rounds, the round with the
 * most requests/s (the one least disturbed by whatever else the machine ran), with the
 * errors of every round.
 */
function bestOf(runs) {
  const groups = new Map();
  for (const r of runs) {
    const k = `${r.key} ${r.mode} ${r.connections}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((list) => {
    const best = list.reduce((a, b) => (b.rps > a.rps ? b : a));
    return { ...best, errors: list.reduce((n, r) => n + r.errors, 0), rounds: list.length };
  });
}

/**
 * The gateway's CPU profile, written when it exited, summarized against the source map. Each
 * thread writes its own (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): the main
 * thread's is thread 0; the others (the SQLite checkpointer) are left out.
 */
function profileOf(dir) {
  const file = existsSync(dir) ? readdirSync(dir).find((f) => /\.0\.\d+\.cpuprofile$/.test(f)) : undefined;
  if (!file) return { error: `no .cpuprofile in ${dir}` };
  const s = summarizeProfile(join(dir, file), SERVER_ENTRY);
  const top = (list) => list.slice(0, 50);
  return { file: join(dir, file), summary: { ...s, selfByFunction: top(s.selfByFunction), selfByFile: top(s.selfByFile), totalByFile: top(s.totalByFile) } };
}

const rowOf = (rows, key, mode, connections) => rows.find((r) => r.key === key && r.mode === mode && r.connections === connections);

function report(results, settings, goals) {
  const { rows, probes, memory } = results;
  const ratio = (row, get) => {
    const base = rowOf(rows, 'bare', row.mode, row.connections);
    return base ? get(row) / get(base) : NaN;
  };
  printTable(
    `Load (${results.loadGenerator ?? 'wrk'}, a thread per connection; ${settings.warmup} s warm-up then ${settings.duration} s measured on the same connections per row${settings.repeats > 1 ? `, best of ${settings.repeats} rounds` : ''}; target on CPU ${CORES.target}, load and fake on CPU ${CORES.client}; "fake (direct)" is the rig alone, its CPU and RSS the fake's)`,
    [
      ['target', 'target'],
      ['mode', 'mode'],
      ['conns', 'connections'],
      ['req/s', (r) => fmt.int(r.rps)],
      ['p50 ms', (r) => fmt.ms(r.p50)],
      ['p99 ms', (r) => fmt.ms(r.p99)],
      ['new conns ms', (r) => fmt.ms(r.firstAnswerMax)],
      ['CPU µs/req', (r) => fmt.int(r.cpuPerRequest)],
      ['peak RSS MB', (r) => fmt.mb(r.peakRssKb)],
      ['loop delay p99 ms', (r) => (r.eld ? fmt.ms(r.eld.p99) : '')],
      ['promoted KB/req', (r) => (r.promotedPerRequest === undefined ? '' : `${(r.promotedPerRequest / 1024).toFixed(1)}${r.promotedPerRequest > COSTLY_PROMOTION ? ' ⚠' : ''}`)],
      ['errors', (r) => fmt.int(r.errors)],
      ['× req/s', (r) => (r.key === 'bare' ? '' : fmt.ratio(ratio(r, (x) => x.rps)))],
      ['× CPU/req', (r) => (r.key === 'bare' || r.key === 'direct' ? '' : fmt.ratio(ratio(r, (x) => x.cpuPerRequest)))],
      ['× p99', (r) => (r.key === 'bare' || r.key === 'direct' ? '' : fmt.ratio(ratio(r, (x) => x.p99)))],
    ],
    rows,
  );
  console.log(
    "(× columns: against the bare proxy's row of the same mode and connections. p50/p99: of the requests sent and answered inside the\n" +
      " measured window, timed by the wrk script itself (bench/README.md: not wrk's own figures). New conns: the slowest first answer\n" +
      ' when the row opened its connections all at once, before the warm-up (a loaded Node server accepts one per event-loop turn).\n' +
      " Loop delay: the target's own event-loop delay over the measured run,\n" +
      ' monitorEventLoopDelay at 10 ms resolution, loaded with --import bench/lib/eld-probe.mjs; the fake is not probed.\n' +
      " Promoted: what the gateway's scavenges moved to V8's old generation during the run, per request (--trace-gc-nvp); ⚠ above\n" +
      ` ${fmt.int(COSTLY_PROMOTION)} bytes: the row ran in the collector's costly regime, which a process falls into or not by chance (bench/README.md,\n` +
      ' "One gateway process is one sample"), so its CPU and memory are not comparable with a row without ⚠.)',
  );
  for (const mode of ['JSON', 'stream']) {
    for (const c of settings.connectionList) {
      const d = rowOf(rows, 'direct', mode, c);
      const b = rowOf(rows, 'bare', mode, c);
      const x = d && b ? d.rps / b.rps : NaN;
      console.log(
        x >= RIG_HEADROOM
          ? `Rig ${mode} @${c}: not bound: the fake answered directly at ${fmt.int(d.rps)} req/s, ${fmt.ratio(x)} the bare proxy's ${fmt.int(b.rps)}; the bare yardstick is the proxy's own limit.`
          : `Rig ${mode} @${c}: ⚠ BOUND: direct-to-fake ${fmt.int(d?.rps)} req/s is only ${fmt.ratio(x)} the bare proxy's ${fmt.int(b?.rps)} (< ${RIG_HEADROOM}×): the bare yardstick was limited by the rig (load generator + fake on CPU ${CORES.client}), so ratios against it are flattered.`,
      );
    }
  }
  printTable(
    `Unloaded probe (one connection, ${settings.probeCount} sequential requests after ${settings.probeWarmup} warm-up)`,
    [
      ['target', 'target'],
      ['mode', 'mode'],
      ['p50 ms', (r) => fmt.ms(r.p50, 3)],
      ['p99 ms', (r) => fmt.ms(r.p99, 3)],
      ['first data p50 ms', (r) => (r.mode === 'stream' ? fmt.ms(r.firstP50, 3) : '')],
      ['errors', (r) => fmt.int(r.errors)],
    ],
    probes,
  );
  printTable(
    `Memory: ${settings.streams} concurrent slow streams, each round on a fresh process (RSS, MB)`,
    [
      ['target', 'target'],
      ['answer', (m) => m.model.replace('bench-slow-', '')],
      ['KB/answer', (m) => fmt.int(m.bytes / m.count / 1024)],
      ['completed', (m) => fmt.int(m.completed)],
      ['failed', (m) => fmt.int(m.count - m.completed)],
      ['seconds', (m) => m.seconds.toFixed(1)],
      ['before', (m) => fmt.mb(m.baseline)],
      ['peak', (m) => fmt.mb(m.peak)],
      ['growth', (m) => fmt.mb(m.growth)],
      ['KB/stream', (m) => fmt.int(m.growth / m.count)],
      [`after ${settings.settle} s`, (m) => fmt.mb(m.after)],
    ],
    memory,
  );
  if (results.hwm)
    console.log(
      `\nVmHWM at the end: ${Object.entries(results.hwm)
        .map(([k, v]) => `${k} ${fmt.mb(v)} MB`)
        .join(', ')}`,
    );
  for (const [key, { count, first }] of Object.entries(results.serverLog ?? {})) {
    console.log(`\nServer log of ${key}: ${count} warning/error lines${count ? `, first:\n  ${first.join('\n  ')}` : ''}`);
  }
  if (results.console) results.console.print();
  if (results.profile?.summary) {
    console.log('\n(The "gateway" rows ran under the CPU profiler, which adds its own cost: compare them with "log off" only in runs without --profile.)');
    printProfile(results.profile.summary);
    console.log(`(profile: ${results.profile.file}; again with: node bench/lib/profile.mjs <file> 40)`);
  } else if (results.profile) console.log(`\nCPU profile: ${results.profile.error}`);

  // Goals.
  const relayNote = results.relay.ok ? undefined : `not measured: the relay does not answer (${results.relay.reason})`;
  const gwRows = rows.filter((r) => r.key === 'gw');
  const need = (cond, measured) => (relayNote ? [undefined, relayNote] : [cond, measured]);
  for (const mode of ['JSON', 'stream']) {
    for (const c of settings.connectionList) {
      const d = rowOf(rows, 'direct', mode, c);
      const b = rowOf(rows, 'bare', mode, c);
      const x = d && b ? d.rps / b.rps : NaN;
      goals.add(`rig not bound ${mode} @${c}: direct-to-fake ≥ ${RIG_HEADROOM}× bare proxy req/s`, x >= RIG_HEADROOM, `${fmt.ratio(x)} (${fmt.int(d?.rps)} vs ${fmt.int(b?.rps)} req/s)`);
    }
  }
  for (const mode of ['JSON', 'stream']) {
    for (const c of settings.connectionList) {
      const r = rowOf(rows, 'gw', mode, c);
      const b = rowOf(rows, 'bare', mode, c);
      const x = r && b ? r.rps / b.rps : NaN;
      goals.add(`throughput ${mode} @${c} ≥ ${GOALS.throughput}× bare`, ...need(x >= GOALS.throughput, `${fmt.ratio(x)} (${fmt.int(r?.rps)} vs ${fmt.int(b?.rps)} req/s)`));
    }
  }
  for (const mode of ['JSON', 'stream']) {
    for (const c of settings.connectionList) {
      const r = rowOf(rows, 'gw', mode, c);
      const b = rowOf(rows, 'bare', mode, c);
      const x = r && b ? r.cpuPerRequest / b.cpuPerRequest : NaN;
      goals.add(`CPU per request ${mode} @${c} ≤ ${GOALS.cpu}× bare`, ...need(x <= GOALS.cpu, `${fmt.ratio(x)} (${fmt.int(r?.cpuPerRequest)} vs ${fmt.int(b?.cpuPerRequest)} µs)`));
    }
  }
  const probeOf = (key, mode) => probes.find((p) => p.key === key && p.mode === mode);
  {
    const g = probeOf('gw', 'JSON');
    const b = probeOf('bare', 'JSON');
    const added = g && b ? g.p50 - b.p50 : NaN;
    goals.add('unloaded added latency (JSON, p50) ≤ 0.3 ms over bare', ...need(added <= 0.3, `${fmt.signed(added, 3)} ms (${fmt.ms(g?.p50, 3)} vs ${fmt.ms(b?.p50, 3)} ms)`));
    const gs = probeOf('gw', 'stream');
    const bs = probeOf('bare', 'stream');
    const ttfb = gs && bs ? gs.firstP50 - bs.firstP50 : NaN;
    goals.add('stream time to first data (p50) ≤ 0.5 ms over bare', ...need(ttfb <= 0.5, `${fmt.signed(ttfb, 3)} ms (${fmt.ms(gs?.firstP50, 3)} vs ${fmt.ms(bs?.firstP50, 3)} ms)`));
  }
  const top = Math.max(...settings.connectionList);
  for (const mode of ['JSON', 'stream']) {
    const r = rowOf(rows, 'gw', mode, top);
    const b = rowOf(rows, 'bare', mode, top);
    const x = r && b ? r.p99 / b.p99 : NaN;
    goals.add(`p99 ${mode} @${top} ≤ 2× bare`, ...need(x <= 2, `${fmt.ratio(x)} (${fmt.ms(r?.p99)} vs ${fmt.ms(b?.p99)} ms)`));
  }
  {
    const bad = [...rows, ...probes].filter((r) => r.errors > 0);
    const detail = bad.map(
      (r) =>
        `${r.target} ${r.mode}${r.connections ? ` @${r.connections}` : ' probe'}: ${r.errors}${r.detail ? ` ${JSON.stringify(Object.fromEntries(Object.entries(r.detail).filter(([, v]) => v)))}` : ''}${r.errorSample ? ` ${r.errorSample}` : ''}`,
    );
    goals.add('zero errors in every row', rows.length > 0 && bad.length === 0, bad.length ? detail.join('; ') : `${rows.length} load rows, ${probes.length} probes, 0 errors`);
  }
  if (results.idleQuiet) {
    const { bare: b, gw: g, seconds } = results.idleQuiet;
    const start = results.idle ? `; right after start ${fmt.mb(results.idle.gw)} vs ${fmt.mb(results.idle.bare)} MB (+${fmt.mb(results.idle.gw - results.idle.bare)})` : '';
    goals.add(`idle RSS ≤ bare + ${GOALS.idleExtraMb} MB`, ...need(g - b <= GOALS.idleExtraMb * MB, `${fmt.mb(g)} vs ${fmt.mb(b)} MB (+${fmt.mb(g - b)}) after ${seconds} s without requests${start}`));
  }
  {
    const peak = (key) => Math.max(...rows.filter((r) => r.key === key).map((r) => r.peakRssKb));
    const g = peak('gw');
    const b = peak('bare');
    goals.add(`peak RSS under load ≤ bare + ${GOALS.loadExtraMb} MB`, ...need(g - b <= GOALS.loadExtraMb * MB, `${fmt.mb(g)} vs ${fmt.mb(b)} MB (+${fmt.mb(g - b)}), highest of the load rows`));
  }
  const mem = (key, model) => memory.find((m) => m.key === key && m.model === model);
  {
    const short = mem('gw', SLOW_MODELS[0]);
    const long = mem('gw', SLOW_MODELS[1]);
    const bareShort = mem('bare', SLOW_MODELS[0]);
    const failed = [short, long].reduce((n, m) => n + (m ? m.count - m.completed : 0), 0);
    goals.add(
      `${settings.streams} concurrent slow streams without errors`,
      ...need(failed === 0, failed === 0 ? `${short?.completed} + ${long?.completed} completed` : `${failed} failed: ${JSON.stringify({ ...short?.failures, ...long?.failures })}`),
    );
    const x = short && bareShort ? short.growth / bareShort.growth : NaN;
    goals.add(`RSS growth with ${settings.streams} streams ≤ 1.5× bare`, ...need(x <= 1.5, `${fmt.ratio(x)} (${fmt.mb(short?.growth)} vs ${fmt.mb(bareShort?.growth)} MB)`));
    // Streamed bytes leave garbage until the next GC, so RSS grows with the answer through
    // the bare proxy too; what the gateway may not add is memory held per answer (holding
    // the whole long answer would add about its size per stream).
    const bareLong = mem('bare', SLOW_MODELS[1]);
    const perStream = (m) => (m ? m.growth / m.count : NaN);
    const extra = perStream(long) - perStream(short);
    const bareExtra = perStream(bareLong) - perStream(bareShort);
    const answerKb = long ? long.bytes / long.count / 1024 : NaN;
    const allowed = Math.max(1.5 * bareExtra, 0.25 * answerKb);
    goals.add(
      "memory per stream independent of the answer length (long − short ≤ max(1.5× bare's, ¼ answer))",
      ...need(extra <= allowed, `+${fmt.int(extra)} KB per stream for ${fmt.int(answerKb)} KB answers (${fmt.int(perStream(long))} vs ${fmt.int(perStream(short))}); bare +${fmt.int(bareExtra)} KB`),
    );
    // Back to baseline: what is left after the settle time, against what the bare proxy keeps.
    const residual = Math.max(short?.residual ?? NaN, long?.residual ?? NaN);
    const bareResidual = Math.max(...memory.filter((m) => m.key === 'bare').map((m) => m.residual), 0);
    const allowance = Math.max(16 * MB, 1.5 * bareResidual);
    goals.add(
      `memory back to baseline ${settings.settle} s after the streams (kept ≤ max(16 MB, 1.5× bare's))`,
      ...need(residual <= allowance, `${fmt.mb(residual)} MB kept (bare keeps ${fmt.mb(bareResidual)} MB)`),
    );
  }
  {
    const ratios = [];
    for (const r of gwRows) {
      const off = rowOf(rows, 'gwOff', r.mode, r.connections);
      if (off) ratios.push({ label: `${r.mode} @${r.connections}`, x: r.rps / off.rps });
    }
    const worst = ratios.length ? ratios.reduce((a, b) => (b.x < a.x ? b : a)) : { x: NaN, label: '' };
    // CPU per request of off ÷ on: the same comparison, steadier on a shared machine.
    const cpu = gwRows.map((r) => rowOf(rows, 'gwOff', r.mode, r.connections)?.cpuPerRequest / r.cpuPerRequest).filter(Number.isFinite);
    goals.add(
      'consume logging on keeps ≥ 0.85× the throughput of logging off (billing stays on: the relay has no switch for it)',
      ...need(
        ratios.length > 0 && ratios.every((r) => r.x >= 0.85),
        `worst ${fmt.ratio(worst.x)} (${worst.label}); ${ratios.map((r) => `${r.label} ${fmt.ratio(r.x)}`).join(', ')}; CPU per request off÷on ${cpu.map(fmt.ratio).join(', ')}`,
      ),
    );
  }
  {
    // Metrics on ÷ off: the same gateway (logging on) with METRICS_TOKEN set and scraped.
    const ratios = [];
    for (const r of gwRows) {
      const on = rowOf(rows, 'gwMetrics', r.mode, r.connections);
      if (on) ratios.push({ label: `${r.mode} @${r.connections}`, x: on.rps / r.rps, cpu: on.cpuPerRequest / r.cpuPerRequest });
    }
    const worst = ratios.length ? ratios.reduce((a, b) => (b.x < a.x ? b : a)) : { x: NaN, label: '' };
    const sc = results.scrapes;
    goals.add(
      `Prometheus metrics on keeps ≥ ${METRICS_MIN_RATIO}× the throughput of metrics off, scraped every ${SCRAPE_EVERY_MS / 1000} s`,
      ...need(
        ratios.length > 0 && ratios.every((r) => r.x >= METRICS_MIN_RATIO) && sc?.ok > 0 && sc.failed === 0,
        `worst ${fmt.ratio(worst.x)} (${worst.label}); ${ratios.map((r) => `${r.label} ${fmt.ratio(r.x)}`).join(', ')}; CPU per request on÷off ${ratios.map((r) => fmt.ratio(r.cpu)).join(', ')}; ${sc?.ok ?? 0} scrapes (${fmt.kb(sc?.bytes ?? 0)} each), ${sc?.failed ?? 0} failed${sc?.lastError ? ` (${sc.lastError})` : ''}`,
      ),
    );
    const m = results.ledgerMetrics;
    if (m) goals.add('ledger of the metrics-on gateway: logged quota = used, no open reservation, quota conserved', m.ok, `${fmt.int(m.logged)} logged vs ${fmt.int(m.used)} used; open ${m.open}`);
  }
  for (const [n, l] of (results.memoryLedgers ?? []).entries()) {
    if (!l.ok) goals.add(`ledger of memory-run gateway ${n + 1}`, false, `${fmt.int(l.logged)} logged vs ${fmt.int(l.used)} used; open ${l.open}; ${JSON.stringify(l.checks)}`);
  }
  if (results.ledger) {
    const l = results.ledger;
    goals.add(
      'ledger after the run: logged quota = token used quota, no open reservation, quota conserved',
      l.ok,
      `${fmt.int(l.logged)} logged in ${fmt.int(l.logs)} logs vs ${fmt.int(l.used)} used; open ${l.open}; ${Object.entries(l.checks)
        .filter(([, v]) => !v)
        .map(([k]) => `✗ ${k}`)
        .join(' ')}`.trim(),
    );
    const o = results.ledgerOff;
    goals.add(
      'ledger of the logging-off gateway: no open reservation, quota conserved',
      o.checks.noOpenReservations && o.checks.tokenConserved && o.checks.userConserved,
      `open ${o.open}; used ${fmt.int(o.used)}`,
    );
  } else {
    goals.add('ledger after the run', undefined, relayNote);
  }
  if (results.console) consoleGoals(results.console, goals);
}
