/**
 * Rows the relay tests need, written straight into the test database: users with a balance,
 * tokens, channels (through the channel service, so abilities and change events follow).
 */
import { randomBytes } from 'node:crypto';
import { createChannels } from '../../src/server/services/channels/channel.service';
import { relayOf } from '../../src/server/relay/runtime';
import type { TestServer } from '../helpers/server';

let counter = 0;

export interface SeededUser {
  id: number;
  username: string;
}

export async function seedUser(s: TestServer, quota: number, extra: { group?: string; role?: number; status?: number } = {}): Promise<SeededUser> {
  const username = `u${Date.now().toString(36)}${++counter}`.slice(0, 12);
  await s.app.ctx.db
    .insertInto('users')
    .values({ username, password: '', access_token: null, aff_code: null, deleted_at: null, quota, ...extra })
    .execute();
  const row = await s.app.ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return { id: row.id, username };
}

export interface SeededToken {
  id: number;
  /** The stored key (without sk-). */
  key: string;
  /** What clients send. */
  apiKey: string;
}

export interface TokenFields {
  name?: string;
  remain_quota?: number;
  unlimited_quota?: boolean;
  status?: number;
  expired_time?: number;
  model_limits_enabled?: boolean;
  model_limits?: string;
  allow_ips?: string;
  group?: string;
}

export async function seedToken(s: TestServer, userId: number, fields: TokenFields = {}): Promise<SeededToken> {
  const key = randomBytes(36)
    .toString('base64')
    .replace(/[^0-9a-zA-Z]/g, '')
    .padEnd(48, 'x')
    .slice(0, 48);
  const now = Math.floor(Date.now() / 1000);
  await s.app.ctx.db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key,
      name: fields.name ?? `t${++counter}`,
      status: fields.status ?? 1,
      created_time: now,
      accessed_time: now,
      expired_time: fields.expired_time ?? -1,
      remain_quota: fields.remain_quota ?? 0,
      unlimited_quota: fields.unlimited_quota ?? true,
      model_limits_enabled: fields.model_limits_enabled ?? false,
      model_limits: fields.model_limits ?? '',
      allow_ips: fields.allow_ips ?? '',
      group: fields.group ?? '',
      deleted_at: null,
    })
    .execute();
  const row = await s.app.ctx.db.selectFrom('tokens').select('id').where('key', '=', key).executeTakeFirstOrThrow();
  return { id: row.id, key, apiKey: `sk-${key}` };
}

export interface ChannelFields {
  type?: number;
  name?: string;
  key?: string;
  base_url?: string;
  models: string;
  group?: string;
  priority?: number;
  weight?: number;
  model_mapping?: string;
  status_code_mapping?: string;
  auto_ban?: number;
  setting?: string;
  other?: string;
}

/** Creates one channel through the service; answers its id once the relay's index has it. */
export async function seedChannel(s: TestServer, fields: ChannelFields): Promise<number> {
  const [id] = await createChannels(s.app.ctx, {
    type: fields.type ?? 1,
    name: fields.name ?? `ch${++counter}`,
    key: fields.key ?? 'sk-fake-good',
    base_url: fields.base_url ?? '',
    models: fields.models,
    groups: (fields.group ?? 'default').split(','),
    priority: fields.priority ?? 0,
    weight: fields.weight ?? 0,
    model_mapping: fields.model_mapping ?? '',
    status_code_mapping: fields.status_code_mapping ?? '',
    auto_ban: fields.auto_ban ?? 1,
    setting: fields.setting ?? '',
    other: fields.other ?? '',
  } as Parameters<typeof createChannels>[1]);
  // The relay rebuilds its index on the change event; wait for it so the next request sees the channel.
  await relayOf(s.app.ctx)?.channels.refresh();
  return id!;
}

/** Writes a channel's key past the channel service's checks (as an old database may hold it). */
export async function storeChannelKey(s: TestServer, id: number, key: string): Promise<void> {
  await s.app.ctx.db.updateTable('channels').set({ key }).where('id', '=', id).execute();
  await relayOf(s.app.ctx)?.channels.refresh();
}

export async function balances(s: TestServer, userId: number, tokenId: number) {
  const db = s.app.ctx.db;
  const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('sum'), eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const open = await db
    .selectFrom('quota_reservations')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('sum'), eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    quota: Number(user.quota),
    usedQuota: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    logSum: Number(logs.sum),
    logCount: Number(logs.n),
    openSum: Number(open.sum),
    openCount: Number(open.n),
  };
}
