// The harness's side of eld-probe.mjs: start a target with `eldNodeArgs`, then `eldReset`
// right before a measured run and `eldRead` right after it give the target's event-loop delay
// over that run (p50/p99/max in ms), as the target itself measured it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sleep } from './procs.mjs';

const here = new URL('.', import.meta.url).pathname;
const OUT_DIR = join(here, '../.out');

/** Node options that load the probe into a target. */
export const eldNodeArgs = () => ['--import', pathToFileURL(join(here, 'eld-probe.mjs')).href];

/** The file the probe of process `pid` writes. */
export const eldFileOf = (pid) => join(OUT_DIR, `eld-${pid}.json`);

function readWindow(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Ends the target's current window and returns it (undefined when the probe does not answer). */
async function nextWindow(target, timeoutMs = 5000) {
  const previous = readWindow(target.eldFile)?.seq ?? 0;
  try {
    process.kill(target.pid, 'SIGUSR2');
  } catch {
    return undefined;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const w = readWindow(target.eldFile);
    if (w && w.seq > previous) return w;
    await sleep(20);
  }
  return undefined;
}

/** Starts a new window: what follows is the measured run. */
export const eldReset = (target) => nextWindow(target);

/** The window since the last reset: the event-loop delay during the measured run. */
export const eldRead = (target) => nextWindow(target);

/** Removes the probe's file once the target is gone. */
export function eldCleanup(target) {
  if (target?.eldFile && existsSync(target.eldFile)) rmSync(target.eldFile, { force: true });
}
