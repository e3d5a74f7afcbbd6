/**
 * A client that leaves cancels the upstream call at any point (issue #12, item 3): before the
 * upstream's headers, and while a whole answer is being read; nothing delivered means nothing
 * billed, and the reservation is given back.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

/** How long the slow upstream would hold its answer. */
const UPSTREAM_HOLD_MS = 5000;
const CLIENT_LEAVES_MS = 300;

describeEachDialect('relay: a client that leaves cancels the upstream call', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  /** When the upstream saw each request's connection close (ms since epoch). */
  const closedAt: number[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.route('POST', '/v1/chat/completions', (request, _fake, res: ServerResponse) => {
      const body = JSON.parse(request.body) as { model: string; stream?: boolean };
      res.on('close', () => closedAt.push(Date.now()));
      if (body.model === 'slow-headers') {
        // No headers for a long time.
        setTimeout(() => {
          if (!res.destroyed) res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'late' } }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } }));
        }, UPSTREAM_HOLD_MS);
        return;
      }
      // Headers at once, the body only much later.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[{"message":{"role":"assistant","content":"par');
      setTimeout(() => {
        if (!res.destroyed) res.end('tial"}}],"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}');
      }, UPSTREAM_HOLD_MS);
    });
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'slow-headers,slow-body' });
    await b.s.app.ctx.options.setInternal('ModelRatio', JSON.stringify({ 'slow-headers': 1, 'slow-body': 1 }));
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  async function leaveEarly(model: string, stream: boolean): Promise<number> {
    const controller = new AbortController();
    const request = fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hello' }] }),
      signal: controller.signal,
    }).then(
      (res) => res.text(),
      () => 'aborted',
    );
    const seen = closedAt.length;
    await new Promise((resolve) => setTimeout(resolve, CLIENT_LEAVES_MS));
    const leftAt = Date.now();
    controller.abort();
    await request;
    // The upstream connection closes long before the upstream would have answered.
    for (let waited = 0; closedAt.length === seen && waited < UPSTREAM_HOLD_MS; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closedAt.length).toBe(seen + 1);
    return closedAt[seen]! - leftAt;
  }

  it.each([
    ['slow-headers', false],
    ['slow-headers', true],
    ['slow-body', false],
  ] as const)('%s (stream %s): upstream cancelled, nothing billed, reservation given back', async (model, stream) => {
    const before = await balances(b.s, b.user.id, b.token.id);
    const latency = await leaveEarly(model, stream);
    console.log(`upstream cancelled ${latency} ms after the client left (${model}, stream ${stream})`);
    // Without the cancel the upstream holds the call to its end (about 4.7 s from the client leaving).
    expect(latency).toBeLessThan((UPSTREAM_HOLD_MS - CLIENT_LEAVES_MS) / 2);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after).toEqual(before);
    expect(after.openCount).toBe(0);
    // The channel was not blamed for the client's leaving: the next request goes through.
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions')).not.toHaveLength(0);
  });
});
