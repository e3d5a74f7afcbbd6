// Loaded into a measured target with `node --import <this file>` (the gateway and the bare
// proxy alike; nothing in src/ changes): samples the process's event-loop delay
// (perf_hooks.monitorEventLoopDelay, 10 ms resolution, a timer libuv runs anyway). On SIGUSR2
// it writes what it saw since the previous SIGUSR2 (p50, p99, max, mean in ms, and a sequence
// number) to bench/.out/eld-<pid>.json and starts a new window, so the harness reads the delay
// of exactly the measured run: one signal before, one after.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = new URL('../.out/', import.meta.url).pathname;
const file = `${dir}eld-${process.pid}.json`;
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
let seq = 0;
let since = Date.now();

process.on('SIGUSR2', () => {
  const ms = (ns) => ns / 1e6;
  const window = {
    seq: ++seq,
    seconds: (Date.now() - since) / 1000,
    samples: histogram.count,
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    mean: ms(histogram.mean),
  };
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(window));
    renameSync(`${file}.tmp`, file);
  } catch {
    // the harness reports the figure as missing
  }
  histogram.reset();
  since = Date.now();
});
