import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asBool } from '../../src/server/db/tables';
import { MemoryCodeStore, type CodeStore } from '../../src/server/services/accounts/code-store';
import { TURNSTILE_EMPTY, TURNSTILE_FAILED } from '../../src/server/auth/turnstile';
import { logQuota } from '../../src/shared/quota';
import { quotaDisplay } from '../../src/server/services/options/quota-display';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { startFakeTurnstile, type FakeTurnstile } from '../fakes/turnstile';

const INVALID_INPUT = '输入不合法 ';
const WRONG_CODE = '验证码错误或已过期';
const NAME_TAKEN = '用户名已存在，或已注销';
const EMAIL_TAKEN = '邮箱地址已被占用';
const BAD_RESET_LINK = '重置链接非法或已过期';
const SMTP_ACCOUNT = { user: 'mailer@example.com', pass: 'smtp-secret-pw' };
const TURNSTILE_SECRET = 'turnstile-secret-key';
const SERVER_ADDRESS = 'https://console.example.com';

/** The options a test may change, at their defaults; restored after each test. */
const TOGGLES: Record<string, string> = {
  RegisterEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  QuotaForNewUser: '0',
  QuotaForInviter: '0',
  QuotaForInvitee: '0',
};

async function setOptions(s: TestServer, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await s.app.ctx.options.setInternal(key, value);
}

function smtpOptions(smtp: FakeSmtp): Record<string, string> {
  return {
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPAccount: SMTP_ACCOUNT.user,
    SMTPToken: SMTP_ACCOUNT.pass,
    SMTPFrom: 'noreply@example.com',
    ServerAddress: SERVER_ADDRESS,
  };
}

function registration(username: string, password: string, extra: Record<string, string> = {}) {
  return { username, password, password2: password, email: '', verification_code: '', aff_code: '', ...extra };
}

/** Asks for a code and reads it out of the mail the fake SMTP server received. */
async function mailedCode(s: TestServer, smtp: FakeSmtp, email: string, client: ApiClient = s.client()): Promise<string> {
  const res = await client.get(`/api/verification?email=${encodeURIComponent(email)}`);
  expect(res.body).toEqual({ success: true, message: '' });
  const mail = await smtp.nextMail(email);
  const code = /<strong>([0-9a-f]{6})<\/strong>/.exec(mail.html)?.[1];
  expect(code).toBeDefined();
  return code!;
}

async function userRow(s: TestServer, username: string) {
  return s.app.ctx.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

async function countUsers(s: TestServer): Promise<number> {
  const row = await s.app.ctx.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDialect('accounts', (dialect) => {
  let s: TestServer;
  let smtp: FakeSmtp;
  let turnstile: FakeTurnstile;
  let originalCodes: CodeStore;

  beforeAll(async () => {
    smtp = await startFakeSmtp({ account: SMTP_ACCOUNT });
    turnstile = await startFakeTurnstile(TURNSTILE_SECRET, ['good-token']);
    s = await startTestServer(dialect, { env: { TURNSTILE_VERIFY_URL: turnstile.url } });
    originalCodes = s.app.ctx.codes;
    await setOptions(s, { ...smtpOptions(smtp), TurnstileSiteKey: 'site-key', TurnstileSecretKey: TURNSTILE_SECRET });
    // Users the tests lean on: alice (no email) and bob (bob@example.com).
    expect((await s.client().post('/api/user/register', registration('alice', 'alicepass1'))).body.success).toBe(true);
    await setOptions(s, { EmailVerificationEnabled: 'true' });
    const code = await mailedCode(s, smtp, 'bob@example.com');
    const res = await s.client().post('/api/user/register', registration('bob', 'bobpass123', { email: 'bob@example.com', verification_code: code }));
    expect(res.body).toEqual({ success: true, message: '' });
    await setOptions(s, TOGGLES);
  });

  afterEach(async () => {
    await setOptions(s, { ...TOGGLES, ...smtpOptions(smtp) });
    s.app.ctx.codes = originalCodes;
    s.app.ctx.config.generateDefaultToken = false;
    turnstile.broken = false;
  });

  afterAll(async () => {
    await s?.close();
    await smtp?.close();
    await turnstile?.close();
  });

  it('registers with a username and password, without signing in', async () => {
    const c = s.client();
    const res = await c.post('/api/user/register', registration('用户名用户名用户名用户名', 'longpass12'));
    expect(res.body).toEqual({ success: true, message: '' });
    expect(c.cookie).toBe('');
    const row = await userRow(s, '用户名用户名用户名用户名');
    expect(row).toMatchObject({ display_name: '用户名用户名用户名用户名', role: 1, status: 1, email: '', inviter_id: 0 });
    expect(row!.password).not.toBe('longpass12');
    expect(row!.aff_code).toMatch(/^[0-9a-zA-Z]{4,6}$/);
    const login = await s.client().post('/api/user/login', { username: '用户名用户名用户名用户名', password: 'longpass12' });
    expect(login.body.success).toBe(true);
  });

  it('refuses every bad registration with its message and creates nothing', async () => {
    await s.app.ctx.db
      .insertInto('users')
      .values({ username: 'ghost', password: '', email: 'ghost@example.com', access_token: null, aff_code: null, deleted_at: sql<string>`CURRENT_TIMESTAMP` })
      .execute();
    const before = await countUsers(s);
    const c = s.client();
    const refuse = async (body: unknown, message: string | RegExp) => {
      const res = await c.post('/api/user/register', body);
      expect(res.body.success).toBe(false);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    };
    const invalidInput = new RegExp(`^${INVALID_INPUT}\\S`);

    await setOptions(s, { RegisterEnabled: 'false' });
    await refuse(registration('carl', 'carlpass1'), '管理员关闭了新用户注册');
    await setOptions(s, { RegisterEnabled: 'true', PasswordRegisterEnabled: 'false' });
    await refuse(registration('carl', 'carlpass1'), '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
    await setOptions(s, { PasswordRegisterEnabled: 'true' });

    await refuse(registration('', 'carlpass1'), invalidInput);
    await refuse(registration('   ', 'carlpass1'), invalidInput);
    await refuse(registration('abcdefghijklm', 'carlpass1'), invalidInput);
    // Our words for a short password (docs/messages.md#accounts-and-settings); too long stays 输入不合法.
    await refuse(registration('carl', 'short12'), '密码长度不得小于 8 位！');
    await refuse(registration('carl', 'x'.repeat(21)), invalidInput);
    await refuse({ username: 'carl' }, '密码长度不得小于 8 位！');
    await refuse(registration('carl', 'carlpass1', { email: `${'e'.repeat(40)}@example.com` }), invalidInput);
    await refuse(registration('alice', 'alicepass1'), NAME_TAKEN);
    await refuse(registration(' alice ', 'alicepass1'), NAME_TAKEN);
    await refuse(registration('ghost', 'ghostpass1'), NAME_TAKEN);

    await setOptions(s, { EmailVerificationEnabled: 'true' });
    const verificationRequired = '管理员开启了邮箱验证，请输入邮箱地址和验证码';
    await refuse(registration('carl', 'carlpass1'), verificationRequired);
    await refuse(registration('carl', 'carlpass1', { email: 'carl@example.com' }), verificationRequired);
    await refuse(registration('carl', 'carlpass1', { email: 'carl@example.com', verification_code: '123abc' }), WRONG_CODE);
    // A deleted account still holds its email.
    await s.app.ctx.codes.put('verify', 'ghost@example.com', 'a1b2c3', 60);
    await refuse(registration('carl', 'carlpass1', { email: 'ghost@example.com', verification_code: 'a1b2c3' }), NAME_TAKEN);

    const notJson = await c.request('POST', '/api/user/register', 'not json');
    expect(notJson.body).toEqual({ success: false, message: '无效的参数' });
    const wrongType = await c.post('/api/user/register', { ...registration('carl', 'carlpass1'), username: 42 });
    expect(wrongType.body.success).toBe(false);
    expect(wrongType.body.message).toMatch(/^无效的参数/);
    expect(await countUsers(s)).toBe(before);
  });

  it('mails a verification code and registers with it; the email is then taken', async () => {
    await setOptions(s, { EmailVerificationEnabled: 'true' });
    const res = await s.client().get('/api/verification?email=dora@example.com');
    expect(res.body).toEqual({ success: true, message: '' });
    const mail = await smtp.nextMail('dora@example.com');
    expect(mail.subject).toBe('Switchyard邮箱验证邮件');
    expect(mail.headers.from).toMatch(/^"?Switchyard"? <noreply@example\.com>$/);
    expect(mail.headers['content-type']).toMatch(/^text\/html/);
    expect(mail.from).toBe('noreply@example.com');
    expect(mail.user).toBe(SMTP_ACCOUNT.user);
    expect(mail.html).toContain('3 分钟内有效');
    const code = /<strong>([0-9a-f]{6})<\/strong>/.exec(mail.html)![1]!;

    const c = s.client();
    const wrong = await c.post('/api/user/register', registration('dora', 'dorapass1', { email: 'dora@example.com', verification_code: code === 'aaaaaa' ? 'bbbbbb' : 'aaaaaa' }));
    expect(wrong.body).toEqual({ success: false, message: WRONG_CODE });
    const otherEmail = await c.post('/api/user/register', registration('dora', 'dorapass1', { email: 'eve@example.com', verification_code: code }));
    expect(otherEmail.body).toEqual({ success: false, message: WRONG_CODE });
    const good = await c.post('/api/user/register', registration('dora', 'dorapass1', { email: 'dora@example.com', verification_code: code }));
    expect(good.body).toEqual({ success: true, message: '' });
    expect((await userRow(s, 'dora'))!.email).toBe('dora@example.com');

    const again = await s.client().get('/api/verification?email=dora@example.com');
    expect(again.body).toEqual({ success: false, message: EMAIL_TAKEN });
  });

  it('keeps the email only when verification is on', async () => {
    const res = await s.client().post('/api/user/register', registration('fred', 'fredpass1', { email: 'fred@example.com' }));
    expect(res.body.success).toBe(true);
    expect((await userRow(s, 'fred'))!.email).toBe('');
  });

  it('replaces an earlier code and expires codes after 3 minutes', async () => {
    let now = Date.now();
    s.app.ctx.codes = new MemoryCodeStore(() => now);
    await setOptions(s, { EmailVerificationEnabled: 'true' });
    const first = await mailedCode(s, smtp, 'gina@example.com');
    const second = await mailedCode(s, smtp, 'gina@example.com');
    // The name is taken: a code that passes reaches the next check, one that fails stops at the code.
    const attempt = async (code: string) => (await s.client().post('/api/user/register', registration('alice', 'alicepass1', { email: 'gina@example.com', verification_code: code }))).body.message;
    if (first !== second) expect(await attempt(first)).toBe(WRONG_CODE);
    now += 179_000;
    expect(await attempt(second)).toBe(NAME_TAKEN);
    now += 2_000;
    expect(await attempt(second)).toBe(WRONG_CODE);
  });

  it('checks the address before sending a code', async () => {
    const sent = smtp.messages.length;
    const ask = async (email: string) => (await s.client().get(`/api/verification?email=${encodeURIComponent(email)}`)).body;
    expect(await ask('')).toEqual({ success: false, message: '请输入邮箱！' });
    expect(await ask('not-an-email')).toEqual({ success: false, message: '无效的参数' });
    expect(await ask('a@b@example.com')).toEqual({ success: false, message: '无效的邮箱地址' });

    await setOptions(s, { EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com,corp.test' });
    const notListed = await ask('hank@other.org');
    expect(notListed.success).toBe(false);
    expect(notListed.message).toMatch(/email domain name whitelist/);
    await setOptions(s, { EmailAliasRestrictionEnabled: 'true' });
    const alias = '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。';
    expect(await ask('hank.h@corp.test')).toEqual({ success: false, message: alias });
    expect(await ask('hank+x@corp.test')).toEqual({ success: false, message: alias });
    expect(smtp.messages.length).toBe(sent);

    expect(await ask('hank@Corp.Test')).toEqual({ success: true, message: '' });
    await smtp.nextMail('hank@Corp.Test');
  });

  it('reports mail failures without secrets', async () => {
    await setOptions(s, { SMTPServer: '' });
    expect((await s.client().get('/api/verification?email=ivan@example.com')).body).toEqual({ success: false, message: 'SMTP 服务器未配置' });
    await setOptions(s, { SMTPServer: '127.0.0.1', SMTPToken: 'wrong-smtp-password' });
    const res = await s.client().get('/api/verification?email=ivan@example.com');
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/\S/);
    expect(res.body.message).not.toContain('wrong-smtp-password');
  });

  it('resets a password through the mailed link, once', async () => {
    const c = s.client();
    expect((await c.get('/api/reset_password?email=nobody@example.com')).body).toEqual({ success: false, message: '该邮箱地址未注册' });
    expect((await c.get('/api/reset_password?email=nonsense')).body).toEqual({ success: false, message: '无效的参数' });

    expect((await c.get('/api/reset_password?email=bob@example.com')).body).toEqual({ success: true, message: '' });
    const mail = await smtp.nextMail('bob@example.com');
    expect(mail.subject).toBe('Switchyard密码重置');
    expect(mail.html).toContain('10 分钟内有效');
    const link = /href="([^"]+)"/.exec(mail.html)![1]!.replace(/&amp;/g, '&');
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${SERVER_ADDRESS}/user/reset`);
    expect(link).toContain('email=bob%40example.com&token=');
    const email = url.searchParams.get('email')!;
    const token = url.searchParams.get('token')!;
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    expect((await c.post('/api/user/reset', { email, token: '0'.repeat(32) })).body).toEqual({ success: false, message: BAD_RESET_LINK });
    expect((await c.post('/api/user/reset', { email: 'alice@example.com', token })).body).toEqual({ success: false, message: BAD_RESET_LINK });
    expect((await c.post('/api/user/reset', { email, token: '' })).body).toEqual({ success: false, message: '无效的参数' });

    const done = await c.post('/api/user/reset', { email, token });
    expect(done.body.success).toBe(true);
    const password = done.body.data as string;
    expect(password).toMatch(/^[0-9a-f]{12}$/);
    expect((await s.client().post('/api/user/login', { username: 'bob', password: 'bobpass123' })).body.success).toBe(false);
    expect((await s.client().post('/api/user/login', { username: 'bob@example.com', password })).body.success).toBe(true);

    expect((await c.post('/api/user/reset', { email, token })).body).toEqual({ success: false, message: BAD_RESET_LINK });
  });

  it('binds a verified email to the signed-in user', async () => {
    const anonymous = await s.client().get('/api/oauth/email/bind?email=alice@example.com&code=abcdef');
    expect(anonymous.status).toBe(401);

    const alice = await s.login('alice', 'alicepass1');
    const code = await mailedCode(s, smtp, 'alice@example.com', alice);
    const wrong = await alice.get(`/api/oauth/email/bind?email=alice@example.com&code=${code === 'aaaaaa' ? 'bbbbbb' : 'aaaaaa'}`);
    expect(wrong.body).toEqual({ success: false, message: WRONG_CODE });
    expect((await alice.get('/api/oauth/email/bind?email=alice@example.com&code=')).body).toEqual({ success: false, message: '请输入邮箱验证码！' });
    const good = await alice.get(`/api/oauth/email/bind?email=alice@example.com&code=${code}`);
    expect(good.body).toEqual({ success: true, message: '' });
    expect((await alice.get('/api/user/self')).body.data.email).toBe('alice@example.com');

    // Bob took his address first: a code for it does not let Alice claim it.
    await s.app.ctx.codes.put('verify', 'bob@example.com', 'c0ffee', 60);
    const taken = await alice.get('/api/oauth/email/bind?email=bob@example.com&code=c0ffee');
    expect(taken.body).toEqual({ success: false, message: EMAIL_TAKEN });
    expect((await userRow(s, 'alice'))!.email).toBe('alice@example.com');
  });

  it('checks Turnstile when enabled and remembers a pass in the session', async () => {
    const open = await s.client().get('/api/reset_password?email=nobody@example.com');
    expect(open.body.message).toBe('该邮箱地址未注册');

    await setOptions(s, { TurnstileCheckEnabled: 'true' });
    const c = s.client();
    expect((await c.get('/api/reset_password?email=nobody@example.com')).body).toEqual({ success: false, message: TURNSTILE_EMPTY });
    expect((await c.post('/api/user/register', registration('jill', 'jillpass1'))).body).toEqual({ success: false, message: TURNSTILE_EMPTY });
    const calls = turnstile.calls.length;
    expect((await c.get('/api/verification?email=jill@example.com&turnstile=bad-token')).body).toEqual({ success: false, message: TURNSTILE_FAILED });
    expect(turnstile.calls.slice(calls)).toEqual([{ secret: TURNSTILE_SECRET, response: 'bad-token', remoteip: '127.0.0.1' }]);

    expect((await c.get('/api/reset_password?email=nobody@example.com&turnstile=good-token')).body.message).toBe('该邮箱地址未注册');
    expect(c.cookie).not.toBe('');
    const afterPass = turnstile.calls.length;
    expect((await c.get('/api/reset_password?email=nobody@example.com')).body.message).toBe('该邮箱地址未注册');
    expect(turnstile.calls.length).toBe(afterPass);

    // Login has the check too; the pass it records survives the login's own session write.
    const fresh = s.client();
    expect((await fresh.post('/api/user/login', { username: 'alice', password: 'alicepass1' })).body).toEqual({ success: false, message: TURNSTILE_EMPTY });
    const login = await fresh.post('/api/user/login?turnstile=good-token', { username: 'alice', password: 'alicepass1' });
    expect(login.body.success).toBe(true);
    expect((await fresh.get('/api/reset_password?email=nobody@example.com')).body.message).toBe('该邮箱地址未注册');
    expect((await fresh.get('/api/user/self')).body.data.username).toBe('alice');

    turnstile.broken = true;
    expect((await s.client().get('/api/reset_password?email=nobody@example.com&turnstile=good-token')).body).toEqual({ success: false, message: TURNSTILE_FAILED });
    // Confirming a reset has no bot check.
    expect((await s.client().post('/api/user/reset', { email: 'x@example.com', token: 'y' })).body.message).toBe(BAD_RESET_LINK);
  });

  it('credits invitations to both sides and writes the system logs', async () => {
    await setOptions(s, { QuotaForNewUser: '1000', QuotaForInviter: '3000', QuotaForInvitee: '2000' });
    const inviter = (await userRow(s, 'alice'))!;
    const res = await s.client().post('/api/user/register', registration('ivy', 'ivypass12', { aff_code: inviter.aff_code! }));
    expect(res.body).toEqual({ success: true, message: '' });
    const ivy = (await userRow(s, 'ivy'))!;
    expect(ivy.inviter_id).toBe(inviter.id);
    expect(Number(ivy.quota)).toBe(3000);
    const after = (await userRow(s, 'alice'))!;
    expect(after.aff_count).toBe(inviter.aff_count + 1);
    expect(Number(after.aff_quota)).toBe(Number(inviter.aff_quota) + 3000);
    expect(Number(after.aff_history)).toBe(Number(inviter.aff_history) + 3000);

    const display = quotaDisplay(s.app.ctx);
    const logsOf = async (userId: number) =>
      (await s.app.ctx.db.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 4).orderBy('id').execute()).map((r) => r.content);
    expect(await logsOf(ivy.id)).toEqual([`新用户注册赠送 ${logQuota(1000, display)}`, `使用邀请码赠送 ${logQuota(2000, display)}`]);
    expect(await logsOf(inviter.id)).toContain(`邀请用户赠送 ${logQuota(3000, display)}`);

    const unknown = await s.client().post('/api/user/register', registration('jay', 'jaypass12', { aff_code: 'zz99' }));
    expect(unknown.body.success).toBe(true);
    expect(await userRow(s, 'jay')).toMatchObject({ inviter_id: 0 });
    expect(Number((await userRow(s, 'jay'))!.quota)).toBe(1000);
  });

  it('creates an unlimited initial token with GENERATE_DEFAULT_TOKEN', async () => {
    s.app.ctx.config.generateDefaultToken = true;
    const res = await s.client().post('/api/user/register', registration('kim', 'kimpass12'));
    expect(res.body).toEqual({ success: true, message: '' });
    const kim = (await userRow(s, 'kim'))!;
    const tokens = await s.app.ctx.db.selectFrom('tokens').selectAll().where('user_id', '=', kim.id).execute();
    expect(tokens).toHaveLength(1);
    const token = tokens[0]!;
    expect(token.name).toBe('kim的初始令牌');
    expect(token.key).toMatch(/^[a-zA-Z0-9]{48}$/);
    expect(Number(token.remain_quota)).toBe(500000);
    expect(asBool(token.unlimited_quota)).toBe(true);
    expect(Number(token.expired_time)).toBe(-1);
    expect(token.status).toBe(1);
    expect(Math.abs(Number(token.created_time) - Date.now() / 1000)).toBeLessThan(60);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describeEachDialect('accounts over two nodes sharing Redis', (dialect) => {
  let a: TestServer;
  let b: TestServer;
  let smtp: FakeSmtp;
  const email = `node${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

  describe.skipIf(!redisUrl)('with TEST_REDIS_URL', () => {
    beforeAll(async () => {
      smtp = await startFakeSmtp({ account: SMTP_ACCOUNT });
      a = await startTestServer(dialect, { env: { REDIS_CONN_STRING: redisUrl! } });
      b = await startTestServer(dialect, { env: { REDIS_CONN_STRING: redisUrl! }, database: a.database });
      await setOptions(a, { ...smtpOptions(smtp), EmailVerificationEnabled: 'true' });
      await b.app.ctx.options.reload();
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
      await smtp?.close();
    });

    it('accepts on one node a code mailed by another, and a reset token only once', async () => {
      // Shared through Redis (with this node's memory only as the fallback for an outage).
      expect(a.app.ctx.codes).not.toBeInstanceOf(MemoryCodeStore);
      const code = await mailedCode(a, smtp, email);
      const res = await b.client().post('/api/user/register', registration('nina', 'ninapass1', { email, verification_code: code }));
      expect(res.body).toEqual({ success: true, message: '' });

      expect((await b.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`)).body.success).toBe(true);
      const token = /token=([0-9a-f]{32})/.exec((await smtp.nextMail(email)).html)![1]!;
      const reset = await a.client().post('/api/user/reset', { email, token });
      expect(reset.body.success).toBe(true);
      expect((await b.client().post('/api/user/reset', { email, token })).body).toEqual({ success: false, message: BAD_RESET_LINK });
      expect((await b.client().post('/api/user/login', { username: 'nina', password: reset.body.data })).body.success).toBe(true);
    });
  });
});
