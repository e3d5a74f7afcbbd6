// A/B of two builds of the gateway: `npm run bench -- ab --base=<git revision>` (default HEAD,
// i.e. the working tree's uncommitted change against the last commit).
//
// Rows run one after another see a machine whose speed drifts: on the shared 2-core machine
// the same build's CPU per request moved by 60 % between two rows minutes apart (session 19:
// 234 to 391 µs), far more than a change on the hot path moves it. Here the two builds run at
// the same time instead, both on the target core, each loaded by its own wrk (a thread per
// connection, the load rows' script) on the client core, over the same window: whatever the
// machine does then, it does to both. Each round's figure is the ratio current ÷ base, and
// the rounds' median is the result. Two processes on one core pay for sharing it (switches,
// caches), the same for both, so the ratio is the thing to read, not the absolute figures.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWrk, wrkLoadRow } from '../lib/wrk.mjs';
import { COSTLY_PROMOTION, gcTraceNodeArgs } from '../lib/gc-trace.mjs';
import { buildServer, chatRequest, ledgerCheck, relayAnswers, removeGatewayFiles, ROOT, seedGateway, startGateway, stopGateway } from '../lib/gateway.mjs';
import { startFake } from '../lib/targets.mjs';
import { stop } from '../lib/procs.mjs';
import { fmt, printTable } from '../lib/report.mjs';
import { percentile } from '../lib/stats.mjs';

const BASE_ENTRY = join(ROOT, 'dist/bench-base/server/main.js');

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * Bundles `revision` from a temporary worktree into dist/bench-base (the bundle must live in
 * this checkout: it runs with this checkout's node_modules, schemas and console).
 */
async function buildBase(revision, log) {
  const sha = git('rev-parse', '--verify', `${revision}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-base-'));
  try {
    git('worktree', 'add', '--detach', dir, sha);
    await buildServer(log, { entry: BASE_ENTRY, sourceRoot: dir });
  } finally {
    git('worktree', 'remove', '--force', dir);
    rmSync(dir, { recursive: true, force: true });
  }
  return sha;
}

const median = (values) => percentile(values, 50);

export async function abSuite(settings, goals, log) {
  ensureWrk(log);
  const sha = await buildBase(settings.base, log);
  await buildServer(log);
  const dirty = git('status', '--porcelain', '--', 'src').length > 0;
  const current = dirty ? `the working tree (HEAD ${git('rev-parse', '--short', 'HEAD')} + uncommitted changes in src/)` : `HEAD ${git('rev-parse', '--short', 'HEAD')}`;
  const results = { base: sha, current, rounds: [] };
  const started = [];
  try {
    log('starting the fake upstream and both gateways (consume logging on) ...');
    const fake = await startFake();
    started.push(fake);
    const targets = [];
    for (const [name, entry] of [
      ['base', BASE_ENTRY],
      ['current', undefined],
    ]) {
      const gw = await startGateway({ name, entry, nodeArgs: gcTraceNodeArgs() });
      started.push(gw);
      await seedGateway(gw, { fakeUrl: fake.url, logConsume: true });
      const relay = await relayAnswers(gw);
      if (!relay.ok) throw new Error(`the ${name} gateway does not relay: ${relay.reason}`);
      targets.push(Object.assign(gw, { gcLog: gw.logFile }));
    }
    const connections = settings.abConnections;
    for (const stream of [false, true]) {
      const mode = stream ? 'stream' : 'JSON';
      for (let round = 1; round <= settings.abRounds; round++) {
        log(`${mode}, round ${round} of ${settings.abRounds}: both at once, ${connections} connections each, ${settings.warmup}+${settings.duration} s ...`);
        const rows = await Promise.all(
          targets.map((target) => {
            const { path, headers, body } = chatRequest(target.tokenKey, { stream });
            return wrkLoadRow({ url: target.url + path, headers, body, stream, connections, warmupSeconds: settings.warmup, durationSeconds: settings.duration, target });
          }),
        );
        const [base, cur] = rows;
        results.rounds.push({ mode, round, base, current: cur, cpuRatio: cur.cpuPerRequest / base.cpuPerRequest, rpsRatio: cur.rps / base.rps });
      }
    }
    for (const target of targets) {
      await stopGateway(target);
      results[`ledger_${target.name}`] = await ledgerCheck(target);
      removeGatewayFiles(target);
    }
  } finally {
    for (const s of started.reverse()) await stop(s.child);
  }
  report(results, settings, goals);
  return results;
}

function report(results, settings, goals) {
  const costly = (row) => (row.promotedPerRequest ?? 0) > COSTLY_PROMOTION;
  printTable(
    `A/B (both gateways at once on the target core, consume logging on, ${settings.abConnections} connections each): base ${results.base.slice(0, 10)}, current ${results.current}`,
    [
      ['mode', 'mode'],
      ['round', 'round', 'right'],
      ['base µs/req', (r) => fmt.int(r.base.cpuPerRequest)],
      ['current µs/req', (r) => fmt.int(r.current.cpuPerRequest)],
      ['current ÷ base', (r) => fmt.ratio(r.cpuRatio)],
      ['base req/s', (r) => fmt.int(r.base.rps)],
      ['current req/s', (r) => fmt.int(r.current.rps)],
      [
        'promoted KB/req base / current',
        (r) => `${fmt.ms((r.base.promotedPerRequest ?? NaN) / 1024, 1)}${costly(r.base) ? ' ⚠' : ''} / ${fmt.ms((r.current.promotedPerRequest ?? NaN) / 1024, 1)}${costly(r.current) ? ' ⚠' : ''}`,
      ],
      ['errors', (r) => String(r.base.errors + r.current.errors)],
    ],
    results.rounds,
  );
  console.log(' (⚠: that process ran the round in the collector\'s costly regime, bench/README.md "One gateway process is one sample")');
  for (const mode of ['JSON', 'stream']) {
    const rounds = results.rounds.filter((r) => r.mode === mode);
    const cpu = rounds.map((r) => r.cpuRatio);
    const rps = rounds.map((r) => r.rpsRatio);
    const like = rounds.filter((r) => costly(r.base) === costly(r.current)).map((r) => r.cpuRatio);
    console.log(
      `${mode}: CPU per request current ÷ base, median ${fmt.ratio(median(cpu))} (${fmt.ratio(Math.min(...cpu))}–${fmt.ratio(Math.max(...cpu))}, ${cpu.length} rounds; ` +
        `${like.length} rounds with both in the same collector regime: median ${fmt.ratio(median(like))}); req/s current ÷ base, median ${fmt.ratio(median(rps))}`,
    );
  }
  const errors = results.rounds.reduce((s, r) => s + r.base.errors + r.current.errors, 0);
  goals.add('A/B rounds without errors', errors === 0, `${results.rounds.length} rounds, ${errors} errors`);
  for (const name of ['base', 'current']) {
    const l = results[`ledger_${name}`];
    goals.add(
      `ledger of the ${name} gateway: logged quota = used, no open reservation, quota conserved`,
      l?.ok,
      l ? `${fmt.int(l.logged)} logged vs ${fmt.int(l.used)} used; open ${l.open}` : 'not read',
    );
  }
}
