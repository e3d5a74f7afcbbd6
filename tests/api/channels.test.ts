import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBool } from '../../src/server/db/tables';
import { CHANGES_REDIS_CHANNEL } from '../../src/server/plumbing/change-events';
import { onChannelsChanged, type ChannelsChange } from '../../src/server/services/channels/channel.service';
import { createAccount } from '../../src/server/services/users/user.service';
import { CHANNEL_TYPES } from '../../src/shared/channel-types';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { DIALECTS, describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';

const FORBIDDEN = '无权进行此操作，权限不足';

/** A channel body with the channel defaults and a unique name. */
function channelBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `ch-${Math.random().toString(36).slice(2, 10)}`, type: 1, key: 'sk-test-key', models: 'gpt-4o,gpt-4o-mini', group: 'default', ...overrides };
}

function names(list: string | null): string[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

describeEachDialect('channels', (dialect) => {
  let s: TestServer;
  let root: ApiClient;
  let user: ApiClient;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    await createAccount(s.app.ctx, { username: 'chanuser', password: 'chanuser-pw-1' });
    user = await s.login('chanuser', 'chanuser-pw-1');
    fake = await startFakeOpenAI({ keys: ['sk-fake-good'], models: ['gpt-4o', 'fake-model-1'] });
  });
  afterAll(async () => {
    await fake?.close();
    await s?.close();
  });

  async function create(overrides: Record<string, unknown> = {}): Promise<number[]> {
    const res = await root.post('/api/channel/', channelBody(overrides));
    expect(res.body).toMatchObject({ success: true });
    return res.body.data.ids as number[];
  }

  async function abilitiesOf(id: number) {
    const rows = await s.app.ctx.db.selectFrom('abilities').selectAll().where('channel_id', '=', id).execute();
    return rows.map((r) => ({ ...r, enabled: asBool(r.enabled), priority: Number(r.priority), weight: Number(r.weight) }));
  }

  async function channelRow(id: number) {
    return s.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The whole abilities table equals the cross products the channels imply. */
  async function expectIndexInStep(): Promise<void> {
    const channels = await s.app.ctx.db.selectFrom('channels').selectAll().execute();
    const expected = channels
      .flatMap((c) => names(c.group).flatMap((group) => names(c.models).map((model) => JSON.stringify([group, model, c.id, c.status === 1, Number(c.priority), Number(c.weight), c.tag || null]))))
      .sort();
    const actual = (await s.app.ctx.db.selectFrom('abilities').selectAll().execute())
      .map((a) => JSON.stringify([a.group, a.model, a.channel_id, asBool(a.enabled), Number(a.priority), Number(a.weight), a.tag || null]))
      .sort();
    expect(actual).toEqual(expected);
  }

  async function countChannels(): Promise<number> {
    const row = await s.app.ctx.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('creates a channel with abilities for every group × model, strips the base URL slash, never returns the key', async () => {
    const [id] = await create({ name: 'single-one', models: 'gpt-4o, gpt-4o-mini,gpt-4o', group: 'default,vip', base_url: 'https://up.example.com/', priority: 5, weight: 3 });
    const abilities = await abilitiesOf(id!);
    expect(abilities.map((a) => `${a.group}/${a.model}`).sort()).toEqual(['default/gpt-4o', 'default/gpt-4o-mini', 'vip/gpt-4o', 'vip/gpt-4o-mini']);
    expect(abilities.every((a) => a.enabled && a.priority === 5 && a.weight === 3 && a.tag === null)).toBe(true);

    const got = await root.get(`/api/channel/${id}`);
    expect(got.body.success).toBe(true);
    expect(got.body.data).toMatchObject({ id, name: 'single-one', base_url: 'https://up.example.com', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', status: 1, auto_ban: 1 });
    expect(got.body.data).not.toHaveProperty('key');
    expect(JSON.stringify(got.body)).not.toContain('sk-test-key');
    expect((await channelRow(id!))!.key).toBe('sk-test-key');
    expect((await root.get('/api/channel/abc')).status).toBe(400);
    expect((await root.get('/api/channel/0')).body).toEqual({ success: false, message: 'id 为空！' });
    expect((await root.get('/api/channel/987654')).body).toEqual({ success: false, message: 'record not found' });
  });

  it('creates one channel per key line, each with its own abilities', async () => {
    const ids = await create({ name: 'batch-keys', key: 'sk-a\nsk-b\n\n  sk-c  \n', models: 'm-1,m-2', group: 'default,vip,svip' });
    expect(ids).toHaveLength(3);
    const keys = await Promise.all(ids.map(async (id) => (await channelRow(id))!.key));
    expect(keys).toEqual(['sk-a', 'sk-b', 'sk-c']);
    for (const id of ids) expect(await abilitiesOf(id)).toHaveLength(6);
  });

  it('copies a channel from its row (with id, without key), keeping the source key on the server', async () => {
    const [source] = await create({ name: 'copy-src', key: 'sk-copy-secret', models: 'cp-1', tag: 'cp-tag' });
    const row = (await root.get(`/api/channel/${source}`)).body.data;
    const res = await root.post('/api/channel/', { ...row, name: 'copy-src 副本' });
    expect(res.body.success).toBe(true);
    const [copy] = res.body.data.ids;
    expect(copy).not.toBe(source);
    expect(await channelRow(copy)).toMatchObject({ name: 'copy-src 副本', key: 'sk-copy-secret', models: 'cp-1', tag: 'cp-tag' });
    expect(await abilitiesOf(copy)).toHaveLength(1);
    expect((await root.post('/api/channel/', { ...row, id: 987654 })).body).toEqual({ success: false, message: '请填写渠道名称和渠道密钥！' });
  });

  it('defaults Xunfei (18) other to v2.1 and applies the channel defaults', async () => {
    const res = await root.post('/api/channel/', { name: 'spark', key: 'a|b|c', models: 'SparkDesk', type: 18 });
    const channel = (await root.get(`/api/channel/${res.body.data.ids[0]}`)).body.data;
    expect(channel).toMatchObject({ type: 18, other: 'v2.1', group: 'default', priority: 0, weight: 0, auto_ban: 1, status: 1 });
  });

  it('refuses bad channels with their messages and writes nothing', async () => {
    const before = await countChannels();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, '请填写渠道名称和渠道密钥！'],
      [{ key: '  ' }, '请填写渠道名称和渠道密钥！'],
      [{ models: ' , ' }, '请至少选择一个模型！'],
      [{ model_mapping: '{not json' }, '模型映射必须是合法的 JSON 格式！'],
      [{ model_mapping: '[1,2]' }, '模型映射必须是合法的 JSON 格式！'],
      [{ status_code_mapping: 'x' }, '状态码复写必须是合法的 JSON 格式！'],
      [{ setting: '{"a":' }, '渠道额外设置必须是合法的 JSON 格式！'],
      [{ param_override: 'nope' }, '参数覆盖必须是合法的 JSON 格式！'],
      [{ other_info: '{' }, '渠道状态信息必须是合法的 JSON 格式！'],
      [{ models: `ok,${'m'.repeat(256)}` }, `模型名称过长: ${'m'.repeat(256)}`],
      [{ type: 41, key: '{"type":"service_account"}', other: '' }, '部署地区不能为空'],
      [{ type: 41, key: '{"type":"service_account"}', other: '{"us":"x"}' }, '部署地区必须包含default字段'],
      // Keys the relay parses are checked on save with the relay's own parsers.
      [{ type: 41, key: '{"type":"service_account"}', other: 'us-central1' }, 'Vertex AI 渠道密钥必须是服务账号的 JSON 密钥（含 project_id、client_email 和 private_key）'],
      [{ type: 33, key: 'AKIAEXAMPLE|secret' }, 'AWS 渠道密钥格式错误，应为 AccessKey|SecretAccessKey|Region（或 ApiKey|Region）'],
      [{ type: 33, key: 'AKIAEXAMPLE|secret|us-east-1\nnot-a-key' }, 'AWS 渠道密钥格式错误，应为 AccessKey|SecretAccessKey|Region（或 ApiKey|Region）'],
      [{ type: 16, key: 'no-dot-key' }, '智谱渠道密钥格式错误，应为 id.secret'],
      [{ type: 15, key: 'client|secret|extra' }, '百度渠道密钥格式错误，应为 APIKey|SecretKey 或 access token'],
      [{ type: 23, key: 'SecretId|SecretKey' }, '腾讯混元渠道密钥格式错误，应为 AppId|SecretId|SecretKey'],
      [{ type: 18, key: 'appid|secret' }, '讯飞渠道密钥格式错误，应为 APPID|APISecret|APIKey'],
    ];
    for (const [overrides, message] of cases) {
      const res = await root.post('/api/channel/', channelBody(overrides));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: false, message });
    }
    for (const overrides of [{ priority: -1000 }, { priority: 1.5 }, { weight: -1 }, { status: 7 }, { status: 7, unknown_field: 1 }, { models: ['a'] }]) {
      const res = await root.post('/api/channel/', channelBody(overrides));
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/^无效的参数/);
    }
    // A base URL that is not an http(s) address: the field's own message from its schema.
    const badUrl = 'Base URL 必须是以 http:// 或 https:// 开头的地址，中间不能有空格';
    for (const base_url of ['api.example.com', 'ftp://up.example.com', 'https://', 'https://up.example.com/v 1']) {
      const res = await root.post('/api/channel/', channelBody({ base_url }));
      expect({ base_url, status: res.status, body: res.body }).toEqual({ base_url, status: 400, body: { success: false, message: badUrl, errors: { base_url: badUrl } } });
    }
    expect(await countChannels()).toBe(before);
    await expectIndexInStep();
  });

  it('checks a new AWS key on update against the resulting type, and keeps the stored key when none is sent', async () => {
    const [id] = await create({ type: 33, key: 'AKIAONE|secret-one|us-east-1\nAKIATWO|secret-two|eu-west-1', models: 'claude-3-5-sonnet-20240620' }).then((ids) => {
      expect(ids).toHaveLength(2);
      return ids;
    });
    const refused = await root.put('/api/channel/', { id, key: 'AKIAONE|secret-one' });
    expect(refused.body).toEqual({ success: false, message: 'AWS 渠道密钥格式错误，应为 AccessKey|SecretAccessKey|Region（或 ApiKey|Region）' });
    expect((await channelRow(id))!.key).toBe('AKIAONE|secret-one|us-east-1');
    expect((await root.put('/api/channel/', { id, priority: 3 })).body.success).toBe(true);
    expect((await root.put('/api/channel/', { id, key: 'bedrock-api-key|ap-northeast-1' })).body.success).toBe(true);
    expect((await channelRow(id))!.key).toBe('bedrock-api-key|ap-northeast-1');
  });

  it('pages the list with {items,total,page,page_size}, orders by priority or id, and never returns keys', async () => {
    const ids: number[] = [];
    for (const priority of [3, 9, 1, 7, 5]) ids.push(...(await create({ name: `pager-${priority}`, priority, key: `sk-pager-${priority}` })));
    const all = await root.get('/api/channel/?p=0&page_size=100');
    expect(all.body.data).toMatchObject({ page: 0, page_size: 100, total: await countChannels() });
    expect(JSON.stringify(all.body)).not.toMatch(/sk-pager|sk-test-key|"key"/);

    const byPriority = await root.get('/api/channel/search?keyword=pager-&p=1&page_size=2');
    expect(byPriority.body.data).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(byPriority.body.data.items.map((c: { name: string }) => c.name)).toEqual(['pager-5', 'pager-3']);

    const byId = await root.get('/api/channel/search?keyword=pager-&id_sort=true&page_size=10');
    expect(byId.body.data.items.map((c: { id: number }) => c.id)).toEqual([...ids].sort((a, b) => b - a));

    const first = await root.get('/api/channel/?page_size=2');
    expect(first.body.data.items).toHaveLength(2);
    expect(first.body.data.page).toBe(0);
    const beyond = await root.get('/api/channel/?p=999&page_size=10');
    expect(beyond.body.data.items).toEqual([]);
  });

  it('answers tag mode with tag aggregates holding their children and untagged channels as plain rows', async () => {
    const tagged = [
      ...(await create({ name: 'tm-a', tag: 'tm-tag', models: 'x-1', group: 'default', priority: 2 })),
      ...(await create({ name: 'tm-b', tag: 'tm-tag', models: 'x-2', group: 'vip', priority: 2, status: 2 })),
    ];
    const [loose] = await create({ name: 'tm-loose', models: 'x-3' });
    const res = await root.get('/api/channel/search?keyword=tm-&tag_mode=true&page_size=10');
    expect(res.body.data.total).toBe(2);
    const items = res.body.data.items as any[];
    const aggregate = items.find((i) => i.is_tag);
    expect(aggregate).toMatchObject({ id: 'tag:tm-tag', tag: 'tm-tag', name: 'tm-tag', status: 1, priority: 2, channel_count: 2 });
    expect(names(aggregate.models).sort()).toEqual(['x-1', 'x-2']);
    expect(names(aggregate.group).sort()).toEqual(['default', 'vip']);
    expect(aggregate.children.map((c: { id: number }) => c.id).sort()).toEqual([...tagged].sort());
    expect(items.find((i) => !i.is_tag)).toMatchObject({ id: loose, name: 'tm-loose' });
    expect(JSON.stringify(res.body)).not.toContain('"key"');

    const paged = await root.get('/api/channel/search?keyword=tm-&tag_mode=true&page_size=1&p=1');
    expect(paged.body.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(paged.body.data.items).toHaveLength(1);
    const plainList = await root.get('/api/channel/?tag_mode=true&page_size=100');
    expect(plainList.body.data.items.filter((i: any) => i.tag === 'tm-tag')).toHaveLength(1);
  });

  it('searches by keyword, id, group and model, treating %, _ and quotes literally', async () => {
    const [pct] = await create({ name: 'lit%pct', models: 'search-model-a', group: 'search-grp' });
    const [und] = await create({ name: 'lit_und', models: 'search-model-b', group: 'default' });
    const [quote] = await create({ name: `lit'quote"`, models: 'search-model-b', group: 'vip' });
    await create({ name: 'litXpct', models: 'other-model' });
    const search = async (query: string) => (await root.get(`/api/channel/search?${query}&page_size=100`)).body.data.items.map((c: { id: number }) => c.id);

    expect(await search(`keyword=${encodeURIComponent('%')}`)).toEqual([pct]);
    expect(await search(`keyword=${encodeURIComponent('_')}`)).toEqual([und]);
    expect(await search(`keyword=${encodeURIComponent(`'quote"`)}`)).toEqual([quote]);
    expect(await search(`keyword=LIT${encodeURIComponent('%')}PCT`)).toEqual([pct]);
    expect(await search(`keyword=${pct}`)).toContain(pct);
    expect(await search('keyword=lit&group=search-grp')).toEqual([pct]);
    expect((await search('model=search-model-b')).sort()).toEqual([und, quote].sort());
    expect(await search('keyword=lit&model=search-model-b&group=default')).toEqual([und]);
    expect(await search('group=null&keyword=lit%25')).toEqual([pct]);
  });

  it('keeps a stored channel of the retired type 11 (PaLM2) readable and editable, but makes no new one', async () => {
    const [id] = await create({ name: 'old-palm', models: 'PaLM-2' });
    await s.app.ctx.db.updateTable('channels').set({ type: 11 }).where('id', '=', id!).execute();
    const one = await root.get(`/api/channel/${id}`);
    expect(one.body).toMatchObject({ success: true, data: { id, type: 11, name: 'old-palm' } });
    expect((await root.put('/api/channel/', { id, status: 2 })).body).toMatchObject({ success: true, data: { type: 11, status: 2 } });
    expect((await root.put('/api/channel/', { id, type: 24, key: 'gm-key' })).body).toMatchObject({ success: true, data: { type: 24 } });
    const refused = await root.post('/api/channel/', channelBody({ type: 11 }));
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(/^无效的参数/);
    await expectIndexInStep();
  });

  it('updates whole and partially, keeping abilities in step and the key unless a new one is sent', async () => {
    const [id] = await create({ name: 'upd', key: 'sk-upd', models: 'a-1,a-2', group: 'default' });
    const whole = await root.put('/api/channel/', { id, name: 'upd-2', key: '', models: 'b-1', groups: ['vip', 'svip'], tag: 'upd-tag', priority: 4, weight: 2, base_url: 'http://x.test//' });
    expect(whole.body.success).toBe(true);
    expect(whole.body.data).toMatchObject({ id, name: 'upd-2', models: 'b-1', group: 'vip,svip', tag: 'upd-tag', priority: 4, weight: 2, base_url: 'http://x.test' });
    expect(whole.body.data).not.toHaveProperty('key');
    expect((await channelRow(id!))!.key).toBe('sk-upd');
    expect((await abilitiesOf(id!)).map((a) => `${a.group}/${a.model}/${a.tag}/${a.priority}/${a.weight}`).sort()).toEqual(['svip/b-1/upd-tag/4/2', 'vip/b-1/upd-tag/4/2']);

    expect((await root.put('/api/channel/', { id, status: 2 })).body.data).toMatchObject({ status: 2, name: 'upd-2', models: 'b-1' });
    expect((await abilitiesOf(id!)).every((a) => !a.enabled)).toBe(true);
    expect(JSON.parse((await channelRow(id!))!.other_info).status_time).toBeGreaterThan(0);
    await root.put('/api/channel/', { id, priority: -999 });
    await root.put('/api/channel/', { id, weight: 0 });
    expect((await abilitiesOf(id!)).every((a) => a.priority === -999 && a.weight === 0 && !a.enabled)).toBe(true);
    await root.put('/api/channel/', { id, status: 1, key: 'sk-upd-new' });
    expect((await channelRow(id!))!.key).toBe('sk-upd-new');
    expect((await abilitiesOf(id!)).every((a) => a.enabled)).toBe(true);

    expect((await root.put('/api/channel/', { id, models: '' })).body).toEqual({ success: false, message: '请至少选择一个模型！' });
    expect((await root.put('/api/channel/', { id, model_mapping: 'bad' })).body).toEqual({ success: false, message: '模型映射必须是合法的 JSON 格式！' });
    expect((await root.put('/api/channel/', { id: 987654, status: 2 })).body).toEqual({ success: false, message: 'record not found' });
    expect((await root.put('/api/channel/', { status: 2 })).status).toBe(400);
    await expectIndexInStep();
  });

  it('deletes one channel, the disabled ones (answering the count) and a selection, with their abilities', async () => {
    const [one] = await create({ name: 'del-one' });
    expect((await root.delete(`/api/channel/${one}/`)).body).toEqual({ success: true, message: '' });
    expect(await channelRow(one!)).toBeUndefined();
    expect(await abilitiesOf(one!)).toEqual([]);
    expect((await root.delete(`/api/channel/${one}`)).body).toEqual({ success: false, message: 'record not found' });

    const disabled = [...(await create({ name: 'del-off', status: 2 })), ...(await create({ name: 'del-auto', status: 3 }))];
    const [kept] = await create({ name: 'del-kept' });
    const expectedCount = (await s.app.ctx.db.selectFrom('channels').select('id').where('status', 'in', [2, 3]).execute()).length;
    const res = await root.delete('/api/channel/disabled');
    expect(res.body).toMatchObject({ success: true, data: expectedCount });
    expect(expectedCount).toBeGreaterThanOrEqual(2);
    for (const id of disabled) expect(await abilitiesOf(id)).toEqual([]);
    expect(await channelRow(kept!)).toBeDefined();
    const orphans = await s.app.ctx.db.selectFrom('abilities').select('channel_id').where('channel_id', 'not in', s.app.ctx.db.selectFrom('channels').select('id')).execute();
    expect(orphans).toEqual([]);

    const selection = await create({ name: 'del-batch', key: 'k1\nk2\nk3' });
    expect((await root.post('/api/channel/batch', { ids: [] })).body).toEqual({ success: false, message: '请先选择要删除的通道！' });
    expect((await root.post('/api/channel/batch', {})).body).toEqual({ success: false, message: '请先选择要删除的通道！' });
    expect((await root.post('/api/channel/batch', { ids: [...selection.slice(0, 2), 999999] })).body).toMatchObject({ success: true, data: 2 });
    expect(await channelRow(selection[2]!)).toBeDefined();
    await expectIndexInStep();
  });

  it('sets a tag on a selection and refuses an empty tag', async () => {
    const ids = await create({ name: 'bt', key: 'k1\nk2', models: 'bt-1' });
    expect((await root.post('/api/channel/batch/tag', { ids, tag: '  ' })).body).toEqual({ success: false, message: '标签不能为空！' });
    expect((await root.post('/api/channel/batch/tag', { ids: [], tag: 'x' })).body).toEqual({ success: false, message: '参数错误' });
    expect((await root.post('/api/channel/batch/tag', { ids, tag: 'bt-tag' })).body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) {
      expect((await channelRow(id))!.tag).toBe('bt-tag');
      expect((await abilitiesOf(id)).every((a) => a.tag === 'bt-tag')).toBe(true);
    }
  });

  it('edits a tag: rename, models and groups, priority and weight, nothing changed, dissolve', async () => {
    const ids = await create({ name: 'te', key: 'k1\nk2', tag: 'te-tag', models: 'te-1', group: 'default' });
    // Nothing to change succeeds and writes nothing (the console warns 没有任何修改！ before sending).
    const untouched = await channelRow(ids[0]!);
    expect((await root.put('/api/channel/tag', { tag: 'te-tag' })).body).toEqual({ success: true, message: '', data: 2 });
    expect((await root.put('/api/channel/tag', { tag: 'te-tag', new_tag: null })).body).toEqual({ success: true, message: '', data: 2 });
    expect((await root.put('/api/channel/tag', { tag: 'te-tag', new_tag: 'te-tag', models: '', groups: [] })).body).toEqual({ success: true, message: '', data: 2 });
    expect(await channelRow(ids[0]!)).toEqual(untouched);
    expect((await root.put('/api/channel/tag', { tag: '', new_tag: 'x' })).body).toEqual({ success: false, message: 'tag不能为空' });
    expect((await root.put('/api/channel/tag', { tag: 'te-tag', model_mapping: '{' })).body).toEqual({ success: false, message: '模型映射必须是合法的 JSON 格式！' });

    const res = await root.put('/api/channel/tag', {
      tag: 'te-tag',
      new_tag: 'te-renamed',
      models: ['te-2', 'te-3'],
      groups: 'vip,svip',
      priority: 8,
      weight: 6,
      model_mapping: '{"te-2":"up-2"}',
    });
    expect(res.body).toMatchObject({ success: true, data: 2 });
    for (const id of ids) {
      expect(await channelRow(id)).toMatchObject({ tag: 'te-renamed', models: 'te-2,te-3', group: 'vip,svip', model_mapping: '{"te-2":"up-2"}' });
      const abilities = await abilitiesOf(id);
      expect(abilities.map((a) => `${a.group}/${a.model}`).sort()).toEqual(['svip/te-2', 'svip/te-3', 'vip/te-2', 'vip/te-3']);
      expect(abilities.every((a) => a.tag === 'te-renamed' && a.priority === 8 && a.weight === 6)).toBe(true);
    }
    expect((await root.put('/api/channel/tag', { tag: 'te-renamed', new_tag: '' })).body.success).toBe(true);
    for (const id of ids) {
      expect((await channelRow(id))!.tag ?? '').toBe('');
      // Absent priority and weight are left alone, never reset to a default.
      expect((await abilitiesOf(id)).every((a) => a.tag === null && a.priority === 8 && a.weight === 6)).toBe(true);
    }
    expect((await root.put('/api/channel/tag', { tag: 'te-renamed', priority: 1 })).body).toEqual({ success: false, message: 'record not found' });
    await expectIndexInStep();
  });

  it('enables and disables every channel of a tag', async () => {
    const ids = await create({ name: 'ts', key: 'k1\nk2\nk3', tag: 'ts-tag', models: 'ts-1' });
    expect((await root.post('/api/channel/tag/disabled', { tag: 'ts-tag' })).body).toMatchObject({ success: true });
    for (const id of ids) {
      expect((await channelRow(id))!.status).toBe(2);
      expect((await abilitiesOf(id)).every((a) => !a.enabled)).toBe(true);
    }
    expect((await root.post('/api/channel/tag/enabled', { tag: 'ts-tag' })).body).toMatchObject({ success: true });
    for (const id of ids) expect((await abilitiesOf(id)).every((a) => a.enabled)).toBe(true);
    expect((await root.post('/api/channel/tag/enabled', {})).body).toEqual({ success: false, message: '参数错误' });
  });

  it('fix rebuilds a deliberately broken abilities table', async () => {
    const [a] = await create({ name: 'fix-a', models: 'fix-1,fix-2', group: 'default,vip' });
    const [b] = await create({ name: 'fix-b', models: 'fix-3', status: 2 });
    const db = s.app.ctx.db;
    await db.deleteFrom('abilities').where('channel_id', '=', a!).where('model', '=', 'fix-1').execute();
    await db.updateTable('abilities').set({ enabled: true, priority: 77 }).where('channel_id', '=', b!).execute();
    await db.insertInto('abilities').values({ group: 'default', model: 'ghost', channel_id: 987650, enabled: true, priority: 0, weight: 0, tag: null }).execute();
    const res = await root.post('/api/channel/fix');
    expect(res.body.success).toBe(true);
    expect(res.body.data).toBe(await countChannels());
    await expectIndexInStep();
  });

  it('serves the model catalogue, the enabled models and the default models per type', async () => {
    const catalogue = await root.get('/api/channel/models');
    const gpt = catalogue.body.data.find((m: { id: string }) => m.id === 'gpt-4o');
    expect(gpt).toEqual({ id: 'gpt-4o', object: 'model', created: 1626777600, owned_by: 'openai' });
    expect(catalogue.body.data.find((m: { id: string }) => m.id === 'deepseek-chat').owned_by).toBe('deepseek');

    await create({ name: 'me-on', models: 'enabled-only-1' });
    await create({ name: 'me-off', models: 'disabled-only-1', status: 2 });
    const enabled = (await root.get('/api/channel/models_enabled')).body.data as string[];
    expect(enabled).toContain('enabled-only-1');
    expect(enabled).not.toContain('disabled-only-1');
    expect(new Set(enabled).size).toBe(enabled.length);

    const byType = await user.get('/api/models');
    expect(byType.body.success).toBe(true);
    expect(
      Object.keys(byType.body.data)
        .map(Number)
        .sort((x, y) => x - y),
    ).toEqual(CHANNEL_TYPES.map((t) => t.id));
    expect(byType.body.data['14']).toContain('claude-3-5-sonnet-20241022');
    expect((await s.client().get('/api/models')).status).toBe(401);
  });

  it('fetches upstream models by channel id and by base URL, type and key', async () => {
    const [good] = await create({ name: 'fm-good', base_url: fake.url, key: 'sk-fake-good' });
    const [bad] = await create({ name: 'fm-bad', base_url: fake.url, key: 'sk-wrong' });
    expect((await root.get(`/api/channel/fetch_models/${good}`)).body).toEqual({ success: true, message: '', data: ['gpt-4o', 'fake-model-1'] });
    expect((await root.get(`/api/channel/fetch_models/${bad}`)).body).toEqual({ success: false, message: 'status code: 401' });
    expect(fake.requests.at(-1)!.bearer).toBe('sk-wrong');

    const post = (body: Record<string, unknown>) => root.post('/api/channel/fetch_models', body);
    expect((await post({ base_url: `${fake.url}/`, type: 1, key: ' sk-fake-good\nsk-other ' })).body.data).toEqual(['gpt-4o', 'fake-model-1']);
    expect((await post({ base_url: fake.url, type: 24, key: 'sk-fake-good' })).body.data).toEqual(['gpt-4o', 'fake-model-1']);
    expect(fake.requests.at(-1)!.path).toBe('/v1beta/openai/models');
    expect((await post({ base_url: fake.url, type: 1, key: '  ' })).body).toEqual({ success: false, message: '请填写密钥' });
    expect((await post({ base_url: fake.url, type: 1, key: 'sk-nope' })).body).toEqual({ success: false, message: 'status code: 401' });

    fake.route('GET', '/broken/v1/models', () => ({ body: '<html>oops' }));
    const broken = await post({ base_url: `${fake.url}/broken`, type: 1, key: 'sk-fake-good' });
    expect(broken.body.success).toBe(false);
    expect(broken.body.message).toMatch(/^解析响应失败: /);
    const unreachable = await post({ base_url: 'http://127.0.0.1:1', type: 1, key: 'sk-fake-good' });
    expect(unreachable.body).toEqual({ success: false, message: '获取模型列表失败: 请求上游地址失败' });
  });

  it('announces every write to channel-change listeners after the commit', async () => {
    const seen: ChannelsChange[] = [];
    const stop = onChannelsChanged(s.app.ctx, (change) => seen.push(change));
    try {
      const [id] = await create({ name: 'ev' });
      await root.put('/api/channel/', { id, weight: 9 });
      await root.delete(`/api/channel/${id}`);
      await root.post('/api/channel/', channelBody({ name: '' }));
    } finally {
      stop();
    }
    expect(seen.map((c) => c.reason)).toEqual(['create', 'update', 'delete']);
    expect(seen.every((c) => !c.remote && c.ids.length === 1)).toBe(true);
  });

  it('refuses every channel endpoint to an ordinary user and changes nothing', async () => {
    const [id] = await create({ name: 'guarded', tag: 'guarded-tag', base_url: fake.url, key: 'sk-fake-good' });
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/channel/?p=0'],
      ['GET', '/api/channel/search?keyword=guarded'],
      ['GET', `/api/channel/${id}`],
      ['POST', '/api/channel/', channelBody()],
      ['PUT', '/api/channel/', { id, status: 2 }],
      ['DELETE', `/api/channel/${id}/`],
      ['DELETE', '/api/channel/disabled'],
      ['POST', '/api/channel/batch', { ids: [id] }],
      ['POST', '/api/channel/batch/tag', { ids: [id], tag: 'x' }],
      ['POST', '/api/channel/fix', {}],
      ['GET', '/api/channel/models'],
      ['GET', '/api/channel/models_enabled'],
      ['GET', `/api/channel/fetch_models/${id}`],
      ['POST', '/api/channel/fetch_models', { base_url: fake.url, type: 1, key: 'sk-fake-good' }],
      ['PUT', '/api/channel/tag', { tag: 'guarded-tag', new_tag: 'stolen' }],
      ['POST', '/api/channel/tag/enabled', { tag: 'guarded-tag' }],
      ['POST', '/api/channel/tag/disabled', { tag: 'guarded-tag' }],
      ['POST', '/api/channel/', { not: 'a valid body' }],
    ];
    const before = await countChannels();
    for (const [method, path, body] of calls) {
      const res = await user.request(method, path, body);
      expect({ path, body: res.body }).toEqual({ path, body: { success: false, message: FORBIDDEN } });
    }
    expect(await countChannels()).toBe(before);
    expect(await channelRow(id!)).toMatchObject({ status: 1, tag: 'guarded-tag' });
  });

  it('keeps the abilities index equal to what the channels say after a random sequence of writes', async () => {
    let seed = 0x5eed + dialect.name.length;
    const random = () => {
      // mulberry32: a deterministic sequence per database
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const some = <T>(items: readonly T[]): T[] =>
      items
        .filter(() => random() < 0.5)
        .concat(pick(items))
        .filter((v, i, a) => a.indexOf(v) === i);
    const models = ['pm-1', 'pm-2', 'pm-3', 'pm-4'];
    const groups = ['default', 'vip', 'svip'];
    const tags = ['pt-1', 'pt-2', 'pt-3'];
    const live: number[] = [];
    const ok = (res: { body: { success: boolean; message: string } }) => {
      if (!res.body.success) expect(res.body.message).toBe('record not found');
    };

    const operations: (() => Promise<void>)[] = [
      async () => {
        const keys = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => `pk-${i}`).join('\n');
        live.push(...(await create({ name: 'prop', key: keys, models: some(models).join(','), groups: some(groups), status: pick([1, 1, 2]), tag: pick([null, ...tags]) })));
      },
      async () => {
        if (!live.length) return;
        ok(
          await root.put('/api/channel/', {
            id: pick(live),
            models: some(models).join(','),
            group: some(groups).join(','),
            priority: Math.floor(random() * 10),
            weight: Math.floor(random() * 5),
            tag: pick(['', ...tags]),
            status: pick([1, 2, 3]),
          }),
        );
      },
      async () => {
        if (!live.length) return;
        const field = pick(['status', 'priority', 'weight'] as const);
        const value = field === 'status' ? pick([1, 2, 3]) : Math.floor(random() * 20);
        ok(await root.put('/api/channel/', { id: pick(live), [field]: value }));
      },
      async () => {
        if (live.length) ok(await root.delete(`/api/channel/${live.splice(Math.floor(random() * live.length), 1)[0]}`));
      },
      async () => {
        expect((await root.delete('/api/channel/disabled')).body.success).toBe(true);
      },
      async () => {
        if (live.length) expect((await root.post('/api/channel/batch', { ids: [pick(live), pick(live)] })).body.success).toBe(true);
      },
      async () => {
        if (live.length) expect((await root.post('/api/channel/batch/tag', { ids: some(live), tag: pick(tags) })).body.success).toBe(true);
      },
      async () => {
        ok(await root.put('/api/channel/tag', { tag: pick(tags), new_tag: pick([undefined, '', ...tags]), models: some(models), priority: Math.floor(random() * 10) }));
      },
      async () => {
        ok(await root.post(`/api/channel/tag/${pick(['enabled', 'disabled'])}`, { tag: pick(tags) }));
      },
      async () => {
        // Concurrent writes of the same and of different channels.
        if (live.length) await Promise.all([0, 1, 2, 3].map(() => root.put('/api/channel/', { id: pick(live), weight: Math.floor(random() * 9), models: some(models).join(',') }).then(ok)));
      },
    ];
    for (let step = 0; step < 30; step++) {
      await pick(operations)();
      // Deleted ids may linger in `live`; writes to them answer "record not found".
    }
    await expectIndexInStep();
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('channels: change announcements over Redis', () => {
  let s: TestServer;
  let listener: Redis;
  beforeAll(async () => {
    s = await startTestServer(DIALECTS[0]!, { env: { REDIS_CONN_STRING: process.env.TEST_REDIS_URL! } });
    listener = new Redis(process.env.TEST_REDIS_URL!);
    await listener.subscribe(CHANGES_REDIS_CHANNEL);
  });
  afterAll(async () => {
    listener?.disconnect();
    await s?.close();
  });

  it('publishes writes on switchyard:changes (topic channels) and relays other nodes’ messages to local listeners', async () => {
    const root = await s.root();
    const published = new Promise<string>((resolve) => listener.once('message', (_channel: string, text: string) => resolve(text)));
    const res = await root.post('/api/channel/', channelBody({ name: 'redis-ev' }));
    const message = JSON.parse(await published);
    expect(message).toMatchObject({ topic: 'channels', reason: 'create', ids: res.body.data.ids });

    const heard = new Promise<ChannelsChange>((resolve) => {
      const stop = onChannelsChanged(s.app.ctx, (change) => {
        stop();
        resolve(change);
      });
    });
    const publisher = new Redis(process.env.TEST_REDIS_URL!);
    await publisher.publish(CHANGES_REDIS_CHANNEL, JSON.stringify({ origin: 'another-node', topic: 'channels', reason: 'update', ids: [42] }));
    publisher.disconnect();
    expect(await heard).toEqual({ reason: 'update', ids: [42], remote: true });
  });
});
