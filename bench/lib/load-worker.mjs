// The soak's fixed-rate load (overallRate), which wrk cannot do; the load rows of
// `npm run bench` and the soak's calibration use wrk (wrk.mjs) instead.
// One load row, run in its own process on the client core: an autocannon warm-up, then the
// measured run with the target's CPU time (/proc/<pid>/stat) read right before and after it
// and its resident memory sampled throughout. Prints one JSON line.
// Input (argv[2], JSON): { url, headers, body, stream, connections, warmupSeconds,
//   durationSeconds, pid, overallRate? }
import autocannon from 'autocannon';
import { cpuMicros, rssSampler } from './procs.mjs';

const input = JSON.parse(process.argv[2]);

// A 200 whose body is cut short is an error too: the body must be complete.
const complete = input.stream ? (body) => body.includes('data: [DONE]') : (body) => body.includes('"usage"');

const run = (duration) =>
  autocannon({
    url: input.url,
    method: 'POST',
    headers: input.headers,
    body: input.body,
    connections: input.connections,
    pipelining: 1,
    duration,
    timeout: 10,
    verifyBody: complete,
    ...(input.overallRate ? { overallRate: input.overallRate } : {}),
  });

if (input.warmupSeconds > 0) await run(input.warmupSeconds);

const cpuBefore = cpuMicros(input.pid);
const memory = rssSampler(input.pid);
const r = await run(input.durationSeconds);
const cpuAfter = cpuMicros(input.pid);
const peakRssKb = memory.stop();

const requests = r.requests.total;
const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
const status5xx = Object.entries(statusCodes)
  .filter(([code]) => code.startsWith('5'))
  .reduce((n, [, count]) => n + count, 0);
process.stdout.write(
  JSON.stringify({
    requests,
    seconds: r.duration,
    rps: requests / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    // autocannon's `errors` include timeouts; non-2xx answers and cut bodies are errors too
    // (a non-2xx body also fails the body check, so the larger of the two is counted).
    errors: r.errors + Math.max(r.non2xx, r.mismatches),
    detail: { socketErrors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, incomplete: r.mismatches, statusCodes, status5xx },
    cpuMicros: cpuAfter - cpuBefore,
    cpuPerRequest: requests > 0 ? (cpuAfter - cpuBefore) / requests : NaN,
    peakRssKb,
  }) + '\n',
);
