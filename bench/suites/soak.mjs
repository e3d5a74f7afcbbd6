// `npm run bench -- soak`: the gateway on SQLite for 10 minutes (soakSeconds) at 80 %
// (soakShare) of the goal load, JSON and streams together. The goal load of each mode is
// half the bare proxy's throughput, measured first in the same run with wrk (as the load rows
// of `npm run bench`). The soak itself runs at a fixed rate, which wrk cannot do: autocannon
// (load-worker.mjs, overallRate) drives it. Afterwards: no 5xx, no
// SQLite busy/locked error in the answers or the server log, the rate held, and the ledger.
import { readFileSync } from 'node:fs';
import { CORES, rssKb, runWorker, stop } from '../lib/procs.mjs';
import { chatRequest, buildServer, ledgerCheck, relayAnswers, removeGatewayFiles, seedGateway, startGateway, stopGateway } from '../lib/gateway.mjs';
import { startBare, startFake, worker } from '../lib/targets.mjs';
import { ensureWrk, wrkLoadRow } from '../lib/wrk.mjs';
import { fmt, printTable } from '../lib/report.mjs';

const GOAL_SHARE_OF_BARE = 0.5;
const CONNECTIONS = 64;
const BUSY = /SQLITE_BUSY|SQLITE_LOCKED|database is locked|database table is locked/i;

function load(target, stream, { seconds, warmup, rate, tokenKey }) {
  const r = chatRequest(tokenKey ?? 'unused', { stream });
  return runWorker(
    CORES.client,
    worker('load-worker.mjs'),
    { url: target.url + r.path, headers: r.headers, body: r.body, stream, connections: CONNECTIONS, warmupSeconds: warmup, durationSeconds: seconds, pid: target.pid, overallRate: rate },
    { timeoutMs: (seconds + warmup + 120) * 1000 },
  );
}

export async function soakSuite(settings, goals, log) {
  ensureWrk(log);
  await buildServer(log);
  const started = [];
  const result = {};
  try {
    const fake = await startFake();
    started.push(fake);
    const bare = await startBare(fake.url);
    started.push(bare);
    const gw = await startGateway({ name: 'soak' });
    started.push(gw);
    await seedGateway(gw, { fakeUrl: fake.url });
    const relay = await relayAnswers(gw);
    if (!relay.ok) {
      goals.add('soak: no busy/locked error and no 5xx', undefined, `not measured: the relay does not answer (${relay.reason})`);
      return { relay };
    }

    log('soak: measuring the bare proxy for the goal load ...');
    const calibration = {};
    for (const stream of [false, true]) {
      const r = chatRequest('unused', { stream });
      const row = await wrkLoadRow({ url: bare.url + r.path, headers: r.headers, body: r.body, stream, connections: CONNECTIONS, warmupSeconds: 2, durationSeconds: 5, target: bare });
      calibration[stream ? 'stream' : 'JSON'] = row.rps;
    }
    await stop(bare.child);
    const rates = Object.fromEntries(Object.entries(calibration).map(([mode, rps]) => [mode, Math.max(1, Math.round(rps * GOAL_SHARE_OF_BARE * settings.soakShare * 0.5))]));
    log(`soak: ${settings.soakSeconds} s at ${rates.JSON} JSON + ${rates.stream} stream req/s (bare: ${fmt.int(calibration.JSON)} / ${fmt.int(calibration.stream)} req/s) ...`);

    const began = Date.now();
    const progress = setInterval(() => {
      try {
        log(`soak: ${Math.round((Date.now() - began) / 1000)} s, gateway RSS ${fmt.mb(rssKb(gw.pid))} MB`);
      } catch {
        // gateway gone: the workers report it
      }
    }, 60_000);
    let rows;
    try {
      rows = await Promise.all([false, true].map((stream) => load(gw, stream, { seconds: settings.soakSeconds, warmup: 0, rate: rates[stream ? 'stream' : 'JSON'], tokenKey: gw.tokenKey })));
    } finally {
      clearInterval(progress);
    }
    await stopGateway(gw);
    const serverLog = readFileSync(gw.logFile, 'utf8');
    const busyLines = serverLog.split('\n').filter((l) => BUSY.test(l));
    const ledger = await ledgerCheck(gw);
    removeGatewayFiles(gw);
    Object.assign(result, { calibration, rates, rows, busyLines: busyLines.slice(0, 5), busyCount: busyLines.length, ledger });

    const modes = ['JSON', 'stream'];
    printTable(
      `Soak: ${settings.soakSeconds} s, ${CONNECTIONS} connections per mode, fixed rate`,
      [
        ['mode', (_r, i) => modes[i]],
        ['target req/s', (_r, i) => fmt.int(rates[modes[i]])],
        ['req/s', (r) => fmt.int(r.rps)],
        ['p50 ms', (r) => fmt.ms(r.p50)],
        ['p99 ms', (r) => fmt.ms(r.p99)],
        ['CPU µs/req', (r) => fmt.int(r.cpuMicros / (rows[0].requests + rows[1].requests))],
        ['peak RSS MB', (r) => fmt.mb(r.peakRssKb)],
        ['errors', (r) => fmt.int(r.errors)],
        ['5xx', (r) => fmt.int(r.detail.status5xx)],
      ].map(([h, get]) => [h, (r) => get(r, rows.indexOf(r))]),
      rows,
    );
    const fivexx = rows.reduce((n, r) => n + r.detail.status5xx, 0);
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    goals.add('soak: no busy/locked error', busyLines.length === 0, busyLines.length ? `${busyLines.length} log lines, first: ${busyLines[0].slice(0, 200)}` : 'none in the server log');
    goals.add('soak: no 5xx and no error', fivexx === 0 && errors === 0, `${fivexx} 5xx, ${errors} errors in ${fmt.int(rows[0].requests + rows[1].requests)} requests`);
    const held = rows.map((r, i) => r.rps / rates[modes[i]]);
    goals.add(
      'soak: the rate held (≥ 0.95× the target)',
      held.every((x) => x >= 0.95),
      held.map((x, i) => `${modes[i]} ${fmt.ratio(x)}`).join(', '),
    );
    goals.add('soak: ledger holds afterwards', ledger.ok, `${fmt.int(ledger.logged)} logged vs ${fmt.int(ledger.used)} used; open ${ledger.open}`);
    return result;
  } finally {
    for (const s of started.reverse()) await (s.child ? stop(s.child) : undefined);
  }
}
