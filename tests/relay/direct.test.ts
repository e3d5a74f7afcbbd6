/**
 * The direct path (relay/direct.ts) answers plain API calls ahead of Fastify; everything else
 * goes through Fastify. Both must answer the same: status, body (but the request id), the
 * request id header, the content type, the Claude error shape on /v1/messages.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { openaiError, startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startBench, type Bench } from './harness';
import { seedChannel } from './seed';

interface Answer {
  status: number;
  body: string;
  requestId: string | null;
  retryAfter: string | null;
  contentType: string | null;
}

describeEachDialect('relay direct path', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  /** One call; `viaFastify` adds what sends a request the Fastify way (a query string). */
  async function call(path: string, body: string, viaFastify: boolean, headers: Record<string, string> = {}): Promise<{ answer: Answer; direct: boolean }> {
    const before = b.relay.direct!.served;
    const res = await fetch(`${b.s.url}${path}${viaFastify ? '?via=fastify' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    const requestId = res.headers.get('x-oneapi-request-id');
    return {
      answer: {
        status: res.status,
        body: requestId ? text.replaceAll(requestId, '<id>') : text,
        requestId,
        retryAfter: res.headers.get('retry-after'),
        contentType: res.headers.get('content-type'),
      },
      direct: b.relay.direct!.served === before + 1,
    };
  }

  async function both(path: string, body: string, headers: Record<string, string> = {}, script?: () => void): Promise<Answer> {
    script?.();
    const direct = await call(path, body, false, headers);
    script?.();
    const framework = await call(path, body, true, headers);
    expect(direct.direct).toBe(true);
    expect(framework.direct).toBe(false);
    expect(direct.answer.requestId).toMatch(/^\d{14}\d+[0-9a-zA-Z]{8}$/);
    expect(framework.answer.requestId).toMatch(/^\d{14}\d+[0-9a-zA-Z]{8}$/);
    expect({ ...direct.answer, requestId: 'x' }).toEqual({ ...framework.answer, requestId: 'x' });
    return direct.answer;
  }

  it('answers a chat the same both ways', async () => {
    const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const ok = await both('/v1/chat/completions', chat, {}, () => fake.script({ text: 'same', usage: { prompt: 3, completion: 1 } }));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).choices[0].message.content).toBe('same');
    await b.flush();
  });

  it('refuses the same both ways: bad JSON, no model, unknown token, an upstream error', async () => {
    expect((await both('/v1/chat/completions', '{"model": ')).status).toBe(400);
    expect((await both('/v1/chat/completions', JSON.stringify({ messages: [] }))).status).toBe(400);
    expect((await both('/v1/chat/completions', '{}', { authorization: 'Bearer sk-nope' })).body).toContain('无效的令牌');
    const limited = await both('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }), {}, () =>
      fake.script(openaiError(429, 'slow down', 'rate_limit_exceeded')),
    );
    expect(limited.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(limited.body).error.message).toBe('slow down (request id: <id>)');
    expect(limited.contentType).toBe('application/json; charset=utf-8');
    await b.flush();
  });

  it('answers /v1/messages errors in the Claude shape both ways', async () => {
    const refused = await both('/v1/messages', '{}', { authorization: '', 'x-api-key': 'sk-nope' });
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
  });

  it('leaves browsers, compressed bodies and other routes to Fastify', async () => {
    const before = b.relay.direct!.served;
    const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    fake.script({ text: 'cors', usage: { prompt: 3, completion: 1 } });
    const cors = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', origin: 'https://app.example' },
      body: chat,
    });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
    await cors.text();
    const models = await fetch(`${b.s.url}/v1/models`, { headers: { authorization: `Bearer ${b.token.apiKey}` } });
    expect(models.status).toBe(200);
    await models.text();
    expect(b.relay.direct!.served).toBe(before);
    await b.flush();
  });
});
