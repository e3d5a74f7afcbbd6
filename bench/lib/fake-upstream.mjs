// A fake OpenAI upstream for the benchmark: node:http, answers at once from prepared buffers.
//   POST .../chat/completions          JSON with `usage`, or (stream: true) SSE with
//                                      BENCH_FAKE_CHUNKS content chunks, a usage chunk, [DONE]
//   model "bench-slow-short" / "-long" the same stream spread over time (the memory run):
//                                      BENCH_SLOW_CHUNKS chunks every BENCH_SLOW_INTERVAL_MS,
//                                      "-long" with BENCH_LONG_CHUNK_BYTES of text per chunk
//   GET  /v1/models                    a model list
//   GET  /__stats                      requests seen per model (the channel-edit probe)
// Prints {"port":N} when listening; exits when the harness closes its stdin.
import http from 'node:http';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CHUNKS = env('BENCH_FAKE_CHUNKS', 20);
const SLOW_CHUNKS = env('BENCH_SLOW_CHUNKS', 20);
const SLOW_INTERVAL_MS = env('BENCH_SLOW_INTERVAL_MS', 150);
const LONG_CHUNK_BYTES = env('BENCH_LONG_CHUNK_BYTES', 4096);
const PROMPT_TOKENS = 12;
const CREATED = 1700000000;

const usageOf = (completion) => ({ prompt_tokens: PROMPT_TOKENS, completion_tokens: completion, total_tokens: PROMPT_TOKENS + completion });

function jsonAnswer(model) {
  return Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(CHUNKS).trim() }, finish_reason: 'stop' }],
      usage: usageOf(CHUNKS),
    }),
  );
}

/** The SSE events of one streamed answer, each a Buffer ready to write. */
function streamEvents(model, count, text) {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model };
  const event = (obj) => Buffer.from(`data: ${JSON.stringify({ ...base, ...obj })}\n\n`);
  const events = [];
  for (let i = 0; i < count; i++) {
    const delta = i === 0 ? { role: 'assistant', content: text } : { content: text };
    events.push(event({ choices: [{ index: 0, delta, finish_reason: i === count - 1 ? 'stop' : null }] }));
  }
  // Completion tokens roughly follow the text, so a long answer also bills more.
  const completion = Math.max(count, Math.round((count * text.length) / 4));
  events.push(event({ choices: [], usage: usageOf(completion) }));
  events.push(Buffer.from('data: [DONE]\n\n'));
  return events;
}

const cache = new Map();
function prepared(model) {
  let p = cache.get(model);
  if (!p) {
    const long = model.endsWith('-long');
    const slow = model.startsWith('bench-slow');
    const text = long ? 'lorem ipsum dolor sit amet '.repeat(Math.ceil(LONG_CHUNK_BYTES / 27)).slice(0, LONG_CHUNK_BYTES) : 'word ';
    p = { json: jsonAnswer(model), events: streamEvents(model, slow ? SLOW_CHUNKS : CHUNKS, text), slow };
    cache.set(model, p);
  }
  return p;
}

const stats = { requests: 0, models: {} };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

function answer(req, res, body) {
  const text = body.toString('utf8');
  const model = /"model"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? 'gpt-4o-mini';
  stats.requests++;
  stats.models[model] = (stats.models[model] ?? 0) + 1;
  const p = prepared(model);
  if (!/"stream"\s*:\s*true/.test(text)) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': p.json.length });
    res.end(p.json);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  if (!p.slow) {
    for (const e of p.events) res.write(e);
    res.end();
    return;
  }
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(p.events[i++]);
    // The usage chunk and [DONE] follow the last content chunk at once.
    if (i === SLOW_CHUNKS) while (i < p.events.length) res.write(p.events[i++]);
    if (i >= p.events.length) {
      clearInterval(timer);
      res.end();
    }
  }, SLOW_INTERVAL_MS);
  res.on('close', () => clearInterval(timer));
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/__stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stats));
    return;
  }
  if (req.method === 'GET' && req.url.endsWith('/models')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: CREATED, owned_by: 'bench' }] }));
    return;
  }
  if (req.method !== 'POST' || !req.url.includes('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => answer(req, res, Buffer.concat(parts)));
});
server.keepAliveTimeout = 65_000;
server.maxConnections = 20_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
