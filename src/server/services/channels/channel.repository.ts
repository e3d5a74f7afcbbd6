/**
 * Queries on the channels table. Functions take the executor first so they run inside
 * transactions too. Lists never select `key`; only `findChannelSecret` reads it, for
 * server-side calls to the upstream.
 */
import { sql, type ExpressionBuilder, type Expression, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { PageRequest } from '../../../shared/api/envelope';
import type { DialectName } from '../../db/connect';
import type { Executor } from '../../db/executor';
import { containsPattern, likeMatchIgnoringCase, pageRows } from '../../db/query-helpers';
import type { ChannelsTable, Database } from '../../db/tables';
import type { ChannelColumns } from './channel.input';

/** Every column except the key. */
export const PUBLIC_COLUMNS = [
  'id',
  'type',
  'open_ai_organization',
  'test_model',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'status_code_mapping',
  'priority',
  'auto_ban',
  'other_info',
  'tag',
  'setting',
  'param_override',
  'max_input_tokens',
] as const;

export type PublicChannelRow = Pick<Selectable<ChannelsTable>, (typeof PUBLIC_COLUMNS)[number]>;

/** Search filters of GET /api/channel/search. Blank values filter nothing. */
export interface ChannelFilter {
  keyword?: string;
  group?: string;
  model?: string;
}

/** `priority`: priority desc then id desc (the reference's default); `id`: id desc. */
export type ChannelOrder = 'priority' | 'id';

/** The filter as one condition (`1 = 1` when it filters nothing). */
function matches(eb: ExpressionBuilder<Database, 'channels'>, filter: ChannelFilter): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const asId = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined;
    const byName = likeMatchIgnoringCase('channels.name', containsPattern(keyword));
    parts.push(asId === undefined ? byName : eb.or([eb('channels.id', '=', asId), byName]));
  }
  const group = filter.group?.trim();
  // The console sends the literal "null" when no group is chosen.
  if (group && group !== 'null') {
    parts.push(eb('channels.id', 'in', eb.selectFrom('abilities').select('abilities.channel_id').where('abilities.group', '=', group)));
  }
  const model = filter.model?.trim();
  if (model) {
    parts.push(
      eb(
        'channels.id',
        'in',
        eb
          .selectFrom('abilities')
          .select('abilities.channel_id')
          .where(likeMatchIgnoringCase('abilities.model', containsPattern(model))),
      ),
    );
  }
  if (parts.length === 0) return sql<SqlBool>`1 = 1`;
  return parts.length === 1 ? parts[0]! : eb.and(parts);
}

function untagged(eb: ExpressionBuilder<Database, 'channels'>): Expression<SqlBool> {
  return eb.or([eb('channels.tag', 'is', null), eb('channels.tag', '=', '')]);
}

function tagged(eb: ExpressionBuilder<Database, 'channels'>): Expression<SqlBool> {
  return eb.and([eb('channels.tag', 'is not', null), eb('channels.tag', '!=', '')]);
}

function selectChannels(db: Executor, filter: ChannelFilter, order: ChannelOrder) {
  let query = db.selectFrom('channels').select(PUBLIC_COLUMNS.map((c) => `channels.${c}` as const));
  query = query.where((eb) => matches(eb, filter));
  if (order === 'priority') query = query.orderBy('channels.priority', 'desc');
  return query.orderBy('channels.id', 'desc');
}

/** One page of the plain list and the count of every match. */
export async function pageChannelRows(db: Executor, filter: ChannelFilter, order: ChannelOrder, page: PageRequest): Promise<{ rows: PublicChannelRow[]; total: number }> {
  return pageRows(selectChannels(db, filter, order), page);
}

/** One row of the tag-mode list: a tag (aggregate) or an untagged channel. */
export interface TagModeEntry {
  tag: string | null;
  channel_id: number | null;
}

/**
 * A page of the tag-mode list: every distinct tag of the matching channels plus every
 * matching untagged channel, ordered like the plain list (a tag sorts by its highest
 * priority and newest channel).
 */
export async function listTagModeEntries(db: Executor, filter: ChannelFilter, order: ChannelOrder, offset: number, limit: number): Promise<TagModeEntry[]> {
  const tags = db
    .selectFrom('channels')
    .select((eb) => ['channels.tag as tag', sql<number | null>`null`.as('channel_id'), eb.fn.max('channels.priority').as('sort_priority'), eb.fn.max('channels.id').as('sort_id')])
    .where((eb) => eb.and([tagged(eb), matches(eb, filter)]))
    .groupBy('channels.tag');
  const loose = db
    .selectFrom('channels')
    .select([sql<string | null>`null`.as('tag'), 'channels.id as channel_id', 'channels.priority as sort_priority', 'channels.id as sort_id'])
    .where((eb) => eb.and([untagged(eb), matches(eb, filter)]));
  let query = tags.unionAll(loose);
  if (order === 'priority') query = query.orderBy('sort_priority', 'desc');
  const rows = await query.orderBy('sort_id', 'desc').limit(limit).offset(offset).execute();
  return rows.map((r) => ({ tag: r.tag, channel_id: r.channel_id === null ? null : Number(r.channel_id) }));
}

export async function countTagModeEntries(db: Executor, filter: ChannelFilter): Promise<number> {
  const tags = await db
    .selectFrom('channels')
    .select((eb) => eb.fn.count<number>('channels.tag').distinct().as('n'))
    .where((eb) => eb.and([tagged(eb), matches(eb, filter)]))
    .executeTakeFirstOrThrow();
  const loose = await db
    .selectFrom('channels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.and([untagged(eb), matches(eb, filter)]))
    .executeTakeFirstOrThrow();
  return Number(tags.n) + Number(loose.n);
}

/** Every channel carrying one of `tags`, in list order. */
export async function channelsWithTags(db: Executor, tags: string[], order: ChannelOrder): Promise<PublicChannelRow[]> {
  if (tags.length === 0) return [];
  return selectChannels(db, {}, order).where('channels.tag', 'in', tags).execute();
}

export async function channelsByIds(db: Executor, ids: number[], order: ChannelOrder = 'id'): Promise<PublicChannelRow[]> {
  if (ids.length === 0) return [];
  return selectChannels(db, {}, order).where('channels.id', 'in', ids).execute();
}

export async function findChannel(db: Executor, id: number): Promise<PublicChannelRow | undefined> {
  return db.selectFrom('channels').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** What a server-side upstream call needs, key included. Never send this to a client. */
export async function findChannelSecret(db: Executor, id: number): Promise<{ id: number; type: number; key: string; base_url: string; setting: string | null } | undefined> {
  return db.selectFrom('channels').select(['id', 'type', 'key', 'base_url', 'setting']).where('id', '=', id).executeTakeFirst();
}

export async function insertChannel(db: Executor, dialect: DialectName, row: Insertable<ChannelsTable>): Promise<number> {
  if (dialect === 'mysql') {
    const result = await db.insertInto('channels').values(row).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const inserted = await db.insertInto('channels').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateChannelColumns(db: Executor, ids: number[], columns: ChannelColumns): Promise<void> {
  if (ids.length === 0 || Object.keys(columns).length === 0) return;
  await db.updateTable('channels').set(columns).where('id', 'in', ids).execute();
}

export async function deleteChannelRows(db: Executor, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('channels').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Locks the channels' rows for the rest of the transaction (PostgreSQL, MySQL), so two
 * concurrent writes of one channel rebuild its abilities one after the other. SQLite
 * transactions already exclude each other. Answers the ids that exist.
 */
export async function lockChannels(db: Executor, dialect: DialectName, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  let query = db.selectFrom('channels').select('id').where('id', 'in', ids).orderBy('id');
  if (dialect !== 'sqlite') query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

/** Ids of a tag's channels, their rows locked like `lockChannels` does. */
export async function lockChannelsWithTag(db: Executor, dialect: DialectName, tag: string): Promise<number[]> {
  let query = db.selectFrom('channels').select('id').where('tag', '=', tag).orderBy('id');
  if (dialect !== 'sqlite') query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

/** Ids of the channels in these statuses, their rows locked like `lockChannels` does. */
export async function lockChannelsWithStatus(db: Executor, dialect: DialectName, statuses: number[]): Promise<number[]> {
  let query = db.selectFrom('channels').select('id').where('status', 'in', statuses).orderBy('id');
  if (dialect !== 'sqlite') query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

/** Status details of channels, for writes that change their status. */
export async function channelStatusInfo(db: Executor, ids: number[]): Promise<{ id: number; status: number; other_info: string | null }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('channels').select(['id', 'status', 'other_info']).where('id', 'in', ids).execute();
}

/** Distinct models of enabled abilities, in name order. */
export async function enabledModelNames(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('abilities').select('model').distinct().where('enabled', '=', true).orderBy('model').execute();
  return rows.map((r) => r.model);
}
