import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type TestServer } from '../helpers/server';

describeEachDialect('foundation', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creates root/123456 on first start and logs in with a session cookie', async () => {
    const c = s.client();
    const res = await c.post('/api/user/login', { username: 'root', password: '123456' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({ username: 'root', role: 100, status: 1, password: '' });
    expect(res.body.data.default_password).toBe(true);
    const cookie = res.headers.getSetCookie().join(';');
    expect(cookie).toMatch(/session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const self = await c.get('/api/user/self');
    expect(self.body.success).toBe(true);
    expect(self.body.data.username).toBe('root');
    expect(self.body.data.password).toBe('');
  });

  it('refuses a wrong password with the reference message', async () => {
    const res = await s.client().post('/api/user/login', { username: 'root', password: 'wrong-password' });
    expect(res.body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await s.client().get('/api/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: '接口不存在' });
  });

  it('publishes x-public options in /api/status', async () => {
    const res = await s.client().get('/api/status');
    expect(res.body.success).toBe(true);
    expect(res.body.data.system_name).toBe('Switchyard');
    expect(res.body.data.email_verification).toBe(false);
    expect(typeof res.body.data.start_time).toBe('number');
  });
});
