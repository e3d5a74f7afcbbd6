// Child processes of the benchmark: started pinned to one core (taskset), each in its own
// process group, remembered, and stopped by id in `finally` blocks, on SIGINT/SIGTERM and at
// exit. Also the /proc readers that give each target's CPU time and resident memory.
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { cpus } from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat utime and stime. */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The core of the measured target and the core of everything else (load, fake, harness). */
export const CORES = {
  target: process.env.BENCH_TARGET_CPU ?? '0',
  client: process.env.BENCH_CLIENT_CPU ?? '1',
};

const live = new Set();

/**
 * Starts `args` (argv[0] is the program) pinned to `core`. stdout is piped unless a log
 * file is given (stdout and stderr then both go to it); stdin is a pipe whose end tells our
 * own scripts that the harness is gone.
 */
export function startPinned(core, args, { env, cwd, logFile, stdout = 'pipe' } = {}) {
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  const child = spawn('taskset', ['-c', String(core), ...args], {
    cwd,
    env: env ?? process.env,
    detached: true,
    stdio: ['pipe', log ? 'pipe' : stdout, log ? 'pipe' : 'inherit'],
  });
  if (log) {
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  live.add(child);
  child.exited = once(child, 'exit').then(([code, signal]) => {
    live.delete(child);
    return { code, signal };
  });
  // A dead harness must not leave the child waiting on a broken pipe forever.
  child.stdin.on('error', () => undefined);
  return child;
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves when it exited. */
export async function stop(child, graceMs = 8000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exited;
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  try {
    return await child.exited;
  } finally {
    clearTimeout(timer);
  }
}

export async function stopAll() {
  await Promise.all([...live].map((c) => stop(c)));
}

let handlersInstalled = false;
/** Stops every child on Ctrl-C / SIGTERM, and kills leftovers if the harness exits anyway. */
export function installCleanup() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const onSignal = (sig) => {
    process.stderr.write(`\n${sig}: stopping the benchmark's processes ...\n`);
    stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.on('exit', () => {
    for (const child of live) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** Pins the harness itself to the client core, away from the measured target. */
export function pinSelf() {
  try {
    execFileSync('taskset', ['-cp', CORES.client, String(process.pid)], { stdio: 'ignore' });
  } catch {
    // not fatal: figures only get noisier
  }
}

/** Every core of the machine, as taskset writes them (`0-1`). */
export const ALL_CORES = `0-${cpus().length - 1}`;

/**
 * Runs `start` (which starts processes) with the harness on `cores`, so what it starts, and
 * everything those start later, runs there; the harness goes back to the client core after.
 */
export async function withCores(cores, start) {
  const pin = (to) => {
    try {
      execFileSync('taskset', ['-a', '-cp', to, String(process.pid)], { stdio: 'ignore' });
    } catch {
      // not fatal: figures only get noisier
    }
  };
  pin(cores);
  try {
    return await start();
  } finally {
    pin(CORES.client);
  }
}

/** The first stdout line of `child` that parses as JSON (our scripts announce themselves so). */
export function firstJsonLine(child, timeoutMs = 30000, what = 'child') {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => done(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        try {
          return done(undefined, JSON.parse(line));
        } catch {
          // not ours
        }
      }
    };
    const onExit = (code) => done(new Error(`${what} exited (${code}) before answering`));
    function done(err, value) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value);
    }
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.on('exit', onExit);
  });
}

/**
 * Runs one of our worker scripts pinned to `core` and returns the JSON it prints last.
 * `node`: extra Node options (e.g. ['--import', 'tsx'], resolved from `cwd`).
 */
export async function runWorker(core, script, input, { timeoutMs, node = [], cwd } = {}) {
  const child = startPinned(core, [process.execPath, ...node, script, JSON.stringify(input)], { cwd });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  const timer = timeoutMs ? setTimeout(() => stop(child, 1000), timeoutMs) : undefined;
  try {
    const { code, signal } = await child.exited;
    const last = out.trim().split('\n').pop() ?? '';
    if (code !== 0) throw new Error(`${script} failed (${code ?? signal}): ${out.slice(-400)}`);
    return JSON.parse(last);
  } finally {
    if (timer) clearTimeout(timer);
    await stop(child, 1000);
  }
}

/** utime + stime of the whole process (every thread), in microseconds. */
export function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

function statusKb(pid, key) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

export const rssKb = (pid) => statusKb(pid, 'VmRSS');
export const hwmKb = (pid) => statusKb(pid, 'VmHWM');

/** Samples a process's VmRSS every `everyMs`; `stop()` gives the peak in kB. */
export function rssSampler(pid, everyMs = 100) {
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, rssKb(pid));
    } catch {
      // process gone
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Mean VmRSS over `ms` (a calmer baseline than one reading). */
export async function settledRssKb(pid, ms = 1000) {
  const readings = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    readings.push(rssKb(pid));
    await sleep(100);
  }
  return readings.reduce((a, b) => a + b, 0) / readings.length;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
