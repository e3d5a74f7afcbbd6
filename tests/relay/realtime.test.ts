/**
 * `GET /v1/realtime` (issue #18 item 2) with the `openai` SDK's Realtime client (and a raw `ws`
 * client where the SDK cannot go: the browser's key subprotocol, bad keys): events relayed both
 * ways to a fake Realtime upstream; the session billed from the upstream's `response.done`
 * usage (text and audio with their ratios, cached text at the cache ratio) with one consume log,
 * settled once whichever side closes; a client that leaves closes the upstream socket; refusals
 * (bad key, unsupported channel type) are HTTP errors before any upgrade; a balance that runs
 * out mid-session closes it with an error event.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import OpenAI, { AzureOpenAI } from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer } from '../helpers/server';
import { startTlsFront, TLS_FRONT_CA, type TlsFront } from '../helpers/tls-front';
import { startConnectProxy, startSocks5Proxy } from '../helpers/proxies';
import { startFakeRealtime, type FakeRealtime } from '../fakes/openai-realtime';
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel, seedToken, seedUser } from './seed';

const MODEL = 'gpt-4o-realtime-preview';
const AZURE_MODEL = 'gpt-4.1-realtime';
const CLAUDE_MODEL = 'claude-realtime-test';
/** Served only by a channel whose key the upstream refuses. */
const REFUSED_MODEL = 'gpt-4o-mini-realtime-preview';
/**
 * One response of the fake's default usage: input 100 (60 text of which 20 cached, 40 audio),
 * output 50 (10 text, 40 audio); model ratio 2.5, completion 4, cache 0.5, audio 20 (built in
 * for realtime models), audio completion 2:
 * (40 + 20 × 0.5 + 10 × 4 + 40 × 20 + 40 × 20 × 2) × 2.5 = 2490 × 2.5 = 6225.
 */
const ONE_RESPONSE = 6225;

type Event = { type: string; [key: string]: unknown };

describeEachDialect('/v1/realtime (openai SDK)', (dialect) => {
  let fake: FakeRealtime;
  let b: Bench;
  let front: TlsFront;
  const channels: Record<string, number> = {};

  /** Adds model entries to a ratio table option. */
  const add = (key: string, values: Record<string, number>) => setOption(b, key, JSON.stringify({ ...b.s.app.ctx.options.json<Record<string, number>>(key), ...values }));

  beforeAll(async () => {
    fake = await startFakeRealtime();
    b = await startBench(dialect);
    front = await startTlsFront(Number(new URL(b.s.url).port));
    await add('ModelRatio', { [MODEL]: 2.5, [AZURE_MODEL]: 2.5, [CLAUDE_MODEL]: 1, [REFUSED_MODEL]: 1 });
    await add('CompletionRatio', { [MODEL]: 4, [AZURE_MODEL]: 4 });
    await add('CacheRatio', { [MODEL]: 0.5, [AZURE_MODEL]: 0.5 });
    channels.openai = await seedChannel(b.s, { type: 1, base_url: fake.url, key: 'sk-fake-good', models: MODEL });
    channels.azure = await seedChannel(b.s, { type: 3, base_url: fake.url, key: 'sk-fake-good', models: AZURE_MODEL, other: '2025-04-01-preview' });
    channels.refused = await seedChannel(b.s, { type: 1, base_url: fake.url, key: 'sk-fake-wrong', models: REFUSED_MODEL });
    channels.claude = await seedChannel(b.s, { type: 14, base_url: fake.url, key: 'sk-ant-fake', models: CLAUDE_MODEL });
  });
  afterAll(async () => {
    await front?.close();
    await b?.close();
    await fake?.close();
  });

  async function channelUsed(id: number): Promise<number> {
    const row = await b.s.app.ctx.db.selectFrom('channels').select('used_quota').where('id', '=', id).executeTakeFirstOrThrow();
    return Number(row.used_quota);
  }

  /** Σ consume logs = used quota of user, token and channel; nothing left reserved. */
  async function audit(userId: number, tokenId: number) {
    await b.flush();
    const bal = await balances(b.s, userId, tokenId);
    expect(bal.openCount).toBe(0);
    expect(bal.logSum).toBe(bal.usedQuota);
    expect(bal.tokenUsed).toBe(bal.usedQuota);
    return bal;
  }

  /** Opens the SDK client on the server (through TLS: the SDK speaks wss only). */
  async function sdkSession(apiKey = b.token.apiKey) {
    const client = new OpenAI({ apiKey, baseURL: `${front.url}/v1` });
    const rt = new OpenAIRealtimeWS({ model: MODEL, options: { ca: TLS_FRONT_CA } }, client);
    const events: Event[] = [];
    rt.on('event', (e) => events.push(e as unknown as Event));
    const errors: unknown[] = [];
    rt.on('error', (err) => errors.push(err));
    await new Promise<void>((resolve, reject) => {
      rt.socket.once('open', () => resolve());
      rt.socket.once('error', reject);
    });
    return { rt, events, errors };
  }

  async function until<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  const doneCount = (events: Event[]) => events.filter((e) => e.type === 'response.done').length;

  it('relays events both ways to an OpenAI channel and bills the summed response.done usage once', async () => {
    const before = await audit(b.user.id, b.token.id);
    const channelBefore = await channelUsed(channels.openai);
    const seen = fake.connections.length;
    const { rt, events, errors } = await sdkSession();
    await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Be brief.' } });
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] } });
    rt.send({ type: 'response.create' });
    await until(() => doneCount(events) === 1, 'first response.done');
    rt.send({ type: 'response.create' });
    await until(() => doneCount(events) === 2, 'second response.done');
    const upstream = fake.connections[seen]!;
    // The upstream was opened with the channel's key and the model, never the client's token.
    expect(upstream.path).toBe('/v1/realtime');
    expect(upstream.query.get('model')).toBe(MODEL);
    expect(upstream.headers.authorization).toBe('Bearer sk-fake-good');
    expect(JSON.stringify(upstream.headers)).not.toContain(b.token.key);
    expect(upstream.received.map((e) => e.type)).toEqual(['session.update', 'conversation.item.create', 'response.create', 'response.create']);
    expect(upstream.received[0]).toMatchObject({ session: { instructions: 'Be brief.' } });
    expect(events.find((e) => e.type === 'session.updated')).toMatchObject({ session: { instructions: 'Be brief.' } });
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta as string);
    expect(text.join('')).toBe('Hello from the fake'.repeat(2));
    expect(events.filter((e) => e.type === 'response.output_audio.delta')).toHaveLength(2);
    rt.close();
    expect(await upstream.closed).toBe(1000);
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.logCount - before.logCount).toBe(1);
    expect(bal.usedQuota - before.usedQuota).toBe(2 * ONE_RESPONSE);
    expect(before.quota - bal.quota).toBe(2 * ONE_RESPONSE);
    expect((await channelUsed(channels.openai)) - channelBefore).toBe(2 * ONE_RESPONSE);
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 200, completion_tokens: 100, channel_id: channels.openai, is_stream: expect.anything() });
    expect(log.content).not.toContain('中途断开');
    expect(JSON.parse(log.other)).toMatchObject({ audio: true, audio_input: 80, audio_output: 80, text_input: 120, text_output: 20, audio_ratio: 20, audio_completion_ratio: 2, cache_tokens: 40 });
    expect(errors).toEqual([]);
  });
  /** A raw `ws` client on the plain port: answers the socket once open, or the HTTP refusal. */
  function rawSession(path: string, options: WebSocket.ClientOptions, protocols: string[] = []) {
    const ws = new WebSocket(`${b.s.url.replace(/^http/, 'ws')}${path}`, protocols, options);
    const events: Event[] = [];
    ws.on('message', (data) => events.push(JSON.parse(data.toString()) as Event));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    const opened = new Promise<{ ok: true } | { ok: false; status: number; body: string }>((resolve, reject) => {
      ws.once('open', () => resolve({ ok: true }));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
      });
      ws.once('error', (err) => {
        if (!err.message.startsWith('Unexpected server response')) reject(err);
      });
    });
    return { ws, events, closed, opened };
  }

  it("takes the key from the browser's subprotocol, answers `realtime`, never the key's, and asks the upstream for the beta", async () => {
    const seen = fake.connections.length;
    const s = rawSession(`/v1/realtime?model=${MODEL}`, {}, ['realtime', `openai-insecure-api-key.${b.token.apiKey}`, 'openai-beta.realtime-v1']);
    expect(await s.opened).toEqual({ ok: true });
    expect(s.ws.protocol).toBe('realtime');
    await until(() => s.events.find((e) => e.type === 'session.created'), 'session.created');
    const upstream = fake.connections[seen]!;
    expect(upstream.headers['openai-beta']).toBe('realtime=v1');
    expect(upstream.headers['sec-websocket-protocol']).toBeUndefined();
    expect(JSON.stringify(upstream.headers)).not.toContain(b.token.key);
    s.ws.close();
    await upstream.closed;
    await audit(b.user.id, b.token.id);
  });

  it('a client that leaves mid-response closes the upstream socket; a session that used nothing is refunded', async () => {
    const before = await audit(b.user.id, b.token.id);
    const seen = fake.connections.length;
    const { rt, events } = await sdkSession();
    await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
    rt.send({ type: 'response.create', response: { instructions: 'hold' } });
    const upstream = fake.connections[seen]!;
    await until(() => upstream.received.length === 1 || undefined, 'the held response.create upstream');
    rt.socket.terminate();
    expect(await upstream.closed).toBe(1000);
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.quota).toBe(before.quota);
    expect(bal.logCount).toBe(before.logCount);
  });

  it('a client that drops the connection after a response is billed for it, once, with the note that it left', async () => {
    const before = await audit(b.user.id, b.token.id);
    const seen = fake.connections.length;
    const { rt, events } = await sdkSession();
    await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
    rt.send({ type: 'response.create' });
    await until(() => doneCount(events) === 1, 'response.done');
    rt.socket.terminate();
    await fake.connections[seen]!.closed;
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.logCount - before.logCount).toBe(1);
    expect(before.quota - bal.quota).toBe(ONE_RESPONSE);
    const log = await b.s.app.ctx.db.selectFrom('logs').select('content').where('user_id', '=', b.user.id).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.content).toContain('客户端中途断开');
  });

  it('refuses a bad key with 401 before any upgrade or upstream socket', async () => {
    const seen = fake.connections.length;
    const s = rawSession(`/v1/realtime?model=${MODEL}`, { headers: { Authorization: 'Bearer sk-not-a-real-key-000000000000' } });
    const result = await s.opened;
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(JSON.parse((result as { body: string }).body)).toMatchObject({ error: { message: expect.stringContaining('无效的令牌') } });
    const missing = await rawSession(`/v1/realtime?model=${MODEL}`, {}).opened;
    expect(missing).toMatchObject({ ok: false, status: 401 });
    const noModel = await rawSession('/v1/realtime', { headers: { Authorization: `Bearer ${b.token.apiKey}` } }).opened;
    expect(noModel).toMatchObject({ ok: false, status: 400 });
    expect(fake.connections.length).toBe(seen);
  });

  it('refuses a channel type without a Realtime API with a clear 400, and refunds the reservation', async () => {
    const before = await audit(b.user.id, b.token.id);
    const seen = fake.connections.length;
    const result = await rawSession(`/v1/realtime?model=${CLAUDE_MODEL}`, { headers: { Authorization: `Bearer ${b.token.apiKey}` } }).opened;
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(JSON.parse((result as { body: string }).body)).toMatchObject({ error: { message: expect.stringContaining('不支持 Realtime API'), code: 'not_supported' } });
    expect(fake.connections.length).toBe(seen);
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.quota).toBe(before.quota);
  });

  it("refuses a token whose IP allow-list leaves the client out; an upstream's refusal comes back as an HTTP error and is refunded", async () => {
    const before = await audit(b.user.id, b.token.id);
    const fenced = await seedToken(b.s, b.user.id, { allow_ips: '10.1.2.3' });
    const fencedResult = await rawSession(`/v1/realtime?model=${MODEL}`, { headers: { Authorization: `Bearer ${fenced.apiKey}` } }).opened;
    expect(fencedResult).toMatchObject({ ok: false, status: 403 });
    expect((fencedResult as { body: string }).body).toContain('您的 IP 不在令牌允许访问的列表中');
    const refused = await rawSession(`/v1/realtime?model=${REFUSED_MODEL}`, { headers: { Authorization: `Bearer ${b.token.apiKey}` } }).opened;
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { status: number }).status).toBeGreaterThanOrEqual(400);
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.quota).toBe(before.quota);
    expect(bal.logCount).toBe(before.logCount);
  });

  for (const kind of ['http', 'socks5'] as const) {
    it(`a channel with a${kind === 'http' ? 'n HTTP CONNECT' : ' SOCKS5'} proxy opens its upstream socket through it, never direct`, async () => {
      const auth = { user: 'rt-user', pass: 'rt-password' };
      const p = kind === 'http' ? await startConnectProxy(auth) : await startSocks5Proxy(auth);
      try {
        const model = `gpt-4o-realtime-proxied-${kind}`;
        await add('ModelRatio', { [model]: 1 });
        // The proxy's address carries its credentials.
        const id = await seedChannel(b.s, { type: 1, base_url: fake.url, key: 'sk-fake-good', models: model, setting: JSON.stringify({ proxy: p.url }) });
        const seen = fake.connections.length;
        const s = rawSession(`/v1/realtime?model=${model}`, { headers: { Authorization: `Bearer ${b.token.apiKey}` } });
        expect(await s.opened).toEqual({ ok: true });
        await until(() => s.events.find((e) => e.type === 'session.created'), 'session.created');
        const upstream = fake.connections[seen]!;
        expect(p.tunnels).toEqual([new URL(fake.url).host]);
        expect(p.carried.has(upstream.remotePort!)).toBe(true);
        s.ws.close();
        await upstream.closed;
        // The proxy gone: the session fails instead of going direct.
        await p.close();
        const down = await rawSession(`/v1/realtime?model=${model}`, { headers: { Authorization: `Bearer ${b.token.apiKey}` } }).opened;
        expect(down).toMatchObject({ ok: false });
        expect((down as { body: string }).body).not.toContain(auth.pass);
        expect(fake.connections.length).toBe(seen + 1);
        await b.s.app.ctx.db.deleteFrom('channels').where('id', '=', id).execute();
        await b.relay.channels.refresh();
      } finally {
        await p.close();
      }
    });
  }

  it("Azure: the SDK's Azure client on /openai/realtime reaches the deployment with the channel's api-key and api-version", async () => {
    const before = await audit(b.user.id, b.token.id);
    const seen = fake.connections.length;
    const azure = new AzureOpenAI({ apiKey: b.token.apiKey, endpoint: front.url, apiVersion: '2025-04-01-preview', deployment: AZURE_MODEL });
    const rt = await OpenAIRealtimeWS.azure(azure, { options: { ca: TLS_FRONT_CA } });
    const events: Event[] = [];
    rt.on('event', (e) => events.push(e as unknown as Event));
    await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
    rt.send({ type: 'response.create' });
    await until(() => doneCount(events) === 1, 'response.done');
    const upstream = fake.connections[seen]!;
    expect(upstream.path).toBe('/openai/realtime');
    expect(upstream.query.get('deployment')).toBe('gpt-41-realtime');
    expect(upstream.query.get('api-version')).toBe('2025-04-01-preview');
    expect(upstream.headers['api-key']).toBe('sk-fake-good');
    expect(upstream.headers.authorization).toBeUndefined();
    rt.close();
    await upstream.closed;
    const bal = await audit(b.user.id, b.token.id);
    expect(bal.usedQuota - before.usedQuota).toBe(ONE_RESPONSE);
  });

  it('a balance that runs out mid-session ends it with an error event; what was used is charged up to what was left', async () => {
    const START = 10_000;
    const poor = await seedUser(b.s, START);
    const token = await seedToken(b.s, poor.id);
    const seen = fake.connections.length;
    const { rt, events } = await sdkSession(token.apiKey);
    const closed = new Promise<number>((resolve) => rt.socket.once('close', (code) => resolve(code)));
    await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
    rt.send({ type: 'response.create' });
    await until(() => doneCount(events) === 1, 'first response.done');
    rt.send({ type: 'response.create' });
    expect(await closed).toBe(1008);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { code: 'insufficient_user_quota' } });
    expect(await fake.connections[seen]!.closed).toBe(1000);
    const bal = await audit(poor.id, token.id);
    expect(bal.logCount).toBe(1);
    expect(bal.quota).toBeGreaterThanOrEqual(0);
    expect(bal.quota + bal.usedQuota).toBe(START);
    expect(bal.usedQuota).toBe(START);
    const log = await b.s.app.ctx.db.selectFrom('logs').select('content').where('user_id', '=', poor.id).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.content).toContain('额度不足，会话已关闭');
  });

  it('a server that stops ends its running sessions and bills what they used, once', async () => {
    const other = await startBench(dialect);
    try {
      await setOption(other, 'ModelRatio', JSON.stringify({ ...other.s.app.ctx.options.json<Record<string, number>>('ModelRatio'), [MODEL]: 2.5 }));
      await setOption(other, 'CompletionRatio', JSON.stringify({ ...other.s.app.ctx.options.json<Record<string, number>>('CompletionRatio'), [MODEL]: 4 }));
      await setOption(other, 'CacheRatio', JSON.stringify({ ...other.s.app.ctx.options.json<Record<string, number>>('CacheRatio'), [MODEL]: 0.5 }));
      await seedChannel(other.s, { type: 1, base_url: fake.url, key: 'sk-fake-good', models: MODEL });
      const seen = fake.connections.length;
      const ws = new WebSocket(`${other.s.url.replace(/^http/, 'ws')}/v1/realtime?model=${MODEL}`, { headers: { Authorization: `Bearer ${other.token.apiKey}` } });
      const events: Event[] = [];
      ws.on('message', (data) => events.push(JSON.parse(data.toString()) as Event));
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      await until(() => events.find((e) => e.type === 'session.created'), 'session.created');
      ws.send(JSON.stringify({ type: 'response.create' }));
      await until(() => doneCount(events) === 1, 'response.done');
      await other.s.app.close();
      expect(await closed).toBe(1001);
      expect(await fake.connections[seen]!.closed).toBe(1000);
      // Read back by a fresh start over the same database: the stopped server wrote it all.
      const reader = await startTestServer(dialect, { database: other.s.database });
      try {
        const bal = await balances(reader, other.user.id, other.token.id);
        expect(bal).toMatchObject({ openCount: 0, logCount: 1, logSum: ONE_RESPONSE, usedQuota: ONE_RESPONSE, tokenUsed: ONE_RESPONSE });
        const log = await reader.app.ctx.db.selectFrom('logs').select('content').where('user_id', '=', other.user.id).where('type', '=', 2).executeTakeFirstOrThrow();
        expect(log.content).toContain('服务中断时仍在传输');
      } finally {
        await reader.close();
      }
    } finally {
      await other.close();
    }
  });
});
