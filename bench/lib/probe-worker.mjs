// The unloaded probe: one keep-alive connection, requests one after another. For each it
// records the full answer time and the time to the first SSE data event (streams).
// Input (argv[2], JSON): { url, headers, body, stream, warmup, count }. Prints one JSON line.
import http from 'node:http';
import { percentile } from './stats.mjs';

const input = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(input.url);

function once() {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    let first;
    let text = '';
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: input.headers }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
        if (first === undefined && (!input.stream || text.includes('data: {'))) first = process.hrtime.bigint();
      });
      res.on('end', () => {
        const end = process.hrtime.bigint();
        const ok = res.statusCode === 200 && (input.stream ? text.includes('data: [DONE]') : text.includes('"usage"'));
        resolve({ ok, total: Number(end - start) / 1e6, first: Number((first ?? end) - start) / 1e6, status: res.statusCode, text });
      });
      res.on('error', () => resolve({ ok: false }));
    });
    req.on('error', (err) => resolve({ ok: false, status: err.code }));
    req.end(input.body);
  });
}

for (let i = 0; i < input.warmup; i++) await once();
const totals = [];
const firsts = [];
let errors = 0;
let sample;
for (let i = 0; i < input.count; i++) {
  const r = await once();
  if (!r.ok) {
    errors++;
    sample ??= `${r.status}: ${(r.text ?? '').slice(0, 200)}`;
    continue;
  }
  totals.push(r.total);
  firsts.push(r.first);
}
agent.destroy();
process.stdout.write(
  JSON.stringify({
    count: input.count,
    errors,
    errorSample: sample,
    p50: percentile(totals, 50),
    p90: percentile(totals, 90),
    p99: percentile(totals, 99),
    firstP50: percentile(firsts, 50),
    firstP99: percentile(firsts, 99),
  }) + '\n',
);
