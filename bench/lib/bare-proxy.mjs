// The bare pass-through proxy the gateway is compared with: node:http in front of an undici
// Pool, request and response bodies streamed, nothing parsed, hop-by-hop headers dropped.
// Usage: node bare-proxy.mjs <upstream origin>. Prints {"port":N}; exits when stdin closes.
import http from 'node:http';
import { Pool } from 'undici';

const upstream = process.argv[2];
if (!upstream) throw new Error('usage: bare-proxy.mjs <upstream origin>');
const pool = new Pool(upstream, { connections: null, pipelining: 1, keepAliveTimeout: 60_000 });

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardable(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

const server = http.createServer((req, res) => {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  pool
    .stream({ path: req.url, method: req.method, headers: forwardable(req.headers), body: hasBody ? req : undefined, signal: abort.signal }, ({ statusCode, headers }) => {
      res.writeHead(statusCode, forwardable(headers));
      return res;
    })
    .catch((err) => {
      if (res.headersSent) return res.destroy(err);
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad gateway', type: 'bare_proxy_error' } }));
    });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
