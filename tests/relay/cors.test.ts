/**
 * CORS of the relay (issue #12, item 10): the API-key scopes (/v1, /dashboard) allow any
 * origin without credentials and never offer the console's New-Api-User header; the
 * playground (/pg) rides the console session and sends no CORS headers to anyone, so a page
 * of another origin can neither pass a preflight nor read an answer. Requests with an Origin
 * are answered by Fastify, never by the direct path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects';
import { createUser } from '../helpers/users';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startBench, type Bench } from './harness';
import { seedChannel } from './seed';

const FOREIGN = 'https://evil.example';
const MODEL = 'gpt-4o-mini';
const METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/** Every Access-Control-* header of an answer, and Vary. */
function corsOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of res.headers) if (name.startsWith('access-control-') || name === 'vary') out[name] = value;
  return out;
}

describe('relay CORS', () => {
  let fake: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(DIALECTS[0]!);
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: MODEL });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  const chatBody = (stream = false) => JSON.stringify({ model: MODEL, stream, messages: [{ role: 'user', content: 'hi' }] });

  it('answers /v1 preflights from any origin without credentials or the console header', async () => {
    const chat = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: FOREIGN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-stainless-os, New-Api-User' },
    });
    expect(chat.status).toBe(204);
    expect(corsOf(chat)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': 'authorization, content-type, x-stainless-os',
      'access-control-expose-headers': 'X-Oneapi-Request-Id',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });

    const models = await fetch(`${b.s.url}/v1/models`, { method: 'OPTIONS', headers: { origin: FOREIGN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(models.status).toBe(204);
    expect(corsOf(models)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': 'authorization',
      'access-control-expose-headers': 'X-Oneapi-Request-Id',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });

    // Asking for the console's header alone gets no header allowed.
    const consoleOnly = await fetch(`${b.s.url}/v1/models`, {
      method: 'OPTIONS',
      headers: { origin: FOREIGN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'new-api-user' },
    });
    expect(corsOf(consoleOnly)['access-control-allow-headers']).toBeUndefined();
    expect(corsOf(consoleOnly)['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers /v1 requests from any origin with `*` and no credentials, whole and streamed, through Fastify', async () => {
    const served = b.relay.direct!.served;
    const expected = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'X-Oneapi-Request-Id', vary: 'Origin' };
    const headers = { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', origin: FOREIGN };

    fake.script({ text: 'whole' });
    const whole = await fetch(`${b.s.url}/v1/chat/completions`, { method: 'POST', headers, body: chatBody() });
    expect(whole.status).toBe(200);
    expect(corsOf(whole)).toEqual(expected);
    expect(((await whole.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('whole');

    fake.script({ text: 'streamed' });
    const streamed = await fetch(`${b.s.url}/v1/chat/completions`, { method: 'POST', headers, body: chatBody(true) });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(corsOf(streamed)).toEqual(expected);
    expect(await streamed.text()).toContain('[DONE]');

    const models = await fetch(`${b.s.url}/v1/models`, { headers: { authorization: `Bearer ${b.token.apiKey}`, origin: FOREIGN } });
    expect(models.status).toBe(200);
    expect(corsOf(models)).toEqual(expected);
    await models.text();

    // Refusals carry the same headers, so a browser page can read the error.
    const refused = await fetch(`${b.s.url}/v1/models`, { headers: { authorization: 'Bearer sk-nothing', origin: FOREIGN } });
    expect(refused.status).toBe(401);
    expect(corsOf(refused)).toEqual(expected);
    await refused.text();

    const billing = await fetch(`${b.s.url}/dashboard/billing/subscription`, { headers: { authorization: `Bearer ${b.token.apiKey}`, origin: FOREIGN } });
    expect(billing.status).toBe(200);
    expect(corsOf(billing)).toEqual(expected);
    await billing.text();

    // An Origin sends the request to Fastify: the direct path served none of these.
    expect(b.relay.direct!.served).toBe(served);
    await b.flush();
  });

  it('sends API clients without an Origin no CORS headers', async () => {
    fake.script({ text: 'plain' });
    const res = await fetch(`${b.s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json' }, body: chatBody() });
    expect(res.status).toBe(200);
    expect(corsOf(res)).toEqual({});
    await res.text();
    await b.flush();
  });

  it('gives /pg preflights and requests from another origin no CORS headers', async () => {
    const pre = await fetch(`${b.s.url}/pg/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: FOREIGN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, new-api-user' },
    });
    expect(pre.status).toBe(204);
    expect(corsOf(pre)).toEqual({});

    // Even a request that carries the session (a same-site page on another port would have
    // it): the answer has no CORS headers, so the browser keeps it from the page.
    const player = await createUser(b.s, 'corsplayer');
    await b.s.app.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', player.id).execute();
    fake.script({ text: 'for the console' });
    const res = await fetch(`${b.s.url}/pg/chat/completions`, {
      method: 'POST',
      headers: { origin: FOREIGN, cookie: player.client.cookie, 'new-api-user': String(player.id), 'content-type': 'application/json' },
      body: chatBody(),
    });
    expect(res.status).toBe(200);
    expect(corsOf(res)).toEqual({});
    await res.text();

    const anonymous = await fetch(`${b.s.url}/pg/chat/completions`, { method: 'POST', headers: { origin: FOREIGN, 'content-type': 'application/json' }, body: chatBody() });
    expect(anonymous.status).toBe(401);
    expect(corsOf(anonymous)).toEqual({});
    await anonymous.text();
    await b.flush();
  });

  it('keeps the playground working for the console on its own origin', async () => {
    const player = await createUser(b.s, 'corsplayer2');
    await b.s.app.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', player.id).execute();
    fake.script({ text: 'same origin' });
    const res = await player.client.post('/pg/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, { origin: b.s.url });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('same origin');
    await b.flush();
  });
});
