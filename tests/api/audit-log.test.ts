import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLE_ADMIN } from '../../src/shared/roles';
import { SECRET_MASK } from '../../src/server/services/audit/audit.changes';
import type { AuditItem } from '../../src/server/services/audit/audit.repository';
import { describeEachDialect } from '../helpers/dialects';
import { startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { createUser, type TestUser } from '../helpers/users';

describeEachDialect('audit log', (dialect) => {
  let s: TestServer;
  let admin: TestUser;
  let user: TestUser;
  let root: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(dialect);
    root = await s.root();
    admin = await createUser(s, 'auditadmin', ROLE_ADMIN);
    user = await createUser(s, 'audituser');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The newest rows of a kind, after the queue is written. */
  async function latest(kind: string, count = 1): Promise<AuditItem[]> {
    await s.app.ctx.audit.flush();
    const res = await admin.client.get(`/api/audit/?kind=${kind}&page_size=${count}`);
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data.items as AuditItem[];
  }
  const changesOf = (item: AuditItem | undefined) => JSON.parse(item?.changes ?? '{}') as { before?: Record<string, unknown>; after?: Record<string, unknown> };

  it('records an option write with only the changed value, and masks a secret option', async () => {
    expect((await root.put('/api/option/', { key: 'TopUpLink', value: 'https://pay.example.com/a' })).body.success).toBe(true);
    const [row] = await latest('option');
    expect(row).toMatchObject({ kind: 'option', action: 'update', target: 'TopUpLink', user_id: 1, username: 'root', ip: '127.0.0.1' });
    expect(changesOf(row)).toEqual({ before: { value: '' }, after: { value: 'https://pay.example.com/a' } });
    expect(Math.abs(row!.created_at - Date.now() / 1000)).toBeLessThan(10);

    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-very-secret' })).body.success).toBe(true);
    const [secret] = await latest('option');
    expect(secret).toMatchObject({ target: 'SMTPToken' });
    expect(changesOf(secret)).toEqual({ before: { value: '' }, after: { value: SECRET_MASK } });
    expect(secret!.changes).not.toContain('smtp-very-secret');
  });

  it('records channel creation, edits, tag operations and deletion with the key masked', async () => {
    const created = await admin.client.post('/api/channel/', { name: 'audited-ch', type: 1, key: 'sk-channel-secret', models: 'gpt-4o', group: 'default' });
    expect(created.body.success, created.body.message).toBe(true);
    const id = created.body.data.ids[0] as number;
    const [made] = await latest('channel');
    expect(made).toMatchObject({ action: 'create', target: String(id) });
    expect(changesOf(made).after).toMatchObject({ name: 'audited-ch', key: SECRET_MASK });

    expect((await admin.client.put('/api/channel/', { id, name: 'audited-ch-2', key: 'sk-new-secret' })).body.success).toBe(true);
    const [edited] = await latest('channel');
    expect(edited).toMatchObject({ action: 'update', target: String(id) });
    const diff = changesOf(edited);
    expect(diff.before).toMatchObject({ name: 'audited-ch', key: SECRET_MASK });
    expect(diff.after).toMatchObject({ name: 'audited-ch-2', key: SECRET_MASK });
    expect(Object.keys(diff.after ?? {})).not.toContain('type');

    expect((await admin.client.post('/api/channel/batch/tag', { ids: [id], tag: 'audit-tag' })).body.success).toBe(true);
    expect((await admin.client.post('/api/channel/tag/disabled', { tag: 'audit-tag' })).body.success).toBe(true);
    expect((await admin.client.delete(`/api/channel/${id}`)).body.success).toBe(true);
    const rows = await latest('channel', 3);
    expect(rows.map((r) => [r.action, r.target])).toEqual([
      ['delete', String(id)],
      ['tag_disable', 'audit-tag'],
      ['batch_tag', String(id)],
    ]);
    expect(changesOf(rows[0]).before).toMatchObject({ id, name: 'audited-ch-2', key: SECRET_MASK });
    expect(changesOf(rows[0]).after).toBeUndefined();
    for (const r of rows) expect(r.changes).not.toContain('secret');
  });

  it('records user administration with passwords and access tokens masked', async () => {
    const created = await admin.client.post('/api/user/', { username: 'auditmade', display_name: '', password: 'made-pass-123' });
    expect(created.body.success, created.body.message).toBe(true);
    const made = await s.app.ctx.db.selectFrom('users').select('id').where('username', '=', 'auditmade').executeTakeFirstOrThrow();
    expect((await admin.client.put('/api/user/', { id: made.id, username: 'auditmade', display_name: 'Audited', password: 'other-pass-456', quota: 0, group: 'default' })).body.success).toBe(true);
    expect((await admin.client.post('/api/user/manage', { id: made.id, action: 'disable' })).body.success).toBe(true);
    const [disabled, updated, create] = await latest('user', 3);
    expect(create).toMatchObject({ action: 'create', target: String(made.id) });
    expect(updated).toMatchObject({ action: 'update', target: String(made.id) });
    expect(changesOf(updated).before).toMatchObject({ display_name: 'auditmade', password: SECRET_MASK });
    expect(changesOf(updated).after).toMatchObject({ display_name: 'Audited', password: SECRET_MASK });
    expect(disabled).toMatchObject({ action: 'manage_disable' });
    expect(changesOf(disabled)).toEqual({ before: { status: 1 }, after: { status: 2 } });
    for (const r of [create, updated, disabled]) expect(r!.changes).not.toMatch(/made-pass|other-pass|\$2[aby]\$/);
  });

  it("records redemption codes and an administrator's tokens with the keys masked", async () => {
    const codes = await admin.client.post('/api/redemption/', { name: 'audit-codes', quota: 1000, count: 2 });
    expect(codes.body.success, codes.body.message).toBe(true);
    const code = await s.app.ctx.db.selectFrom('redemptions').select('id').where('key', '=', codes.body.data[0]).executeTakeFirstOrThrow();
    expect((await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 2 })).body.success).toBe(true);
    const [status, create] = await latest('redemption', 2);
    expect(create).toMatchObject({ action: 'create' });
    expect(changesOf(create).after).toMatchObject({ name: 'audit-codes', created: 2 });
    expect(status).toMatchObject({ action: 'status', target: String(code.id) });
    expect(changesOf(status)).toEqual({ before: { status: 1 }, after: { status: 2 } });

    const token = await admin.client.post('/api/token/', { name: 'audit-token', remain_quota: 10, unlimited_quota: true, expired_time: -1 });
    expect(token.body.success, token.body.message).toBe(true);
    const tokenId = (await s.app.ctx.db.selectFrom('tokens').select('id').where('name', '=', 'audit-token').executeTakeFirstOrThrow()).id;
    expect((await admin.client.delete(`/api/token/${tokenId}`)).body.success).toBe(true);
    const [deleted, made] = await latest('token', 2);
    expect(made).toMatchObject({ action: 'create', target: String(tokenId) });
    expect(deleted).toMatchObject({ action: 'delete', target: String(tokenId) });
    // A soft deletion: only deleted_at changed; the key is never written out.
    expect(Object.keys(changesOf(deleted).after ?? {})).toEqual(['deleted_at']);
    const key = (await s.app.ctx.db.selectFrom('tokens').select('key').where('id', '=', tokenId).executeTakeFirstOrThrow()).key;
    for (const r of [made, deleted]) expect(r!.changes).not.toContain(key);
    // A common user's own tokens are no administrative change.
    expect((await user.client.post('/api/token/', { name: 'user-token', unlimited_quota: true, expired_time: -1 })).body.success).toBe(true);
    expect((await latest('token', 10)).every((r) => r.username === 'auditadmin')).toBe(true);
  });

  it('filters by actor, kind and time, and is refused to non-administrators', async () => {
    await s.app.ctx.audit.flush();
    const byActor = (await admin.client.get('/api/audit/?actor=auditadmin&page_size=100')).body.data;
    expect(byActor.total).toBeGreaterThan(5);
    expect(byActor.items.every((r: AuditItem) => r.username === 'auditadmin')).toBe(true);
    expect((await admin.client.get('/api/audit/?actor=nobody')).body.data).toMatchObject({ items: [], total: 0 });
    const kinds = (await admin.client.get('/api/audit/?kind=redemption&page_size=100')).body.data.items as AuditItem[];
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.every((r) => r.kind === 'redemption')).toBe(true);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await admin.client.get(`/api/audit/?start_timestamp=${future}`)).body.data.total).toBe(0);
    expect((await admin.client.get(`/api/audit/?end_timestamp=${future}&page_size=1`)).body.data.total).toBeGreaterThan(5);
    expect((await admin.client.get('/api/audit/?kind=bogus')).status).toBe(400);
    expect((await user.client.get('/api/audit/')).body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    expect((await s.client().get('/api/audit/')).status).toBe(401);
  });

  it('lets the change succeed when the audit table cannot be written', async () => {
    const warnings: string[] = [];
    const queue = s.app.ctx.audit.queue as unknown as { warn: (m: string) => void; retryBaseMs: number };
    const restore = { warn: queue.warn, retryBaseMs: queue.retryBaseMs };
    queue.warn = (m) => warnings.push(m);
    queue.retryBaseMs = 1;
    await sql`ALTER TABLE audit_logs RENAME TO audit_logs_away`.execute(s.app.ctx.db);
    try {
      const res = await root.put('/api/option/', { key: 'SMTPToken', value: 'another-secret-value' });
      expect(res.body).toEqual({ success: true, message: '' });
      expect(s.app.ctx.options.get('SMTPToken')).toBe('another-secret-value');
      await s.app.ctx.audit.flush();
      expect(warnings.at(-1)).toMatch(/^audit log: 1 entries dropped after 4 tries/);
      expect(warnings.join('\n')).not.toContain('another-secret-value');
    } finally {
      await sql`ALTER TABLE audit_logs_away RENAME TO audit_logs`.execute(s.app.ctx.db);
      Object.assign(queue, restore);
    }
  });
});
