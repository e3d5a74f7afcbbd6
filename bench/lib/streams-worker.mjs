// The memory run's client: `count` streaming requests opened at once (one connection each)
// against a slow upstream, each read to its end. Prints one JSON line with how many
// completed (status 200 and [DONE]), the failures by reason, and the bytes received.
// Input (argv[2], JSON): { url, headers, body, count, timeoutMs }.
import http from 'node:http';

const input = JSON.parse(process.argv[2]);
const target = new URL(input.url);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const failures = {};
const fail = (reason) => (failures[reason] = (failures[reason] ?? 0) + 1);
let completed = 0;
let bytes = 0;

function one() {
  return new Promise((settle) => {
    // Each request is counted exactly once, whatever events follow its end.
    let settled = false;
    const finish = (reason) => {
      if (settled) return;
      settled = true;
      if (reason) fail(reason);
      else completed++;
      settle();
    };
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: input.headers, timeout: input.timeoutMs }, (res) => {
      let tail = '';
      res.on('data', (d) => {
        bytes += d.length;
        tail = (tail + d.toString('latin1')).slice(-64);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) finish(`status ${res.statusCode}`);
        else finish(tail.includes('data: [DONE]') ? undefined : 'cut short');
      });
      res.on('error', (err) => finish(err.code ?? 'response error'));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.on('error', (err) => finish(err.code ?? 'request error'));
    req.end(input.body);
  });
}

const started = Date.now();
await Promise.all(Array.from({ length: input.count }, one));
process.stdout.write(JSON.stringify({ count: input.count, completed, failures, bytes, seconds: (Date.now() - started) / 1000 }) + '\n');
