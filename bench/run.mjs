// `npm run bench [-- <suite> ...] [-- --<setting>=<value> ...]`
//   (no suite)  gateway: overhead against a bare proxy, memory, console weight, ledger
//   db          database scale: 1,000,000 logs, 10,000 tokens, 1,000 channels
//   console     console weight only
//   soak        10 minutes at 80 % of the goal load
//   ab          two builds at once (--base=<git revision>, default HEAD): CPU per request current ÷ base
// Prints a ✓/✗ line per goal and exits 1 when one is not met. See bench/README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installCleanup, pinSelf, stopAll } from './lib/procs.mjs';
import { Goals, machineLine } from './lib/report.mjs';
import { readSettings } from './lib/settings.mjs';
import { gatewaySuite } from './suites/gateway.mjs';
import { consoleSuite } from './suites/console.mjs';
import { dbSuite } from './suites/db.mjs';
import { soakSuite } from './suites/soak.mjs';
import { abSuite } from './suites/ab.mjs';

const SUITES = { gateway: gatewaySuite, db: dbSuite, console: consoleSuite, soak: soakSuite, ab: abSuite };

const { settings, suites } = readSettings(process.argv.slice(2));
const chosen = suites.length ? suites : ['gateway'];
for (const name of chosen) if (!SUITES[name]) throw new Error(`unknown suite "${name}"; known: ${Object.keys(SUITES).join(', ')}`);

installCleanup();
pinSelf();
const began = Date.now();
const log = (msg) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
const goals = new Goals();
const results = { settings, startedAt: new Date().toISOString(), machineBefore: machineLine() };
log(`machine: ${results.machineBefore}`);
try {
  for (const name of chosen) results[name] = await SUITES[name](settings, goals, log);
} finally {
  await stopAll();
}
results.machineAfter = machineLine();
results.goals = goals.list;
console.log(`\nMachine at the start: ${results.machineBefore}\nMachine at the end:   ${results.machineAfter}`);
goals.print();
const outDir = join(new URL('.', import.meta.url).pathname, '.out');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `${chosen.join('-')}-${results.startedAt.replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify(results, (k, v) => (typeof v === 'function' ? undefined : v), 2),
);
console.log(`Figures written to ${file}; took ${((Date.now() - began) / 60000).toFixed(1)} min.`);
process.exitCode = goals.allMet ? 0 : 1;
