import { createHash, createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/server/services/users/user.service';
import { DIALECTS, describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type ApiResponse, type TestServer } from '../helpers/server';
import { deadUrl, startIdentityProviderFakes, type IdentityProviderFakes } from '../fakes/oauth';

const SERVER_ADDRESS = 'https://console.example.com';
const BOT_TOKEN = '7012345678:AAF-test-bot-token-for-switchyard';
const PASSWORD = 'password123';

type Column = 'github_id' | 'oidc_id' | 'linux_do_id' | 'wechat_id';

/** One code-based provider as the tests drive it. */
interface ProviderCase {
  name: 'github' | 'oidc' | 'linuxdo' | 'wechat';
  column: Column;
  enabledKey: string;
  disabledMessage: string;
  boundMessage: string;
  bindMessage: string;
  /** A fresh external id. */
  newExternalId(): string;
  /** A one-time code the fake accepts for that person. */
  code(externalId: string): string;
  expectedDisplayName(externalId: string): string;
  signIn(c: ApiClient, code: string): Promise<ApiResponse>;
  bind(c: ApiClient, code: string): Promise<ApiResponse>;
}

/** Sends the Telegram widget's fields signed the way Telegram signs them. */
function signTelegram(fields: Record<string, string>, botToken = BOT_TOKEN): Record<string, string> {
  const dataCheck = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const key = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', key).update(dataCheck).digest('hex') };
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

describeEachDialect('oauth', (dialect) => {
  let s: TestServer;
  let fakes: IdentityProviderFakes;
  let seq = 0;

  async function state(c: ApiClient, aff?: string): Promise<string> {
    const res = await c.get(`/api/oauth/state${aff ? `?aff=${encodeURIComponent(aff)}` : ''}`);
    expect(res.body.success).toBe(true);
    return res.body.data as string;
  }

  async function callback(name: string, c: ApiClient, code: string): Promise<ApiResponse> {
    const res = await c.get(`/api/oauth/${name}?${query({ code, state: await state(c) })}`);
    if (res.body?.success && res.body.data?.id) c.userId = res.body.data.id;
    return res;
  }

  async function wechatSignIn(c: ApiClient, code: string): Promise<ApiResponse> {
    const res = await c.get(`/api/oauth/wechat?${query({ code })}`);
    if (res.body?.success && res.body.data?.id) c.userId = res.body.data.id;
    return res;
  }

  const cases: ProviderCase[] = [
    {
      name: 'github',
      column: 'github_id',
      enabledKey: 'GitHubOAuthEnabled',
      disabledMessage: '管理员未开启通过 GitHub 登录以及注册',
      boundMessage: '该 GitHub 账户已被绑定',
      bindMessage: 'bind',
      newExternalId: () => `octo-${++seq}`,
      code: (login) => fakes.github.issueCode({ login, name: `Octo ${login}`, email: `${login}@example.com` }),
      expectedDisplayName: (login) => `Octo ${login}`,
      signIn: (c, code) => callback('github', c, code),
      bind: (c, code) => callback('github', c, code),
    },
    {
      name: 'oidc',
      column: 'oidc_id',
      enabledKey: 'oidc.enabled',
      disabledMessage: '管理员未开启通过 OIDC 登录以及注册',
      boundMessage: '该 OIDC 账户已被绑定',
      bindMessage: 'bind',
      newExternalId: () => `sub-${++seq}-f3a9`,
      code: (sub) => fakes.oidc.issueCode({ sub, email: `${sub}@idp.example.com`, name: `Person ${sub}` }, `${SERVER_ADDRESS}/oauth/oidc`),
      expectedDisplayName: (sub) => `Person ${sub}`.slice(0, 20),
      signIn: (c, code) => callback('oidc', c, code),
      bind: (c, code) => callback('oidc', c, code),
    },
    {
      name: 'linuxdo',
      column: 'linux_do_id',
      enabledKey: 'LinuxDOOAuthEnabled',
      disabledMessage: '管理员未开启通过 Linux DO 登录以及注册',
      boundMessage: '该 Linux DO 账户已被绑定',
      bindMessage: 'bind',
      newExternalId: () => String(70000 + ++seq),
      code: (id) => fakes.linuxdo.issueCode({ id: Number(id), username: `ld${id}`, name: `LD ${id}` }, `${s.url}/api/oauth/linuxdo`),
      expectedDisplayName: (id) => `LD ${id}`,
      signIn: (c, code) => callback('linuxdo', c, code),
      bind: (c, code) => callback('linuxdo', c, code),
    },
    {
      name: 'wechat',
      column: 'wechat_id',
      enabledKey: 'WeChatAuthEnabled',
      disabledMessage: '管理员未开启通过微信登录以及注册',
      boundMessage: '该微信账号已被绑定',
      bindMessage: '',
      newExternalId: () => `oWx${++seq}AbCdEf`,
      code: (openid) => fakes.wechat.issueCode(openid),
      expectedDisplayName: () => 'WeChat User',
      signIn: wechatSignIn,
      bind: (c, code) => c.get(`/api/oauth/wechat/bind?${query({ code })}`),
    },
  ];

  async function setOption(key: string, value: string): Promise<void> {
    await s.app.ctx.options.setInternal(key, value);
  }

  async function userCount(): Promise<number> {
    const row = await s.app.ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function userById(id: number) {
    return s.app.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function usersBound(column: Column | 'telegram_id', externalId: string) {
    return s.app.ctx.db.selectFrom('users').selectAll().where(column, '=', externalId).execute();
  }

  /** A fresh password account, signed in. */
  async function member(): Promise<{ id: number; client: ApiClient }> {
    const username = `m${++seq}`;
    const id = await createAccount(s.app.ctx, { username, password: PASSWORD });
    return { id, client: await s.login(username, PASSWORD) };
  }

  /** Signs up a new person through the provider; answers the new account id and external id. */
  async function signUp(p: ProviderCase): Promise<{ id: number; externalId: string }> {
    const externalId = p.newExternalId();
    const res = await p.signIn(s.client(), p.code(externalId));
    expect(res.body.success, res.body.message).toBe(true);
    return { id: res.body.data.id, externalId };
  }

  beforeAll(async () => {
    fakes = await startIdentityProviderFakes();
    s = await startTestServer(dialect, {
      env: { GITHUB_OAUTH_URL: fakes.github.url, GITHUB_API_URL: `${fakes.github.url}/`, LINUXDO_URL: fakes.linuxdo.url },
    });
    const settings: Array<[string, string]> = [
      ['ServerAddress', SERVER_ADDRESS],
      ['GitHubClientId', fakes.github.clientId],
      ['GitHubClientSecret', fakes.github.clientSecret],
      ['GitHubOAuthEnabled', 'true'],
      ['oidc.client_id', fakes.oidc.clientId],
      ['oidc.client_secret', fakes.oidc.clientSecret],
      ['oidc.token_endpoint', fakes.oidc.tokenEndpoint],
      ['oidc.user_info_endpoint', fakes.oidc.userInfoEndpoint],
      ['oidc.enabled', 'true'],
      ['LinuxDOClientId', fakes.linuxdo.clientId],
      ['LinuxDOClientSecret', fakes.linuxdo.clientSecret],
      ['LinuxDOOAuthEnabled', 'true'],
      ['WeChatServerAddress', fakes.wechat.url],
      ['WeChatServerToken', fakes.wechat.serverToken],
      ['WeChatAuthEnabled', 'true'],
      ['TelegramBotToken', BOT_TOKEN],
      ['TelegramOAuthEnabled', 'true'],
    ];
    for (const [key, value] of settings) await setOption(key, value);
  });

  afterAll(async () => {
    await s?.close();
    await fakes?.close();
  });

  it('issues a 12-character state and keeps it in the session', async () => {
    const c = s.client();
    const res = await c.get('/api/oauth/state?aff=abcd');
    expect(res.body).toEqual({ success: true, message: '', data: expect.stringMatching(/^[0-9a-zA-Z]{12}$/) });
    expect(c.cookie).toMatch(/^session=/);
    const again = await state(c);
    expect(again).not.toBe(res.body.data);
  });

  for (const p of cases) {
    describe(p.name, () => {
      afterEach(async () => {
        await setOption(p.enabledKey, 'true');
        await setOption('RegisterEnabled', 'true');
      });

      it('signs up a new account on first sign-in and starts a session', async () => {
        const before = await userCount();
        const externalId = p.newExternalId();
        const c = s.client();
        const res = await p.signIn(c, p.code(externalId));
        expect(res.body.success, res.body.message).toBe(true);
        expect(res.body.message).toBe('');
        const data = res.body.data;
        expect(data.username).toMatch(new RegExp(`^${p.name}_\\d+$`));
        expect(data).toMatchObject({ display_name: p.expectedDisplayName(externalId), role: 1, status: 1, group: 'default', password: '' });
        // The login reply carries only the six login fields.
        expect(data).toMatchObject({ email: '', quota: 0, [p.column]: '', access_token: null });
        expect(await userCount()).toBe(before + 1);

        const self = await c.get('/api/user/self');
        expect(self.body.success).toBe(true);
        expect(self.body.data).toMatchObject({ id: data.id, username: data.username, [p.column]: externalId, password: '' });
        const row = await userById(data.id);
        expect(row.password).toBe('');
        expect(row.aff_code).toMatch(/^[0-9a-zA-Z]{4,6}$/);
      });

      it('signs in the account already bound to the identity', async () => {
        const { id, externalId } = await signUp(p);
        const before = await userCount();
        const res = await p.signIn(s.client(), p.code(externalId));
        expect(res.body.success).toBe(true);
        expect(res.body.data.id).toBe(id);
        expect(await userCount()).toBe(before);
      });

      it('binds the identity to the signed-in account', async () => {
        const { id, client } = await member();
        const externalId = p.newExternalId();
        const res = await p.bind(client, p.code(externalId));
        expect(res.body).toEqual({ success: true, message: p.bindMessage });
        expect((await userById(id))[p.column]).toBe(externalId);
        // From now on the identity signs in to that account.
        const login = await p.signIn(s.client(), p.code(externalId));
        expect(login.body.data.id).toBe(id);
      });

      it('refuses to bind an identity that belongs to an account already', async () => {
        const owner = await signUp(p);
        const { id, client } = await member();
        const res = await p.bind(client, p.code(owner.externalId));
        expect(res.body).toEqual({ success: false, message: p.boundMessage });
        expect((await userById(id))[p.column]).toBe('');
        expect(await usersBound(p.column, owner.externalId)).toHaveLength(1);
      });

      it('refuses while the administrator has the provider switched off', async () => {
        await setOption(p.enabledKey, 'false');
        const before = await userCount();
        const res = await p.signIn(s.client(), p.code(p.newExternalId()));
        expect(res.body).toEqual({ success: false, message: p.disabledMessage });
        const { client } = await member();
        const bind = await p.bind(client, p.code(p.newExternalId()));
        expect(bind.body).toEqual({ success: false, message: p.disabledMessage });
        expect(await userCount()).toBe(before + 1);
      });

      it('refuses the identity of a deleted account', async () => {
        const { id, externalId } = await signUp(p);
        await s.app.ctx.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', id).execute();
        const before = await userCount();
        const res = await p.signIn(s.client(), p.code(externalId));
        expect(res.body).toEqual({ success: false, message: '用户已注销' });
        expect(await userCount()).toBe(before);
      });

      it('refuses a banned account without starting a session', async () => {
        const { id, externalId } = await signUp(p);
        await s.app.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', id).execute();
        const c = s.client();
        const res = await p.signIn(c, p.code(externalId));
        expect(res.body).toEqual({ success: false, message: '用户已被封禁' });
        c.userId = id;
        expect((await c.get('/api/user/self')).status).toBe(401);
      });

      it('refuses a new identity while registration is closed', async () => {
        await setOption('RegisterEnabled', 'false');
        const before = await userCount();
        const res = await p.signIn(s.client(), p.code(p.newExternalId()));
        expect(res.body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
        expect(await userCount()).toBe(before);
      });
    });
  }

  describe('state check', () => {
    for (const name of ['github', 'oidc', 'linuxdo']) {
      it(`${name}: refuses a missing or foreign state with 403`, async () => {
        const refused = { success: false, message: 'state is empty or not same' };
        const c = s.client();
        const code = cases.find((p) => p.name === name)!.code(`x${++seq}`);
        expect(await c.get(`/api/oauth/${name}?code=${code}`)).toMatchObject({ status: 403, body: refused });
        await state(c);
        const other = await state(s.client());
        expect(await c.get(`/api/oauth/${name}?code=${code}&state=${other}`)).toMatchObject({ status: 403, body: refused });
        expect(await c.get(`/api/oauth/${name}?code=${code}&state=`)).toMatchObject({ status: 403, body: refused });
      });
    }

    it('linuxdo: reports the provider error parameter before anything else', async () => {
      const res = await s.client().get(`/api/oauth/linuxdo?${query({ error: 'access_denied', error_description: 'The resource owner denied the request.' })}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: false, message: 'The resource owner denied the request.' });
    });

    it('refuses an empty code', async () => {
      const c = s.client();
      const res = await c.get(`/api/oauth/github?state=${await state(c)}`);
      expect(res.body).toEqual({ success: false, message: '无效的参数' });
    });
  });

  describe('provider failures', () => {
    const github = () => cases[0]!;
    const oidc = () => cases[1]!;
    const linuxdo = () => cases[2]!;
    const wechat = () => cases[3]!;

    /** Runs a sign-in that must fail with `message` and create nothing. */
    async function expectFailure(p: ProviderCase, code: string, message: string): Promise<void> {
      const before = await userCount();
      const res = await p.signIn(s.client(), code);
      expect(res.body).toEqual({ success: false, message });
      expect(await userCount()).toBe(before);
    }

    /** Points a base URL at a closed port for the duration of `body`. */
    async function withConnectionRefused(set: (url: string) => Promise<void> | void, restore: () => Promise<void> | void, body: () => Promise<void>) {
      await set(await deadUrl());
      try {
        await body();
      } finally {
        await restore();
      }
    }

    it('github: a refused code, a failing /user and no connection', async () => {
      const msg = '返回值非法，用户字段为空，请稍后重试！';
      await expectFailure(github(), 'not-a-code', msg);
      fakes.github.failProfile = true;
      try {
        await expectFailure(github(), github().code('octo-down'), msg);
      } finally {
        fakes.github.failProfile = false;
      }
      const config = s.app.ctx.config;
      const saved = config.githubOAuthUrl;
      await withConnectionRefused(
        (url) => void (config.githubOAuthUrl = url),
        () => void (config.githubOAuthUrl = saved),
        () => expectFailure(github(), github().code('octo-offline'), '无法连接至 GitHub 服务器，请稍后重试！'),
      );
      const savedApi = config.githubApiUrl;
      await withConnectionRefused(
        (url) => void (config.githubApiUrl = url),
        () => void (config.githubApiUrl = savedApi),
        () => expectFailure(github(), github().code('octo-offline2'), '无法连接至 GitHub 服务器，请稍后重试！'),
      );
    });

    it('github: sends the client credentials and a User-Agent', async () => {
      await signUp(github());
      const exchange = fakes.github.requests.filter((r) => r.path === '/login/oauth/access_token').at(-1)!;
      expect(JSON.parse(exchange.body)).toMatchObject({ client_id: 'gh-client-id', client_secret: 'gh-client-secret' });
      expect(exchange.headers.accept).toBe('application/json');
      const profile = fakes.github.requests.filter((r) => r.path === '/user').at(-1)!;
      expect(profile.headers.authorization).toMatch(/^Bearer gho_/);
    });

    it('oidc: a refused code, a failing or empty userinfo and no connection', async () => {
      await expectFailure(oidc(), 'not-a-code', 'OIDC 获取 Token 失败，请检查设置！');
      // A code issued for another redirect_uri is refused by the provider.
      await expectFailure(oidc(), fakes.oidc.issueCode({ sub: 'x', email: 'x@e.com' }, 'https://elsewhere.example/oauth/oidc'), 'OIDC 获取 Token 失败，请检查设置！');
      fakes.oidc.failProfile = true;
      try {
        await expectFailure(oidc(), oidc().code('sub-down'), 'OIDC 获取用户信息失败！请检查设置！');
      } finally {
        fakes.oidc.failProfile = false;
      }
      const noEmail = fakes.oidc.issueCode({ sub: 'sub-no-email' }, `${SERVER_ADDRESS}/oauth/oidc`);
      await expectFailure(oidc(), noEmail, 'OIDC 获取用户信息为空！请检查设置！');
      await withConnectionRefused(
        (url) => setOption('oidc.token_endpoint', `${url}/oauth2/token`),
        () => setOption('oidc.token_endpoint', fakes.oidc.tokenEndpoint),
        () => expectFailure(oidc(), oidc().code('sub-offline'), '无法连接至 OIDC 服务器，请稍后重试！'),
      );
    });

    it('oidc: publishes a discovery document naming the endpoints the server uses', async () => {
      const res = await fetch(`${fakes.oidc.url}/.well-known/openid-configuration`);
      const doc = (await res.json()) as Record<string, string>;
      expect(doc.token_endpoint).toBe(s.app.ctx.options.get('oidc.token_endpoint'));
      expect(doc.userinfo_endpoint).toBe(s.app.ctx.options.get('oidc.user_info_endpoint'));
    });

    it('oidc: uses preferred_username when it fits and is free', async () => {
      const name = `pu${++seq}`;
      const first = await oidc().signIn(s.client(), fakes.oidc.issueCode({ sub: `s-${name}`, email: 'a@e.com', preferred_username: name }, `${SERVER_ADDRESS}/oauth/oidc`));
      expect(first.body.data.username).toBe(name);
      const clash = await oidc().signIn(s.client(), fakes.oidc.issueCode({ sub: `s2-${name}`, email: 'b@e.com', preferred_username: name }, `${SERVER_ADDRESS}/oauth/oidc`));
      expect(clash.body.data.username).toMatch(/^oidc_\d+$/);
      const long = await oidc().signIn(s.client(), fakes.oidc.issueCode({ sub: `s3-${name}`, email: 'c@e.com', preferred_username: 'a-very-long-preferred-name' }, `${SERVER_ADDRESS}/oauth/oidc`));
      expect(long.body.data.username).toMatch(/^oidc_\d+$/);
    });

    it('linuxdo: a refused code, a failing /api/user and no connection', async () => {
      await expectFailure(linuxdo(), 'not-a-code', 'failed to get access token: The provided authorization grant is invalid, expired, revoked, or was issued to another client.');
      fakes.linuxdo.failProfile = true;
      try {
        await expectFailure(linuxdo(), linuxdo().code('79999'), 'invalid user info returned');
      } finally {
        fakes.linuxdo.failProfile = false;
      }
      const config = s.app.ctx.config;
      const saved = config.linuxdoUrl;
      await withConnectionRefused(
        (url) => void (config.linuxdoUrl = url),
        () => void (config.linuxdoUrl = saved),
        () => expectFailure(linuxdo(), linuxdo().code('79998'), 'failed to connect to Linux DO server'),
      );
      const exchange = fakes.linuxdo.requests.filter((r) => r.path === '/oauth2/token').at(-1)!;
      expect(exchange.headers.authorization).toBe(`Basic ${Buffer.from('ld-client-id:ld-client-secret').toString('base64')}`);
    });

    it('wechat: a refused code, a wrong server token and no connection', async () => {
      await expectFailure(wechat(), 'unknown-code', '验证码错误或已过期');
      await setOption('WeChatServerToken', 'wrong-token');
      try {
        await expectFailure(wechat(), wechat().code('oWxTok'), '无权进行此操作，token 无效');
      } finally {
        await setOption('WeChatServerToken', fakes.wechat.serverToken);
      }
      await withConnectionRefused(
        (url) => setOption('WeChatServerAddress', url),
        () => setOption('WeChatServerAddress', fakes.wechat.url),
        () => expectFailure(wechat(), wechat().code('oWxOff'), '无法连接至微信服务器，请稍后重试！'),
      );
    });

    it('never returns the client secret or the provider token', async () => {
      const c = s.client();
      const res = await github().signIn(c, github().code(`octo-${++seq}`));
      const text = JSON.stringify(res.body) + JSON.stringify((await c.get('/api/user/self')).body);
      expect(text).not.toContain('gh-client-secret');
      expect(text).not.toContain('gho_');
    });
  });

  describe('generated usernames', () => {
    it('skips a name already used by another account', async () => {
      const row = await s.app.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.max<number>('id').as('max'))
        .executeTakeFirstOrThrow();
      const max = Number(row.max);
      // The next account gets id max+1 but squats the name the sign-up would pick next.
      const squatter = await createAccount(s.app.ctx, { username: `github_${max + 2}`, password: PASSWORD });
      await s.app.ctx.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', squatter).execute();
      const res = await cases[0]!.signIn(s.client(), cases[0]!.code(`octo-${++seq}`));
      expect(res.body.success).toBe(true);
      expect(res.body.data.username).toBe(`github_${max + 3}`);
    });
  });

  describe('invitations', () => {
    afterEach(async () => {
      await setOption('QuotaForInviter', '0');
      await setOption('QuotaForInvitee', '0');
    });

    for (const p of ['github', 'oidc'] as const) {
      it(`${p}: an aff code from the state call credits the inviter`, async () => {
        await setOption('QuotaForInviter', '1000');
        await setOption('QuotaForInvitee', '300');
        const inviter = await member();
        const { aff_code: affCode } = await userById(inviter.id);
        const provider = cases.find((c) => c.name === p)!;
        const c = s.client();
        await state(c, affCode!);
        const externalId = provider.newExternalId();
        const res = await c.get(`/api/oauth/${p}?${query({ code: provider.code(externalId), state: await state(c) })}`);
        expect(res.body.success, res.body.message).toBe(true);
        const invitee = await userById(res.body.data.id);
        expect(invitee.inviter_id).toBe(inviter.id);
        expect(Number(invitee.quota)).toBe(300);
        const after = await userById(inviter.id);
        expect(after.aff_count).toBe(1);
        expect(Number(after.aff_quota)).toBe(1000);
        expect(Number(after.aff_history)).toBe(1000);
      });
    }

    it('ignores an unknown aff code', async () => {
      await setOption('QuotaForInviter', '1000');
      const c = s.client();
      const res = await c.get(`/api/oauth/github?${query({ code: cases[0]!.code(`octo-${++seq}`), state: await state(c, 'zzzzzz') })}`);
      expect(res.body.success).toBe(true);
      expect((await userById(res.body.data.id)).inviter_id).toBe(0);
    });
  });

  describe('telegram', () => {
    const now = () => String(Math.floor(Date.now() / 1000));
    const fields = (id: string, extra: Record<string, string> = {}) => ({ id, first_name: 'Ann', username: `ann${id}`, auth_date: now(), ...extra });
    const login = (c: ApiClient, params: Record<string, string>) => c.get(`/api/oauth/telegram/login?${query(params)}`);
    const bind = (c: ApiClient, params: Record<string, string>) => c.get(`/api/oauth/telegram/bind?${query(params)}`);

    afterEach(async () => {
      await setOption('TelegramOAuthEnabled', 'true');
    });

    /** A member with a bound Telegram id. */
    async function boundMember(): Promise<{ id: number; telegramId: string }> {
      const { id, client } = await member();
      const telegramId = String(900000 + ++seq);
      const res = await bind(client, signTelegram(fields(telegramId)));
      expect(res.status).toBe(302);
      return { id, telegramId };
    }

    it('binds with a redirect to /setting, then signs in with a good hash', async () => {
      const { id, client } = await member();
      const telegramId = String(900000 + ++seq);
      const res = await bind(client, signTelegram(fields(telegramId, { photo_url: 'https://t.me/i/userpic/320/ann.jpg' })));
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/setting');
      expect((await userById(id)).telegram_id).toBe(telegramId);

      const c = s.client();
      const signed = await login(c, signTelegram(fields(telegramId, { lang: 'en' })));
      expect(signed.body.success, signed.body.message).toBe(true);
      expect(signed.body.data).toMatchObject({ id, role: 1, status: 1 });
      c.userId = id;
      expect((await c.get('/api/user/self')).body.data.telegram_id).toBe(telegramId);
    });

    it('refuses a bad hash, a wrong bot token and stale data', async () => {
      const { telegramId } = await boundMember();
      const good = signTelegram(fields(telegramId));
      const invalid = { success: false, message: '无效的请求' };
      expect((await login(s.client(), { ...good, first_name: 'Eve' })).body).toEqual(invalid);
      expect((await login(s.client(), { ...good, hash: '0'.repeat(64) })).body).toEqual(invalid);
      expect((await login(s.client(), signTelegram(fields(telegramId), 'another:token'))).body).toEqual(invalid);
      const { hash: _omit, ...unsigned } = good;
      expect((await login(s.client(), unsigned)).body).toEqual(invalid);
      const stale = String(Math.floor(Date.now() / 1000) - 25 * 3600);
      expect((await login(s.client(), signTelegram(fields(telegramId, { auth_date: stale })))).body).toEqual(invalid);
    });

    it('refuses an unbound Telegram account and never creates one', async () => {
      const before = await userCount();
      const res = await login(s.client(), signTelegram(fields(String(800000 + ++seq))));
      expect(res.body).toEqual({ success: false, message: '该 Telegram 账户未绑定' });
      expect(await userCount()).toBe(before);
    });

    it('refuses banned and deleted owners', async () => {
      const banned = await boundMember();
      await s.app.ctx.db.updateTable('users').set({ status: 2 }).where('id', '=', banned.id).execute();
      expect((await login(s.client(), signTelegram(fields(banned.telegramId)))).body).toEqual({ success: false, message: '用户已被封禁' });
      const deleted = await boundMember();
      await s.app.ctx.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted.id).execute();
      expect((await login(s.client(), signTelegram(fields(deleted.telegramId)))).body).toEqual({ success: false, message: '该 Telegram 账户未绑定' });
    });

    it('refuses to bind an id that is bound already, or without a session', async () => {
      const { telegramId } = await boundMember();
      const { id, client } = await member();
      const res = await bind(client, signTelegram(fields(telegramId)));
      expect(res.body).toEqual({ success: false, message: '该 Telegram 账户已被绑定' });
      expect((await userById(id)).telegram_id).toBe('');
      const anonymous = await bind(s.client(), signTelegram(fields(String(800000 + ++seq))));
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.success).toBe(false);
    });

    it('refuses while Telegram sign-in is switched off', async () => {
      const { telegramId } = await boundMember();
      await setOption('TelegramOAuthEnabled', 'false');
      expect((await login(s.client(), signTelegram(fields(telegramId)))).body).toEqual({ success: false, message: '管理员未开启通过 Telegram 登录以及注册' });
    });
  });
});

describe('oauth rate limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0]!, { env: { CRITICAL_RATE_LIMIT_ENABLE: 'true', CRITICAL_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shares the critical bucket across the oauth routes', async () => {
    const c = s.client();
    expect((await c.get('/api/oauth/state')).status).toBe(200);
    expect((await c.get('/api/oauth/github?code=x&state=y')).status).toBe(403);
    expect((await c.get('/api/oauth/telegram/login?id=1')).status).toBe(200);
    expect((await c.get('/api/oauth/wechat?code=x')).status).toBe(429);
    expect((await c.get('/api/oauth/state')).status).toBe(429);
  });
});
