// A fake OpenAI upstream for the benchmark, answering at once from prepared bytes.
//   POST .../chat/completions          JSON with `usage`, or (stream: true) SSE with
//                                      BENCH_FAKE_CHUNKS content chunks, a usage chunk, [DONE]
//   model "bench-slow-short" / "-long" the same stream spread over time (the memory run):
//                                      BENCH_SLOW_CHUNKS chunks every BENCH_SLOW_INTERVAL_MS,
//                                      "-long" with BENCH_LONG_CHUNK_BYTES of text per chunk
//   GET  /v1/models                    a model list
//   GET  /__stats                      requests seen per model (the channel-edit probe)
// Prints {"port":N} when listening; exits when the harness closes its stdin.
//
// HTTP/1.1 is spoken directly on `node:net` (keep-alive, Content-Length or chunked request
// bodies, chunked SSE answers with one HTTP chunk per event; a fast stream goes out in one
// write, as node:http sent it, a slow one event by event). node:http cost the fake about
// 30 µs per request, and the
// fake shares the client core with the load generator: the rig, not the bare proxy, then set
// the bare proxy's figure ("rig not bound" in the README). What goes over the wire is what
// node:http sent, less its Date and Connection headers.
import net from 'node:net';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CHUNKS = env('BENCH_FAKE_CHUNKS', 20);
const SLOW_CHUNKS = env('BENCH_SLOW_CHUNKS', 20);
const SLOW_INTERVAL_MS = env('BENCH_SLOW_INTERVAL_MS', 150);
const LONG_CHUNK_BYTES = env('BENCH_LONG_CHUNK_BYTES', 4096);
const PROMPT_TOKENS = 12;
const CREATED = 1700000000;
/** A request head or body larger than this closes the connection (the harness sends small ones). */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

const usageOf = (completion) => ({ prompt_tokens: PROMPT_TOKENS, completion_tokens: completion, total_tokens: PROMPT_TOKENS + completion });

/** A whole response with a Content-Length body. */
function fixedResponse(status, contentType, body) {
  const bytes = Buffer.from(body);
  const head = `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Not Found'}\r\ncontent-type: ${contentType}\r\ncontent-length: ${bytes.length}\r\nkeep-alive: timeout=65\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), bytes]);
}

const SSE_HEAD = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nkeep-alive: timeout=65\r\ntransfer-encoding: chunked\r\n\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');
const chunk = (text) => Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);

function jsonAnswer(model) {
  return fixedResponse(
    200,
    'application/json',
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

/** The SSE events of one streamed answer, each an HTTP chunk ready to write. */
function streamEvents(model, count, text) {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: CREATED, model };
  const event = (obj) => chunk(`data: ${JSON.stringify({ ...base, ...obj })}\n\n`);
  const events = [];
  for (let i = 0; i < count; i++) {
    const delta = i === 0 ? { role: 'assistant', content: text } : { content: text };
    events.push(event({ choices: [{ index: 0, delta, finish_reason: i === count - 1 ? 'stop' : null }] }));
  }
  // Completion tokens roughly follow the text, so a long answer also bills more.
  const completion = Math.max(count, Math.round((count * text.length) / 4));
  events.push(event({ choices: [], usage: usageOf(completion) }));
  events.push(chunk('data: [DONE]\n\n'));
  return events;
}

const cache = new Map();
function prepared(model) {
  let p = cache.get(model);
  if (!p) {
    const long = model.endsWith('-long');
    const slow = model.startsWith('bench-slow');
    const text = long ? 'lorem ipsum dolor sit amet '.repeat(Math.ceil(LONG_CHUNK_BYTES / 27)).slice(0, LONG_CHUNK_BYTES) : 'word ';
    const events = streamEvents(model, slow ? SLOW_CHUNKS : CHUNKS, text);
    p = { json: jsonAnswer(model), events, whole: Buffer.concat([SSE_HEAD, ...events, LAST_CHUNK]), slow };
    cache.set(model, p);
  }
  return p;
}

const stats = { requests: 0, models: {} };
const MODELS = fixedResponse(200, 'application/json', JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: CREATED, owned_by: 'bench' }] }));
const NOT_FOUND = fixedResponse(404, 'application/json', '{"error":{"message":"not found","type":"invalid_request_error"}}');

/** Answers one chat request; calls `done` once the answer is whole (the next request may start). */
function answer(socket, body, done) {
  const text = body.toString('latin1');
  const model = /"model"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? 'gpt-4o-mini';
  stats.requests++;
  stats.models[model] = (stats.models[model] ?? 0) + 1;
  const p = prepared(model);
  if (!/"stream"\s*:\s*true/.test(text)) {
    socket.write(p.json);
    return done();
  }
  if (!p.slow) {
    // One write, as node:http made it (it corks the socket until the next tick).
    socket.write(p.whole);
    return done();
  }
  socket.write(SSE_HEAD);
  let i = 0;
  const stop = () => clearInterval(timer);
  const timer = setInterval(() => {
    if (socket.destroyed) return stop();
    socket.write(p.events[i++]);
    // The usage chunk and [DONE] follow the last content chunk at once.
    if (i === SLOW_CHUNKS) while (i < p.events.length) socket.write(p.events[i++]);
    if (i >= p.events.length) {
      stop();
      socket.write(LAST_CHUNK);
      socket.off('close', stop);
      done();
    }
  }, SLOW_INTERVAL_MS);
  socket.on('close', stop);
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * The body of a chunked request when `data` (from `start`) holds all of it: [body, end offset],
 * or undefined while more is needed.
 */
function chunkedBody(data, start) {
  const parts = [];
  let at = start;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) {
      const end = data.indexOf(HEAD_END, lineEnd);
      return end < 0 ? undefined : [Buffer.concat(parts), end + 4];
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** One connection: requests are answered in order, one at a time. */
function serve(socket) {
  socket.setNoDelay(true);
  let data = Buffer.alloc(0);
  let busy = false;
  let closeAfter = false;
  const next = () => {
    while (!busy && data.length > 0) {
      const headEnd = data.indexOf(HEAD_END);
      if (headEnd < 0) {
        if (data.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      const head = data.toString('latin1', 0, headEnd);
      const lines = head.split('\r\n');
      const [method, url] = lines[0].split(' ');
      let length = 0;
      let chunked = false;
      closeAfter = false;
      for (let n = 1; n < lines.length; n++) {
        const line = lines[n];
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line
          .slice(colon + 1)
          .trim()
          .toLowerCase();
        if (name === 'content-length') length = Number(value);
        else if (name === 'transfer-encoding') chunked = value.includes('chunked');
        else if (name === 'connection') closeAfter = value === 'close';
      }
      let body;
      let end;
      if (chunked) {
        const found = chunkedBody(data, headEnd + 4);
        if (!found) return;
        [body, end] = found;
      } else {
        if (!(length >= 0) || length > MAX_REQUEST_BYTES) return socket.destroy();
        end = headEnd + 4 + length;
        if (data.length < end) return;
        body = data.subarray(headEnd + 4, end);
      }
      data = data.subarray(end);
      busy = true;
      const done = () => {
        busy = false;
        if (closeAfter) socket.end();
        else next();
      };
      if (method === 'GET' && url === '/__stats') {
        socket.write(fixedResponse(200, 'application/json', JSON.stringify(stats)));
        done();
      } else if (method === 'GET' && url.endsWith('/models')) {
        socket.write(MODELS);
        done();
      } else if (method !== 'POST' || !url.includes('/chat/completions')) {
        socket.write(NOT_FOUND);
        done();
      } else {
        answer(socket, body, done);
      }
    }
  };
  socket.on('data', (d) => {
    data = data.length === 0 ? d : Buffer.concat([data, d]);
    try {
      next();
    } catch {
      socket.destroy();
    }
  });
  socket.on('error', () => undefined);
  socket.setTimeout(65_000, () => socket.destroy());
}

const server = net.createServer(serve);
server.maxConnections = 20_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
