/**
 * Every refusal of token authentication and of the distributor, in the reference's words and
 * statuses; quota refusals at reservation; the cache following token and user changes at
 * once; the admin's forced channel; the playground's session rules.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createUser } from '../helpers/users';
import { deleteToken, setTokenStatus, updateToken } from '../../src/server/services/tokens/token.service';
import { manageUser } from '../../src/server/services/users/user-admin.service';
import { setOption, startBench, type Bench } from './harness';
import { balances, seedChannel, seedToken, seedUser, type SeededToken } from './seed';

const MODEL = 'gpt-4o-mini';

describeEachDialect('relay token auth and distributor', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  let channelId: number;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect);
    channelId = await seedChannel(b.s, { type: 1, base_url: fake.url, models: `${MODEL},gpt-4o` });
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: MODEL, group: 'vip' });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  async function chat(apiKey: string | undefined, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await fetch(`${b.s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    const json = (await res.json()) as { error?: { message: string; type: string; code: unknown }; choices?: unknown[] };
    return { status: res.status, message: json.error?.message.replace(/ \(request id: [^)]+\)$/, ''), json };
  }

  it('refuses a missing or unknown key', async () => {
    expect(await chat(undefined)).toMatchObject({ status: 401, message: '未提供令牌' });
    expect(await chat('sk-' + 'z'.repeat(48))).toMatchObject({ status: 401, message: '无效的令牌' });
    const r = await chat(undefined);
    expect(r.json.error).toMatchObject({ type: 'new_api_error' });
  });

  it('refuses tokens by status, expiry and exhausted quota', async () => {
    const exhausted = await seedToken(b.s, b.user.id, { status: 4 });
    expect(await chat(exhausted.apiKey)).toMatchObject({
      status: 401,
      message: `该令牌额度已用尽 TokenStatusExhausted[sk-${exhausted.key.slice(0, 3)}***${exhausted.key.slice(-3)}]`,
    });
    expect(await chat((await seedToken(b.s, b.user.id, { status: 3 })).apiKey)).toMatchObject({ status: 401, message: '该令牌已过期' });
    expect(await chat((await seedToken(b.s, b.user.id, { status: 2 })).apiKey)).toMatchObject({ status: 401, message: '该令牌状态不可用' });
    const old = await seedToken(b.s, b.user.id, { expired_time: Math.floor(Date.now() / 1000) - 10 });
    expect(await chat(old.apiKey)).toMatchObject({ status: 401, message: '该令牌已过期' });
    const empty = await seedToken(b.s, b.user.id, { unlimited_quota: false, remain_quota: 0 });
    expect(await chat(empty.apiKey)).toMatchObject({
      status: 401,
      message: `[sk-${empty.key.slice(0, 3)}***${empty.key.slice(-3)}] 该令牌额度已用尽 !token.UnlimitedQuota && token.RemainQuota = 0`,
    });
    // The due statuses are written back to the rows.
    await expect.poll(async () => (await b.s.app.ctx.db.selectFrom('tokens').select('status').where('id', '=', old.id).executeTakeFirstOrThrow()).status).toBe(3);
    await expect.poll(async () => (await b.s.app.ctx.db.selectFrom('tokens').select('status').where('id', '=', empty.id).executeTakeFirstOrThrow()).status).toBe(4);
  });

  it('refuses a banned owner and a common user naming a channel', async () => {
    const banned = await seedUser(b.s, 1000, { status: 2 });
    expect(await chat((await seedToken(b.s, banned.id)).apiKey)).toMatchObject({ status: 403, message: '用户已被封禁' });
    expect(await chat(`${b.token.apiKey}-${channelId}`)).toMatchObject({ status: 403, message: '普通用户不支持指定渠道' });
  });

  it('lets an admin force a channel, refusing bad or disabled ones', async () => {
    const admin = await seedUser(b.s, 1_000_000, { role: 10 });
    const token = await seedToken(b.s, admin.id);
    fake.script({ text: 'forced' });
    const ok = await chat(`${token.apiKey}-${channelId}`, { model: 'gpt-4o' });
    expect(ok.status).toBe(200);
    expect(await chat(`${token.apiKey}-abc`)).toMatchObject({ status: 400, message: '无效的渠道 Id' });
    expect(await chat(`${token.apiKey}-999999`)).toMatchObject({ status: 400, message: '无效的渠道 Id' });
    const off = await seedChannel(b.s, { type: 1, base_url: fake.url, models: MODEL, name: 'off' });
    await b.s.app.ctx.db.updateTable('channels').set({ status: 2 }).where('id', '=', off).execute();
    await b.relay.channels.refresh();
    expect(await chat(`${token.apiKey}-${off}`)).toMatchObject({ status: 403, message: '该渠道已被禁用' });
  });

  it('checks the IP allow-list with addresses and CIDR ranges', async () => {
    expect(await chat((await seedToken(b.s, b.user.id, { allow_ips: '10.0.0.0/8\n192.168.1.7' })).apiKey)).toMatchObject({
      status: 403,
      message: '您的 IP 不在令牌允许访问的列表中',
    });
    fake.script({ text: 'ok' });
    expect((await chat((await seedToken(b.s, b.user.id, { allow_ips: '10.0.0.1\n127.0.0.0/8' })).apiKey)).status).toBe(200);
  });

  it('checks the token group, model limits and channel availability', async () => {
    expect(await chat((await seedToken(b.s, b.user.id, { group: 'secret' })).apiKey)).toMatchObject({ status: 403, message: '令牌分组 secret 已被禁用' });
    await setOption(b, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组', legacy: '旧分组' }));
    expect(await chat((await seedToken(b.s, b.user.id, { group: 'legacy' })).apiKey)).toMatchObject({ status: 403, message: '分组 legacy 已被弃用' });
    fake.script({ text: 'vip' });
    expect((await chat((await seedToken(b.s, b.user.id, { group: 'vip' })).apiKey)).status).toBe(200);
    const limited = await seedToken(b.s, b.user.id, { model_limits_enabled: true, model_limits: 'gpt-4o' });
    expect(await chat(limited.apiKey)).toMatchObject({ status: 403, message: `该令牌无权访问模型 ${MODEL}` });
    expect(await chat((await seedToken(b.s, b.user.id, { model_limits_enabled: true, model_limits: '' })).apiKey)).toMatchObject({
      status: 403,
      message: '该令牌无权访问任何模型',
    });
    const models = await fetch(`${b.s.url}/v1/models`, { headers: { authorization: `Bearer ${limited.apiKey}` } });
    expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['gpt-4o']);
    expect(await chat(b.token.apiKey, { model: 'gpt-4' })).toMatchObject({ status: 503, message: '当前分组 default 下对于模型 gpt-4 无可用渠道' });
  });

  it('refuses at reservation when the user or the token cannot pay the estimate', async () => {
    const poor = await seedUser(b.s, 0);
    expect(await chat((await seedToken(b.s, poor.id)).apiKey)).toMatchObject({ status: 403, message: 'user quota is not enough' });
    const little = await seedUser(b.s, 5);
    // 500 tokens × 0.075 = 37 reserved
    expect(await chat((await seedToken(b.s, little.id)).apiKey)).toMatchObject({ status: 403, message: 'chat pre-consumed quota failed, user quota: ＄0.000010, need quota: ＄0.000074' });
    const rich = await seedUser(b.s, 1_000_000);
    const token = await seedToken(b.s, rich.id, { unlimited_quota: false, remain_quota: 10 });
    expect(await chat(token.apiKey)).toMatchObject({ status: 403, message: 'token quota is not enough, token remain quota: ＄0.000020, need quota: ＄0.000074' });
    const after = await balances(b.s, rich.id, token.id);
    expect(after).toMatchObject({ quota: 1_000_000, tokenRemain: 10, openCount: 0 });
  });

  it('answers Claude-shaped errors on /v1/messages and reads x-api-key there', async () => {
    const res = await fetch(`${b.s.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-nope' }, body: '{}' });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('new_api_error');
    expect(body.error.message).toMatch(/^无效的令牌 \(request id: /);
    const missing = await fetch(`${b.s.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': b.token.apiKey },
      body: JSON.stringify({ model: MODEL, messages: [] }),
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/^field messages is required/);
  });

  it('follows token and user changes at once (cache invalidated by change events)', async () => {
    const owner = await seedUser(b.s, 1_000_000);
    const token: SeededToken = await seedToken(b.s, owner.id);
    fake.script({ text: 'warm' });
    expect((await chat(token.apiKey)).status).toBe(200);
    await setTokenStatus(b.s.app.ctx, { id: owner.id, group: 'default' }, token.id, 2);
    expect(await chat(token.apiKey)).toMatchObject({ status: 401, message: '该令牌状态不可用' });
    await setTokenStatus(b.s.app.ctx, { id: owner.id, group: 'default' }, token.id, 1);
    await updateToken(b.s.app.ctx, { id: owner.id, group: 'default' }, token.id, { model_limits_enabled: true, model_limits: 'gpt-4o' });
    expect(await chat(token.apiKey)).toMatchObject({ status: 403, message: `该令牌无权访问模型 ${MODEL}` });
    await deleteToken(b.s.app.ctx, { id: owner.id, group: 'default' }, token.id);
    expect(await chat(token.apiKey)).toMatchObject({ status: 401, message: '无效的令牌' });

    const other = await seedToken(b.s, owner.id);
    fake.script({ text: 'warm' });
    expect((await chat(other.apiKey)).status).toBe(200);
    await manageUser(b.s.app.ctx, { id: 1, role: 100 }, owner.id, 'disable');
    expect(await chat(other.apiKey)).toMatchObject({ status: 403, message: '用户已被封禁' });
  });

  it('serves the playground with the session, billing the user only', async () => {
    const player = await createUser(b.s, 'player1');
    await b.s.app.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('id', '=', player.id).execute();
    fake.script({ text: 'playground answer', usage: { prompt: 10, completion: 10 } });
    const res = await player.client.post('/pg/chat/completions', { model: MODEL, group: 'default', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('playground answer');
    expect(JSON.parse(fake.requests.at(-1)!.body).group).toBeUndefined();
    await b.flush();
    const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', player.id).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ token_name: 'playground-default', token_id: 0, quota: 4 });
    const user = await b.s.app.ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', player.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ quota: 1_000_000 - 4, used_quota: 4 });

    expect((await player.client.post('/pg/chat/completions', { model: '', messages: [] })).body.error.message).toMatch(/^请选择模型/);
    const denied = await player.client.post('/pg/chat/completions', { model: MODEL, group: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/^无权访问该分组/);
    const anonymous = await b.s.client().post('/pg/chat/completions', { model: MODEL, messages: [] }, { authorization: 'Bearer sometoken' });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error.message).toMatch(/^暂不支持使用 access token/);
  });
});
