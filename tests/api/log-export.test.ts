import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LogsTable } from '../../src/server/db/tables';
import { ROLE_ADMIN } from '../../src/shared/roles';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

const BOM = '\uFEFF';
const ADMIN_HEADER = 'ID,时间,渠道,渠道名称,用户,令牌,分组,类型,模型,用时(秒),流式,提示,补全,额度,详情,其他';
const SELF_HEADER = 'ID,时间,令牌,分组,类型,模型,用时(秒),流式,提示,补全,额度,详情,其他';

/** The CSV lines of a reply (none of the rows here hold a line break unless a test says so). */
function lines(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .filter((l) => l !== '');
}

/** A full garbage collection (V8's own, exposed at run time), so the heap counts live objects only. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Bytes received between two looks at the live heap. */
const SAMPLE_EVERY = 4_000_000;

/**
 * Reads an export as a stream; every few megabytes received, the live heap (after a full
 * collection) is sampled. Answers the bytes, the rows and the largest live heap seen.
 */
async function streamExport(client: ApiClient, path: string): Promise<{ bytes: number; rows: number; peakLive: number }> {
  const res = await fetch(client.baseUrl + path, { headers: { cookie: client.cookie, 'new-api-user': String(client.userId) } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let bytes = 0;
  let rows = 0;
  let peakLive = 0;
  let nextSample = SAMPLE_EVERY;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const byte of value) if (byte === 10) rows++;
    if (bytes >= nextSample) {
      nextSample += SAMPLE_EVERY;
      collectGarbage();
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }
  }
  return { bytes, rows: rows - 1, peakLive };
}

describeEachDialect('log export', (dialect) => {
  let s: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await createUser(s, 'exportadmin', ROLE_ADMIN);
    alice = await createUser(s, 'exportalice');
    bob = await createUser(s, 'exportbob');
    const channel = await s.app.ctx.db.insertInto('channels').values({ name: 'export-ch', type: 1, key: 'sk-never-exported', models: 'gpt-4o', group: 'default' }).executeTakeFirst();
    const channelId = Number(channel.insertId ?? (await s.app.ctx.db.selectFrom('channels').select('id').where('name', '=', 'export-ch').executeTakeFirstOrThrow()).id);
    const base = { created_at: now - 100, type: 2, quota: 7, prompt_tokens: 3, completion_tokens: 4, channel_id: channelId, group: 'default', use_time: 2 };
    const rows: Insertable<LogsTable>[] = [
      { ...base, user_id: alice.id, username: alice.username, token_name: 'plain', model_name: 'gpt-4o', content: 'ok', other: '{"admin_info":{"use_channel":["9"]},"frt":1}' },
      { ...base, user_id: alice.id, username: alice.username, token_name: '=HYPERLINK("http://x")', model_name: 'gpt-4o-mini', content: 'has, comma and "quotes"' },
      { ...base, user_id: bob.id, username: bob.username, token_name: '@sum', model_name: 'gpt-4o', content: '-2+3', created_at: now - 5000 },
      { ...base, user_id: bob.id, username: bob.username, token_name: '+cmd', model_name: 'claude-3', type: 1, content: 'top-up' },
    ];
    await s.app.ctx.db.insertInto('logs').values(rows).execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('streams every log as an attachment with escaped cells and formulas defused', async () => {
    const res = await admin.client.get('/api/log/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="logs-\d{8}T\d{6}\.csv"$/);
    const [header, ...rows] = lines(res.body as string);
    expect(header).toBe(ADMIN_HEADER);
    expect(rows).toHaveLength(4);
    // Newest id first.
    expect(rows[0]).toMatch(/^\d+,[^,]+,\d+,export-ch,exportbob,'\+cmd,default,充值,claude-3,2,否,3,4,7,top-up,$/);
    expect(rows[1]).toContain(",exportbob,'@sum,default,消费,gpt-4o,");
    expect(rows[1]).toContain(",'-2+3,");
    expect(rows[2]).toContain(`,exportalice,"'=HYPERLINK(""http://x"")",default,消费,gpt-4o-mini,`);
    expect(rows[2]).toContain(',"has, comma and ""quotes""",');
    // Administrators see the channels a request tried.
    expect(rows[3]).toContain(',"{""admin_info"":{""use_channel"":[""9""]},""frt"":1}"');
    expect(res.body as string).not.toContain('sk-never-exported');
    // A byte order mark leads, so spreadsheets read the Chinese as UTF-8 (fetch's text() drops it).
    const raw = await fetch(`${s.url}/api/log/export`, { headers: { cookie: admin.client.cookie, 'new-api-user': String(admin.id) } });
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await raw.arrayBuffer()).startsWith(BOM)).toBe(true);
  });

  it('applies the list filters', async () => {
    const only = async (query: string) => lines((await admin.client.get(`/api/log/export?${query}`)).body as string).slice(1);
    expect(await only('username=exportalice')).toHaveLength(2);
    expect(await only('type=1')).toHaveLength(1);
    expect(await only('model_name=gpt-4o')).toHaveLength(2);
    expect(await only(`start_timestamp=${now - 1000}&end_timestamp=${now}`)).toHaveLength(3);
    expect(await only('token_name=nothing-like-this')).toEqual([]);
    expect((await admin.client.get('/api/log/export?type=99999999999')).status).toBe(400);
  });

  it('gives a user only their own logs, without channels, users or retries', async () => {
    const res = await alice.client.get('/api/log/self/export?username=exportbob');
    const [header, ...rows] = lines(res.body as string);
    expect(header).toBe(SELF_HEADER);
    expect(rows).toHaveLength(2);
    expect(rows.join('\n')).not.toMatch(/exportbob|export-ch|admin_info/);
    expect(rows[1]).toContain(',"{""frt"":1}"');
    expect((await bob.client.get('/api/log/self/export?type=1')).body).toContain("'+cmd");
  });

  it('is refused without the role or a session', async () => {
    expect((await alice.client.get('/api/log/export')).body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    expect((await s.client().get('/api/log/self/export')).status).toBe(401);
  });

  it('streams 50,000 rows with the heap no larger than for 10,000', async () => {
    const filler = 'x'.repeat(1000);
    const batch: Insertable<LogsTable>[] = [];
    for (let i = 0; i < 50_000; i++) {
      batch.push({ user_id: admin.id, username: 'bulk', created_at: now, type: 2, token_name: 'bulk', model_name: i < 10_000 ? 'bulk-10k' : 'bulk-rest', content: `${i}${filler}` });
      if (batch.length === 500) await s.app.ctx.db.insertInto('logs').values(batch.splice(0)).execute();
    }
    const small = await streamExport(admin.client, '/api/log/export?username=bulk&model_name=bulk-10k');
    const large = await streamExport(admin.client, '/api/log/export?username=bulk');
    expect(small.rows).toBe(10_000);
    expect(large.rows).toBe(50_000);
    expect(large.bytes).toBeGreaterThan(50_000_000);
    // Holding the 40,000 more rows would keep some 60 MB more alive (their 40 MB of text,
    // plus the row objects); streamed, only a page or two and the socket's buffers are.
    expect(large.peakLive - small.peakLive).toBeLessThan(10_000_000);
  }, 120_000);
});
