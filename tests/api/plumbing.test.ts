/**
 * Transport-level behaviour every /api route shares: rate limits per client IP (global and
 * critical), the client IP rule behind proxies, error replies without internals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

const sqlite = { name: 'sqlite' as const, url: 'sqlite' };

describe('global /api rate limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(sqlite, { env: { GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '5', GLOBAL_API_RATE_LIMIT_DURATION: '60' } });
  });
  afterAll(() => s?.close());

  it('answers 429 after the configured number of requests, whatever X-Forwarded-For says', async () => {
    const c = s.client();
    for (let i = 0; i < 5; i++) expect((await c.get('/api/status', { 'x-forwarded-for': `10.0.0.${i}` })).status).toBe(200);
    const refused = await c.get('/api/status', { 'x-forwarded-for': '10.9.9.9' });
    expect(refused.status).toBe(429);
    expect(refused.body.success).toBe(false);
    // The console pages are not counted in the API bucket.
    expect((await c.get('/api/notice')).status).toBe(429);
  });
});

describe('rate limits behind a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(sqlite, {
      env: { GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '2', GLOBAL_API_RATE_LIMIT_DURATION: '60', TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(() => s?.close());

  it('counts each forwarded client apart when the proxy is trusted', async () => {
    const c = s.client();
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      expect((await c.get('/api/status', { 'x-forwarded-for': ip })).status).toBe(200);
      expect((await c.get('/api/status', { 'x-forwarded-for': ip })).status).toBe(200);
      expect((await c.get('/api/status', { 'x-forwarded-for': ip })).status).toBe(429);
    }
  });
});

describe('critical rate limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(sqlite, { env: { CRITICAL_RATE_LIMIT_ENABLE: 'true', CRITICAL_RATE_LIMIT: '3', CRITICAL_RATE_LIMIT_DURATION: '1200' } });
  });
  afterAll(() => s?.close());

  it('is one bucket per IP shared by the sign-in routes, and does not touch other routes', async () => {
    const c = s.client();
    for (let i = 0; i < 3; i++) {
      const r = await c.post('/api/user/login', { username: 'root', password: 'wrong-password' });
      expect(r.status).toBe(200);
    }
    const refused = await c.post('/api/user/login', { username: 'root', password: '123456' });
    expect(refused.status).toBe(429);
    // Ordinary routes stay open (the global limit is off here).
    expect((await c.get('/api/status')).status).toBe(200);
  });
});

describe('switched off', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(sqlite, { env: { GLOBAL_API_RATE_LIMIT_ENABLE: 'false', GLOBAL_API_RATE_LIMIT: '1' } });
  });
  afterAll(() => s?.close());

  it('GLOBAL_API_RATE_LIMIT_ENABLE=false lets every request through', async () => {
    const c = s.client();
    for (let i = 0; i < 5; i++) expect((await c.get('/api/status')).status).toBe(200);
  });
});

describe('error replies', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(sqlite, { configure: (c) => (c.bodyLimit = 2048) });
  });
  afterAll(() => s?.close());

  it('refuses malformed JSON with 400 and the reference message', async () => {
    const r = await s.client().post('/api/user/login', '{"username": "root", ');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, message: '无效的参数' });
  });

  it('refuses an oversized body with 413 before reading it', async () => {
    const r = await s.client().post('/api/user/login', { username: 'root', password: 'x'.repeat(5000) });
    expect(r.status).toBe(413);
    expect(r.body.success).toBe(false);
  });

  it('refuses wrong types with a clear 400 and drops unknown fields', async () => {
    const root = await s.root();
    const wrongType = await root.put('/api/option/', { key: 123, value: 'x', extra: 1 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('无效的参数: key must be string');
    // Nothing changed.
    expect((await s.client().get('/api/notice')).body.data).toBe('');
    const unknown = await root.put('/api/option/', { key: 'Notice', value: 'x', extra: 1 });
    expect(unknown.body).toEqual({ success: true, message: '' });
    expect((await s.client().get('/api/notice')).body.data).toBe('x');
  });

  it('reads an empty body sent as application/json as no body', async () => {
    const root = await s.root();
    const empty = await root.request('POST', '/api/channel/fix', '', { 'content-type': 'application/json' });
    expect(empty.body.success).toBe(true);
    // A route that needs a body still refuses a missing one.
    const login = await s.client().request('POST', '/api/user/login', '', { 'content-type': 'application/json' });
    expect(login.status).toBe(400);
    expect(login.body.success).toBe(false);
  });

  it('answers 401 without a session and without an access token', async () => {
    const r = await s.client().get('/api/user/self');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
  });

  it('answers 401 when New-Api-User is missing, malformed or not the session user', async () => {
    const root = await s.root();
    expect((await root.get('/api/user/self', { 'new-api-user': '' })).body.message).toBe('无权进行此操作，未提供 New-Api-User');
    expect((await root.get('/api/user/self', { 'new-api-user': 'abc' })).body.message).toBe('无权进行此操作，New-Api-User 格式错误');
    const mismatch = await root.get('/api/user/self', { 'new-api-user': '999' });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.message).toBe('无权进行此操作，New-Api-User 与登录用户不匹配');
  });

  it('never puts an internal error or stack trace into a reply', async () => {
    const root = await s.root();
    // Break the database under the running server.
    await s.app.ctx.db.destroy();
    const r = await root.get('/api/user/self');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ success: false, message: '服务器内部错误，请联系管理员' });
    expect(JSON.stringify(r.body)).not.toMatch(/at |Error|stack/);
  });
});
