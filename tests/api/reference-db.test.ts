/**
 * A database the reference made (new-api, and the older one-api), opened in place: its own
 * schema and rows (tests/fixtures/reference-db), our server started on it, every console and
 * relay flow run, and afterwards every column and index of the reference as it was, and no
 * option row written that an admin did not save.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, type TestDatabase } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { relayOf } from '../../src/server/relay/runtime';
import { createReferenceDatabase, withPlainConnection, type ReferenceKind } from '../fixtures/reference-db/reference-db';
import { REF } from '../fixtures/reference-db/reference-rows';
import { schemaShape, type SchemaShape } from '../fixtures/reference-db/schema-shape';

/** Columns we add to the reference's tables (anything else added would be a mistake). */
const ADDED_COLUMNS: Record<ReferenceKind, string[]> = {
  'new-api': ['channels.max_input_tokens', 'midjourneys.token_id', 'midjourneys.billing', 'tasks.token_id', 'tasks.billing'],
  'one-api': [
    'users.telegram_id',
    'users.linux_do_id',
    'users.aff_count',
    'users.aff_quota',
    'users.aff_history',
    'users.deleted_at',
    'users.setting',
    'tokens.model_limits_enabled',
    'tokens.model_limits',
    'tokens.allow_ips',
    'tokens.group',
    'tokens.deleted_at',
    'channels.open_ai_organization',
    'channels.test_model',
    'channels.status_code_mapping',
    'channels.auto_ban',
    'channels.other_info',
    'channels.tag',
    'channels.setting',
    'channels.param_override',
    'channels.max_input_tokens',
    'abilities.weight',
    'abilities.tag',
    'redemptions.used_user_id',
    'redemptions.deleted_at',
    'logs.use_time',
    'logs.token_id',
    'logs.group',
    'logs.other',
  ],
};

interface Ledger {
  userQuota: number;
  userUsed: number;
  tokenUsed: number;
  channelUsed: number;
  /** Consume logs of the laptop token: count and quota. */
  logs: number;
  logQuota: number;
}

for (const kind of ['new-api', 'one-api'] as const) {
  const newApi = kind === 'new-api';
  describeEachDialect(`a ${kind} database opened in place`, (dialect) => {
    let fake: FakeOpenAI;
    let database: TestDatabase;
    let before: SchemaShape;
    let optionsBefore: Record<string, string>;
    let s: TestServer | undefined;
    let root: ApiClient;
    let alice: ApiClient;

    const server = () => s!;
    const plain = <T>(read: Parameters<typeof withPlainConnection<T>>[2]) => withPlainConnection(dialect.name, database, read);
    const optionRows = () => plain(async (db) => Object.fromEntries((await db.selectFrom('options').select(['key', 'value']).execute()).map((r) => [r.key, r.value])));

    beforeAll(async () => {
      fake = await startFakeOpenAI({ keys: [REF.channels.main.key, REF.channels.spare.key], models: ['gpt-4o-mini', 'gpt-4o'] });
      database = await createReferenceDatabase(dialect, kind, fake.url);
      before = await plain((db) => schemaShape(db, dialect.name));
      optionsBefore = await optionRows();
      s = await startTestServer(dialect, { database });
      root = await server().login(REF.root.username, REF.root.password);
      alice = await server().login(REF.alice.username, REF.alice.password);
    });

    afterAll(async () => {
      await s?.close();
      await database?.drop();
      await fake?.close();
    });

    const ledger = async (): Promise<Ledger> => {
      const db = server().app.ctx.db;
      const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', REF.alice.id).executeTakeFirstOrThrow();
      const token = await db.selectFrom('tokens').select('used_quota').where('id', '=', REF.tokens.laptop.id).executeTakeFirstOrThrow();
      const channel = await db.selectFrom('channels').select('used_quota').where('id', '=', REF.channels.main.id).executeTakeFirstOrThrow();
      const logs = await db
        .selectFrom('logs')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('quota').as('q')])
        .where('type', '=', 2)
        .where('token_name', '=', 'laptop')
        .executeTakeFirstOrThrow();
      return {
        userQuota: Number(user.quota),
        userUsed: Number(user.used_quota),
        tokenUsed: Number(token.used_quota),
        channelUsed: Number(channel.used_quota),
        logs: Number(logs.n),
        logQuota: Number(logs.q),
      };
    };

    it('starts without writing an option row, and serves the saved ones', async () => {
      expect(await optionRows()).toEqual(optionsBefore);
      const status = (await server().client().get('/api/status')).body.data;
      expect(status.system_name).toBe(REF.options.SystemName);
      const listed = (await root.get('/api/option/')).body.data as { key: string; value: string }[];
      const value = (key: string) => listed.find((o) => o.key === key)?.value;
      expect(value('GroupRatio')).toBe(REF.options.GroupRatio);
      // Keys without a row answer their built-in default.
      expect(JSON.parse(value('ModelRatio')!)['gpt-4o-mini']).toBe(0.075);
    });

    it('signs in with the Go bcrypt hashes and lists the users as the reference does', async () => {
      expect(root.userId).toBe(REF.root.id);
      const users = (await root.get('/api/user/?p=0&page_size=50')).body.data.items as { username: string; quota: number; used_quota: number }[];
      // Like the reference, the admin list includes soft-deleted accounts; they cannot sign in.
      expect(users.map((u) => u.username).sort()).toEqual(newApi ? ['alice', 'bob', 'root'] : ['alice', 'root']);
      expect(users.find((u) => u.username === 'alice')).toMatchObject({ quota: REF.alice.quota, used_quota: REF.alice.usedQuota });
      expect((await server().client().post('/api/user/login', { username: REF.alice.username, password: 'wrong-password' })).body.success).toBe(false);
      if (newApi) expect((await server().client().post('/api/user/login', { username: REF.bob.username, password: REF.alice.password })).body.success).toBe(false);
    });

    it('lists the tokens, with the limits the reference set', async () => {
      const tokens = (await alice.get('/api/token/?p=0&size=50')).body.data.items as { name: string; model_limits_enabled: boolean; model_limits: string; allow_ips: string }[];
      const names = tokens.map((t) => t.name).sort();
      expect(names).toEqual(newApi ? ['laptop', 'server'] : ['laptop', 'office', 'server']);
      expect(tokens.find((t) => t.name === 'server')).toMatchObject({ model_limits_enabled: true, model_limits: 'gpt-4o-mini' });
      if (!newApi) expect(tokens.find((t) => t.name === 'office')?.allow_ips).toBe('10.0.0.0/8\n192.168.0.0/16');
    });

    it('lists, reads, searches, creates and updates channels, organisation included', async () => {
      const list = await root.get('/api/channel/?p=0&page_size=50');
      expect(list.status).toBe(200);
      const items = list.body.data.items as { id: number; name: string; openai_organization: string; key?: string }[];
      expect(items.map((c) => c.name).sort()).toEqual(['openai-main', 'openai-spare']);
      const main = items.find((c) => c.id === REF.channels.main.id)!;
      expect(main.openai_organization).toBe(newApi ? REF.channels.main.organization : '');
      expect(main.key ?? '').toBe('');

      const one = await root.get(`/api/channel/${REF.channels.main.id}`);
      expect(one.body).toMatchObject({ success: true, data: { id: REF.channels.main.id, name: 'openai-main', models: 'gpt-4o-mini,gpt-4o' } });
      const found = await root.get('/api/channel/search?keyword=spare');
      expect(found.body.data.items.map((c: { name: string }) => c.name)).toEqual(['openai-spare']);

      const created = await root.post('/api/channel/', { name: 'added-here', type: 1, key: 'sk-added', base_url: fake.url, models: 'gpt-4o', group: 'default', openai_organization: 'org-added' });
      expect(created.body.success).toBe(true);
      const added = (await root.get('/api/channel/search?keyword=added-here')).body.data.items[0] as { id: number; openai_organization: string };
      expect(added.openai_organization).toBe('org-added');
      const updated = await root.put('/api/channel/', { id: added.id, name: 'added-here', openai_organization: 'org-changed' });
      expect(updated.body.success).toBe(true);
      const stored = await plain((db) => db.selectFrom('channels').select('open_ai_organization').where('id', '=', added.id).executeTakeFirstOrThrow());
      expect(stored.open_ai_organization).toBe('org-changed');
      expect((await root.delete(`/api/channel/${added.id}`)).body.success).toBe(true);
    });

    it("refuses values wider than the reference's columns with a 4xx, writing nothing", async () => {
      const count = async () =>
        Number(
          (
            await plain((db) =>
              db
                .selectFrom('channels')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow(),
            )
          ).n,
        );
      const channels = await count();
      const groups = await root.post('/api/channel/', { name: 'wide-groups', type: 1, key: 'sk-wide', models: 'gpt-4o', groups: ['g'.repeat(40), 'h'.repeat(40)] });
      expect(groups.body).toMatchObject({ success: false });
      expect(groups.body.message).toMatch(/^分组名称过长/);
      // 200 characters: text on SQLite and PostgreSQL, varchar(191) on the references' MySQL.
      const wide = await root.post('/api/channel/', { name: 'wide-url', type: 1, key: 'sk-wide', base_url: `${fake.url}/${'p'.repeat(200)}`, models: 'gpt-4o', group: 'default' });
      const narrow = dialect.name === 'mysql';
      expect(wide.status).toBe(narrow ? 400 : 200);
      expect(wide.body.success).toBe(!narrow);
      if (!narrow) {
        const id = (await root.get('/api/channel/search?keyword=wide-url')).body.data.items[0].id as number;
        expect((await root.delete(`/api/channel/${id}`)).body.success).toBe(true);
      }
      expect(await count()).toBe(channels);
    });

    it('relays a chat request over the reference channel, organisation sent, ledger exact', async () => {
      const start = await ledger();
      // The reference's own history is consistent, and so it stays.
      expect(start.tokenUsed).toBe(REF.tokens.laptop.usedQuota);
      expect(start.logQuota).toBe(start.tokenUsed);
      const client = new OpenAI({ apiKey: `sk-${REF.tokens.laptop.key}`, baseURL: `${server().url}/v1`, maxRetries: 0 });
      const seen = fake.requests.length;
      for (let i = 0; i < 3; i++) {
        const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${i}` }] });
        expect(reply.choices[0]?.message.content).toBeTruthy();
      }
      await relayOf(server().app.ctx)!.ledger.flush();
      const upstream = fake.requests.slice(seen).filter((r) => r.path === '/v1/chat/completions');
      expect(upstream).toHaveLength(3);
      for (const r of upstream) {
        expect(r.bearer).toBe(REF.channels.main.key);
        expect(r.headers['openai-organization']).toBe(newApi ? REF.channels.main.organization : undefined);
      }
      const end = await ledger();
      const charged = end.logQuota - start.logQuota;
      expect(end.logs - start.logs).toBe(3);
      expect(charged).toBeGreaterThan(0);
      expect(end.userUsed - start.userUsed).toBe(charged);
      expect(start.userQuota - end.userQuota).toBe(charged);
      expect(end.tokenUsed - start.tokenUsed).toBe(charged);
      expect(end.channelUsed - start.channelUsed).toBe(charged);
      expect(end.tokenUsed).toBe(end.logQuota);
    });

    it('refuses the tokens the reference would refuse', async () => {
      const third = new OpenAI({ apiKey: `sk-${REF.tokens.third.key}`, baseURL: `${server().url}/v1`, maxRetries: 0 });
      const err = await third.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(newApi ? 401 : 403);
      const limited = new OpenAI({ apiKey: `sk-${REF.tokens.server.key}`, baseURL: `${server().url}/v1`, maxRetries: 0 });
      const refused = await limited.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(403);
    });

    it('lists logs and redemptions, and redeems a code', async () => {
      const logs = (await root.get('/api/log/?p=0&page_size=100')).body.data;
      expect(logs.total).toBeGreaterThanOrEqual(7);
      const redemptions = (await root.get('/api/redemption/?p=0&page_size=50')).body.data.items as { name: string }[];
      expect(redemptions.map((r) => r.name).sort()).toEqual(['gift', 'gift']);
      const before = (await alice.get('/api/user/self')).body.data.quota as number;
      expect((await alice.post('/api/user/topup', { key: REF.redemptionKey })).body).toMatchObject({ success: true, data: 500_000 });
      expect((await alice.get('/api/user/self')).body.data.quota).toBe(before + 500_000);
    });

    describe('afterwards', () => {
      it('leaves every column and index of the reference as it was, and no option row it did not save', async () => {
        await s!.close();
        s = undefined;
        const after = await plain((db) => schemaShape(db, dialect.name));
        for (const [column, shape] of before.columns) expect(after.columns.get(column), column).toBe(shape);
        for (const [index, definition] of before.indexes) expect(after.indexes.get(index), index).toBe(definition);
        const referenceTables = new Set([...before.columns.keys()].map((c) => c.split('.')[0]));
        const added = [...after.columns.keys()].filter((c) => referenceTables.has(c.split('.')[0]) && !before.columns.has(c));
        expect(added.sort()).toEqual([...ADDED_COLUMNS[kind]].sort());
        expect(await optionRows()).toEqual(optionsBefore);
      });
    });
  });
}
