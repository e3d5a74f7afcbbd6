// `npm test`: every runner (Vitest for unit and API suites, Playwright for the browser
// suites), then one closing line `N passed, N failed, N skipped` summing them all.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
mkdirSync('test-results', { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

function runner(name, cmd, args, reportFile, count) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (!existsSync(reportFile)) {
    console.log(`${name}: no report written (exit ${r.status}); counted as one failure`);
    totals.failed += 1;
    exitCode = 1;
    return;
  }
  const c = count(JSON.parse(readFileSync(reportFile, 'utf8')));
  console.log(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  if (r.status !== 0 || c.failed > 0) exitCode = 1;
}

runner('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json'], 'test-results/vitest.json', (j) => ({
  passed: j.numPassedTests ?? 0,
  failed: (j.numFailedTests ?? 0) + (j.numRuntimeErrorTestSuites ?? 0),
  skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0),
}));

const e2eDir = join(root, 'tests', 'e2e');
const hasE2e = existsSync(e2eDir) && readdirSync(e2eDir).some((f) => f.endsWith('.spec.ts'));
if (hasE2e) {
  runner('playwright', 'npx', ['playwright', 'test'], 'test-results/playwright.json', (j) => ({
    passed: j.stats?.expected ?? 0,
    failed: (j.stats?.unexpected ?? 0) + (j.stats?.flaky ?? 0),
    skipped: j.stats?.skipped ?? 0,
  }));
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
