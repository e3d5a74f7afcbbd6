/**
 * Streams under trouble: an upstream reset mid-stream (the client gets an error event, is
 * billed what was delivered, and no retry happens after the first byte — but one does when
 * nothing was sent yet), a client that leaves (the upstream call stops within a second,
 * billed what was delivered), upstream silence past STREAMING_TIMEOUT, and keep-alive pings.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, DIALECTS } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { SSE_HEADERS, SseWriter } from '../../src/server/relay/stream/sse-writer';
import { headerList, type RelayReply } from '../../src/server/relay/pipeline/exchange';

/** A reply whose headers were set before the pipeline ran. */
function reply(raw: ServerResponse, headers: Record<string, unknown>): RelayReply {
  return { raw, hijack: () => undefined, getHeaders: () => headers, statusCode: 200, sent: false };
}
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

function chunk(content: string) {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
}

async function lastConsumeLog(b: Bench) {
  return b.s.app.ctx.db.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
}

describeEachDialect('relay streaming under trouble', (dialect) => {
  let fake: FakeOpenAI;
  let slow: FakeOpenAI;
  let backup: FakeOpenAI;
  let b: Bench;
  /** When the slow upstream saw its client (the relay) go away. */
  let upstreamClosedAt = 0;
  let upstreamEventsWritten = 0;
  beforeAll(async () => {
    [fake, slow, backup] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOpenAI()]);
    // 40 events 150 ms apart: long enough for a client to leave in the middle.
    slow.route('POST', '/v1/chat/completions', async (_request, _fake, res: ServerResponse) => {
      upstreamClosedAt = 0;
      upstreamEventsWritten = 0;
      res.on('close', () => (upstreamClosedAt = Date.now()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 40 && !res.destroyed; i++) {
        res.write(chunk(`word${i} `));
        upstreamEventsWritten++;
        await new Promise((r) => setTimeout(r, 150));
      }
      if (!res.destroyed) res.end('data: [DONE]\n\n');
    });
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini', priority: 10 });
    await seedChannel(b.s, { type: 1, base_url: backup.url, models: 'gpt-4o-mini', priority: 0 });
    await seedChannel(b.s, { type: 1, base_url: slow.url, models: 'gpt-4o' });
    await setOption(b, 'RetryTimes', '1');
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([fake?.close(), slow?.close(), backup?.close()]);
  });

  it('ends the client stream with an error event when the upstream resets mid-stream, bills what was delivered, and does not retry', async () => {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const backupCalls = backup.requests.length;
    fake.script({ text: 'alpha beta gamma delta epsilon zeta eta theta', resetAfter: 4 });
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    const error = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(text).toBe('alpha beta gamma ');
    expect(backup.requests.length).toBe(backupCalls);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    const log = await lastConsumeLog(b);
    expect(log.content).toContain('上游中途断开');
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(before.quota - after.quota).toBe(log.quota);
  });

  it('retries elsewhere when the upstream stream breaks before anything was sent', async () => {
    fake.script({ text: 'never seen', resetAfter: 0 });
    backup.script({ text: 'second try' });
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    expect(text).toBe('second try');
  });

  it('stops the upstream call within a second when the client leaves, and bills what was delivered', async () => {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }], stream: true });
    let received = 0;
    for await (const c of stream) {
      if (c.choices[0]?.delta?.content) received++;
      if (received === 3) break;
    }
    const leftAt = Date.now();
    await expect.poll(() => upstreamClosedAt, { timeout: 2000, interval: 20 }).toBeGreaterThan(0);
    expect(upstreamClosedAt - leftAt).toBeLessThan(1000);
    expect(upstreamEventsWritten).toBeLessThan(12);
    await expect.poll(async () => (await balances(b.s, b.user.id, b.token.id)).openCount, { timeout: 3000 }).toBe(0);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    const log = await lastConsumeLog(b);
    expect(log.content).toContain('客户端中途断开');
    expect(log.model_name).toBe('gpt-4o');
    // Three to a few words were delivered: a handful of tokens, not forty words' worth.
    expect(log.completion_tokens).toBeGreaterThanOrEqual(3);
    expect(log.completion_tokens).toBeLessThan(40);
    expect(before.quota - after.quota).toBe(log.quota);
  });
});

describe.skipIf(!DIALECTS[0]!.url)('relay streaming timeout', () => {
  let slow: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    slow = await startFakeOpenAI();
    b = await startBench(DIALECTS[0]!, { env: { STREAMING_TIMEOUT: '1' } });
    await seedChannel(b.s, { type: 1, base_url: slow.url, models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await b?.close();
    await slow?.close();
  });

  it('ends a stream whose upstream went silent past STREAMING_TIMEOUT, with what arrived', async () => {
    slow.script({ text: 'first second third', delayMs: 3000 });
    const started = Date.now();
    const stream = await b.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    expect(Date.now() - started).toBeLessThan(2900);
    expect(text).toBe('');
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.content).toContain('上游流式响应超时');
  });
});

describe('reply header list', () => {
  it('lists the reply headers, then its own, which win over the same name in any case', () => {
    const headers = { 'x-request-id': 'r1', 'content-type': 'text/html', 'set-cookie': ['a=1', 'b=2'], absent: undefined };
    expect(headerList(reply({} as ServerResponse, headers), { 'Content-Type': 'application/json', 'Content-Length': 12 })).toEqual([
      'x-request-id',
      'r1',
      'set-cookie',
      'a=1',
      'set-cookie',
      'b=2',
      'Content-Type',
      'application/json',
      'Content-Length',
      12,
    ]);
  });
});

describe('SSE writer', () => {
  it('sends a keep-alive comment on silence and nothing while busy', async () => {
    let writer: SseWriter | undefined;
    const server = createServer((_req, res) => {
      writer = new SseWriter(res, 60);
      writer.open(headerList(reply(res, { 'x-oneapi-request-id': 'r1' }), SSE_HEADERS));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-oneapi-request-id')).toBe('r1');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe(': ping\n\n');
    await writer!.write([{ data: '{"a":1}' }, { event: 'x', data: '2' }]);
    const second = new TextDecoder().decode((await reader.read()).value);
    expect(second).toBe('data: {"a":1}\n\nevent: x\ndata: 2\n\n');
    writer!.end();
    await reader.cancel();
    server.close();
  });
});
