// The relay's upstream body queue and the pool's dispatch handler: order, back-pressure,
// errors, early stop, and aborts before and after the answer started.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamBody } from '../../src/server/relay/upstream/body';
import { UpstreamAbort } from '../../src/server/relay/upstream/abort';
import { UpstreamPools } from '../../src/server/relay/upstream/pools';

function queue() {
  const calls = { resume: 0, abort: [] as Error[] };
  const body = new UpstreamBody(
    () => calls.resume++,
    (reason) => calls.abort.push(reason),
  );
  return { body, calls };
}

describe('UpstreamBody', () => {
  it('hands over everything that arrived since the last step, in order, whether it was queued or awaited', async () => {
    const { body } = queue();
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    const iterator = body[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.toString()).toBe('ab');
    const waiting = iterator.next();
    // Chunks of one socket read arrive synchronously: the waiting reader gets them together.
    body.push(Buffer.from('c'));
    body.push(Buffer.from('d'));
    expect((await waiting).value?.toString()).toBe('cd');
    body.push(Buffer.from('e'));
    body.end();
    expect((await iterator.next()).value?.toString()).toBe('e');
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a waiting reader, and one whose chunks were destroyed before it woke', async () => {
    const ended = queue();
    const waiting = ended.body[Symbol.asyncIterator]().next();
    ended.body.end();
    expect(await waiting).toEqual({ value: undefined, done: true });

    const destroyed = queue();
    const woken = destroyed.body[Symbol.asyncIterator]().next();
    destroyed.body.push(Buffer.from('late'));
    destroyed.body.destroy();
    expect(await woken).toEqual({ value: undefined, done: true });
  });

  it('reads the whole body as UTF-8 text, multi-byte characters split across chunks included', async () => {
    const { body } = queue();
    const bytes = Buffer.from('价格 ok');
    const reading = body.text();
    body.push(bytes.subarray(0, 2));
    body.push(bytes.subarray(2));
    body.end();
    expect(await reading).toBe('价格 ok');
  });

  it('reads only the first bytes when given a limit, and stops the upstream there', async () => {
    const { body, calls } = queue();
    body.push(Buffer.from('0123456789'));
    body.push(Buffer.from('abcdef'));
    expect(await body.text(12)).toBe('0123456789ab');
    expect(calls.abort).toHaveLength(1);
    expect(body.destroyed).toBe(true);
  });

  it('asks to pause past 64 KB queued and resumes once the reader caught up', async () => {
    const { body, calls } = queue();
    const chunk = Buffer.alloc(16 * 1024);
    expect([1, 2, 3].map(() => body.push(chunk))).toEqual([true, true, true]);
    expect(body.push(chunk)).toBe(false);
    const iterator = body[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.length).toBe(64 * 1024);
    expect(calls.resume).toBe(1);
    expect(body.push(chunk)).toBe(true);
    await iterator.next();
    expect(calls.resume).toBe(1);
  });

  it('passes an upstream error to the reader after what arrived before it', async () => {
    const { body } = queue();
    body.push(Buffer.from('part'));
    body.fail(new Error('socket hang up'));
    const iterator = body[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.toString()).toBe('part');
    await expect(iterator.next()).rejects.toThrow('socket hang up');
  });

  it('aborts the upstream when destroyed before the end, and not after it', async () => {
    const early = queue();
    const waiting = early.body[Symbol.asyncIterator]().next();
    early.body.destroy();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(early.calls.abort).toHaveLength(1);
    expect(early.body.destroyed).toBe(true);

    const done = queue();
    done.body.end();
    done.body.destroy();
    expect(done.calls.abort).toHaveLength(0);
  });

  it('aborts the upstream when the reader breaks out of its loop', async () => {
    const { body, calls } = queue();
    body.push(Buffer.from('first'));
    let seen = '';
    for await (const chunk of body) {
      seen += chunk.toString();
      break;
    }
    expect(seen).toBe('first');
    expect(calls.abort).toHaveLength(1);
  });
});

describe('UpstreamPools', () => {
  let server: Server | undefined;
  const pools = new UpstreamPools(5000);
  afterEach(async () => {
    // The pool keeps its connections alive: drop them so close() does not wait for them.
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('sends the request and reads a large answer through back-pressure, byte for byte', async () => {
    const answer = Buffer.alloc(4 * 1024 * 1024, 'x');
    let received = '';
    const origin = await listen((req, res) => {
      req.on('data', (c: Buffer) => (received += c.toString()));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'text/plain', 'x-extra': 'yes' });
        res.end(answer);
      });
    });
    const response = await pools.request({ url: `${origin}/v1/echo?x=1`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}', signal: new UpstreamAbort() });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-extra']).toBe('yes');
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      // A slow reader: the queue fills and the socket must pause rather than buffer it all.
      await new Promise((r) => setImmediate(r));
    }
    expect(size).toBe(answer.length);
    expect(received).toBe('{"a":1}');
  });

  it('fails the call when aborted before the answer, and the body when aborted during it', async () => {
    const origin = await listen((req, res) => {
      if (req.url === '/slow-headers') return void setTimeout(() => res.end('late'), 2000);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    const before = new UpstreamAbort();
    const pending = pools.request({ url: `${origin}/slow-headers`, method: 'GET', headers: {}, signal: before });
    setTimeout(() => before.abort(), 50);
    await expect(pending).rejects.toThrow('This operation was aborted');

    const during = new UpstreamAbort();
    const response = await pools.request({ url: `${origin}/stream`, method: 'GET', headers: {}, signal: during });
    const iterator = response.body[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.toString()).toBe('data: 1\n\n');
    const next = iterator.next();
    during.abort();
    await expect(next).rejects.toThrow('This operation was aborted');
  });

  it('cancels at once a call aborted before it was sent', async () => {
    const origin = await listen((_req, res) => res.end('never read'));
    const signal = new UpstreamAbort();
    signal.abort();
    await expect(pools.request({ url: `${origin}/x`, method: 'GET', headers: {}, signal })).rejects.toThrow('This operation was aborted');
  });
});
