/**
 * Channel administration rules. Every write runs in one transaction that also rewrites the
 * abilities of the channels it touched, and announces itself after the commit
 * (`onChannelsChanged`), so the relay's selection index can follow at once.
 */
import type { Insertable } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/executor';
import type { ChannelsTable } from '../../db/tables';
import { AppError, MSG } from '../../errors';
import { parsePageRequest, type Page } from '../../../shared/api/envelope';
import { toPage } from '../../db/query-helpers';
import { CHANNEL_STATUS, CHANNEL_TYPE } from '../../../shared/channel-types';
import { deleteAbilities, rebuildAllAbilities, syncAbilities } from './abilities.sync';
import { channelEvents } from './channel.events';
import { channelColumns, groupList, jsonText, keysToCreate, modelList, MSG_CHANNEL, updateKey, type ChannelColumns } from './channel.input';
import {
  channelsByIds,
  channelStatusInfo,
  channelsWithTags,
  countTagModeEntries,
  deleteChannelRows,
  enabledModelNames,
  findChannel,
  findChannelSecret,
  insertChannel,
  pageChannelRows,
  listTagModeEntries,
  lockChannels,
  lockChannelsWithStatus,
  lockChannelsWithTag,
  updateChannelColumns,
  type ChannelFilter,
  type ChannelOrder,
} from './channel.repository';
import { channelSchemas, type ChannelBody, type FetchModelsBody, type TagEditBody } from './channel.schema';
import { publicChannel, tagAggregate, type PublicChannel, type TagAggregate } from './channel.serializer';
import { fetchUpstreamModels } from './upstream-models.fetcher';
import { channelDispatcher } from './channel-proxy';
import { nowSeconds } from '../../../shared/time';

export { onChannelsChanged, type ChannelsChange } from './channel.events';

export const MSG_CHANNEL_ADMIN = {
  noSelection: '请先选择要删除的通道！',
  tagRequired: '标签不能为空！',
  tagEmpty: 'tag不能为空',
  badParams: '参数错误',
} as const;

/** Ids per statement when deleting many channels. */
const DELETE_CHUNK = 500;

/** Deadlocks and serialization failures: the transaction was rolled back and may simply run again. */
function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '40P01' || code === '40001' || code === 'ER_LOCK_DEADLOCK';
}

/**
 * Runs a channel write in one transaction. MySQL's gap locks can make two writes of
 * different channels deadlock on the abilities index; the loser is retried a few times.
 */
async function inTransaction<T>(ctx: AppContext, work: (trx: Executor) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction().execute(work);
    } catch (err) {
      if (attempt >= 4 || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}

function flag(value: unknown): boolean {
  return value === 'true' || value === '1' || value === true;
}

export interface ListQuery {
  p?: unknown;
  page_size?: unknown;
  id_sort?: unknown;
  tag_mode?: unknown;
}

export type ChannelListItem = PublicChannel | TagAggregate;

/** The list and the search: one paged shape, plain or in tag mode (see channel.serializer). */
export async function listChannels(ctx: AppContext, query: ListQuery, filter: ChannelFilter = {}): Promise<Page<ChannelListItem>> {
  const request = parsePageRequest(query);
  const { page, pageSize, offset } = request;
  const order: ChannelOrder = flag(query.id_sort) ? 'id' : 'priority';
  if (flag(query.tag_mode)) {
    const [items, total] = await Promise.all([tagModeItems(ctx.db, filter, order, offset, pageSize), countTagModeEntries(ctx.db, filter)]);
    return { items, total, page, page_size: pageSize };
  }
  return toPage(request, await pageChannelRows(ctx.db, filter, order, request), publicChannel);
}

async function tagModeItems(db: Executor, filter: ChannelFilter, order: ChannelOrder, offset: number, limit: number): Promise<ChannelListItem[]> {
  const entries = await listTagModeEntries(db, filter, order, offset, limit);
  const tags = entries.flatMap((e) => (e.tag === null ? [] : [e.tag]));
  const ids = entries.flatMap((e) => (e.channel_id === null ? [] : [e.channel_id]));
  const [tagged, loose] = await Promise.all([channelsWithTags(db, tags, order), channelsByIds(db, ids, order)]);
  const childrenByTag = new Map<string, PublicChannel[]>();
  for (const row of tagged) {
    const list = childrenByTag.get(row.tag!) ?? [];
    list.push(publicChannel(row));
    childrenByTag.set(row.tag!, list);
  }
  const looseById = new Map(loose.map((row) => [row.id, publicChannel(row)]));
  // Rows deleted between the two reads are simply left out.
  return entries.flatMap((e): ChannelListItem[] => {
    if (e.tag !== null) {
      const children = childrenByTag.get(e.tag);
      return children ? [tagAggregate(e.tag, children)] : [];
    }
    const channel = looseById.get(e.channel_id!);
    return channel ? [channel] : [];
  });
}

export async function getChannel(ctx: AppContext, id: number): Promise<PublicChannel> {
  const row = await findChannel(ctx.db, id);
  if (!row) throw new AppError(MSG.notFound);
  return publicChannel(row);
}

/**
 * Creates one channel per key line (all sharing the other fields); answers their ids.
 * A copy: keys are never returned, so the console's copy sends the source row with its
 * `id` and no key, and the new channel gets the source's key, which stays on the server.
 */
export async function createChannels(ctx: AppContext, body: ChannelBody): Promise<number[]> {
  const source = !(body.key ?? '').trim() && body.id ? await findChannelSecret(ctx.db, body.id) : undefined;
  const input = source ? { ...body, key: source.key } : body;
  const columns = channelColumns(input, channelSchemas(ctx.config.schemasDir).jsonFields);
  const keys = source ? [source.key] : keysToCreate(input);
  if (keys.length === 0) throw new AppError(MSG_CHANNEL.nameAndKey);
  const createdTime = nowSeconds();
  const ids = await inTransaction(ctx, async (trx) => {
    const created: number[] = [];
    for (const key of keys) {
      created.push(await insertChannel(trx, ctx.dialect, { ...columns, key, created_time: createdTime } as Insertable<ChannelsTable>));
    }
    await syncAbilities(trx, created);
    return created;
  });
  channelEvents(ctx).emit('create', ids);
  return ids;
}

/**
 * other_info after a manual status change: the time of the change, and no stale reason
 * (an automatic disable writes its own reason through `setChannelStatus`).
 */
function otherInfoForStatus(otherInfo: string | null, reason: string | undefined): string {
  let info: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(otherInfo || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) info = parsed as Record<string, unknown>;
  } catch {
    // unreadable details are replaced
  }
  delete info.status_reason;
  if (reason) info.status_reason = reason;
  info.status_time = nowSeconds();
  return JSON.stringify(info);
}

/** Whole or partial update (`{id, status}`, `{id, priority}`, ...): only fields present change. */
export async function updateChannel(ctx: AppContext, body: ChannelBody & { id: number }): Promise<PublicChannel> {
  const { jsonFields } = channelSchemas(ctx.config.schemasDir);
  const row = await inTransaction(ctx, async (trx) => {
    const [id] = await lockChannels(trx, ctx.dialect, [body.id]);
    const current = id === undefined ? undefined : await findChannel(trx, id);
    if (!current) throw new AppError(MSG.notFound);
    const columns: ChannelColumns = channelColumns(body, jsonFields, current);
    const key = updateKey(body, (columns.type as number | undefined) ?? current.type);
    if (key !== undefined) columns.key = key;
    if (columns.status !== undefined && columns.status !== current.status && body.other_info === undefined) {
      columns.other_info = otherInfoForStatus(current.other_info, undefined);
    }
    await updateChannelColumns(trx, [current.id], columns);
    await syncAbilities(trx, [current.id]);
    return (await findChannel(trx, current.id))!;
  });
  channelEvents(ctx).emit('update', [row.id]);
  return publicChannel(row);
}

/** Writes a status (with its time and optional reason) on locked channels and rewrites their abilities. */
async function applyStatus(trx: Executor, ids: number[], status: number, reason?: string): Promise<void> {
  for (const channel of await channelStatusInfo(trx, ids)) {
    await updateChannelColumns(trx, [channel.id], { status, other_info: otherInfoForStatus(channel.other_info, reason) });
  }
  await syncAbilities(trx, ids);
}

/**
 * Sets the status of channels and their abilities' enabled flag; for the channel tests and
 * automatic disabling as much as for the console. Answers how many channels exist.
 */
export async function setChannelStatus(ctx: AppContext, ids: number[], status: number, reason?: string): Promise<number> {
  const changed = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannels(trx, ctx.dialect, [...new Set(ids)]);
    await applyStatus(trx, locked, status, reason);
    return locked;
  });
  if (changed.length) channelEvents(ctx).emit('status', changed);
  return changed.length;
}

async function deleteLockedChannels(trx: Executor, ids: number[]): Promise<number> {
  let count = 0;
  for (let i = 0; i < ids.length; i += DELETE_CHUNK) {
    const chunk = ids.slice(i, i + DELETE_CHUNK);
    await deleteAbilities(trx, chunk);
    count += await deleteChannelRows(trx, chunk);
  }
  return count;
}

export async function deleteChannel(ctx: AppContext, id: number): Promise<void> {
  await inTransaction(ctx, async (trx) => {
    const locked = await lockChannels(trx, ctx.dialect, [id]);
    if (locked.length === 0) throw new AppError(MSG.notFound);
    await deleteLockedChannels(trx, locked);
  });
  channelEvents(ctx).emit('delete', [id]);
}

/** Deletes disabled and auto-disabled channels with their abilities; answers how many. */
export async function deleteDisabledChannels(ctx: AppContext): Promise<number> {
  const ids = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannelsWithStatus(trx, ctx.dialect, [CHANNEL_STATUS.disabled, CHANNEL_STATUS.autoDisabled]);
    await deleteLockedChannels(trx, locked);
    return locked;
  });
  if (ids.length) channelEvents(ctx).emit('delete', ids);
  return ids.length;
}

export async function deleteChannelsByIds(ctx: AppContext, ids: number[] | null | undefined): Promise<number> {
  if (!ids || ids.length === 0) throw new AppError(MSG_CHANNEL_ADMIN.noSelection);
  const deleted = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannels(trx, ctx.dialect, [...new Set(ids)]);
    await deleteLockedChannels(trx, locked);
    return locked;
  });
  if (deleted.length) channelEvents(ctx).emit('delete', deleted);
  return deleted.length;
}

/** Batch tag: sets one tag on the selected channels; answers how many exist. */
export async function tagChannels(ctx: AppContext, ids: number[] | null | undefined, tag: string | null | undefined): Promise<number> {
  if (!ids || ids.length === 0) throw new AppError(MSG_CHANNEL_ADMIN.badParams);
  const name = (tag ?? '').trim();
  if (!name) throw new AppError(MSG_CHANNEL_ADMIN.tagRequired);
  const tagged = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannels(trx, ctx.dialect, [...new Set(ids)]);
    await updateChannelColumns(trx, locked, { tag: name });
    await syncAbilities(trx, locked);
    return locked;
  });
  if (tagged.length) channelEvents(ctx).emit('tag', tagged);
  return tagged.length;
}

/** Derives the abilities index again from the channels; answers the number of channels. */
export async function fixAbilities(ctx: AppContext): Promise<number> {
  const count = await inTransaction(ctx, (trx) => rebuildAllAbilities(trx, ctx.dialect));
  channelEvents(ctx).emit('fix', []);
  return count;
}

export async function enabledModels(ctx: AppContext): Promise<string[]> {
  return enabledModelNames(ctx.db);
}

function given(list: string | string[] | undefined): boolean {
  return typeof list === 'string' ? list.trim() !== '' : Array.isArray(list) && list.length > 0;
}

/** The columns a tag edit writes: only what it names (an empty new tag dissolves the tag). */
function tagEditColumns(edit: TagEditBody, tag: string, mappingMessage: string): ChannelColumns {
  const columns: ChannelColumns = {};
  if (edit.new_tag !== undefined && edit.new_tag !== null && edit.new_tag.trim() !== tag) columns.tag = edit.new_tag.trim() || null;
  if ((edit.model_mapping ?? '').trim() !== '') columns.model_mapping = jsonText(edit.model_mapping, mappingMessage);
  if (given(edit.models)) columns.models = modelList(edit.models).join(',');
  if (given(edit.groups)) columns.group = groupList(edit.groups).join(',');
  if (edit.priority !== undefined && edit.priority !== null) columns.priority = edit.priority;
  if (edit.weight !== undefined && edit.weight !== null) columns.weight = edit.weight;
  return columns;
}

/**
 * Tag edit: applies the named changes to every channel of the tag; answers how many. An
 * edit that names no change succeeds and writes nothing, as the reference answers it (its
 * console sends `{tag, new_tag: null}` when nothing was changed; ours warns before sending).
 */
export async function editTag(ctx: AppContext, edit: TagEditBody): Promise<number> {
  const tag = (edit.tag ?? '').trim();
  if (!tag) throw new AppError(MSG_CHANNEL_ADMIN.tagEmpty);
  const mapping = channelSchemas(ctx.config.schemasDir).jsonFields.find((f) => f.field === 'model_mapping')!;
  const columns = tagEditColumns(edit, tag, mapping.message);
  const changes = Object.keys(columns).length > 0;
  const ids = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannelsWithTag(trx, ctx.dialect, tag);
    if (locked.length === 0) throw new AppError(MSG.notFound);
    if (changes) {
      await updateChannelColumns(trx, locked, columns);
      await syncAbilities(trx, locked);
    }
    return locked;
  });
  if (changes) channelEvents(ctx).emit('tag', ids);
  return ids.length;
}

/** Enables or disables every channel of a tag; answers how many. */
export async function setTagStatus(ctx: AppContext, tag: string | null | undefined, status: number): Promise<number> {
  const name = (tag ?? '').trim();
  if (!name) throw new AppError(MSG_CHANNEL_ADMIN.badParams);
  const ids = await inTransaction(ctx, async (trx) => {
    const locked = await lockChannelsWithTag(trx, ctx.dialect, name);
    if (locked.length === 0) throw new AppError(MSG.notFound);
    await applyStatus(trx, locked, status);
    return locked;
  });
  channelEvents(ctx).emit('status', ids);
  return ids.length;
}

/** The upstream model list of a stored channel (its own key, never shown). */
export async function fetchChannelModels(ctx: AppContext, id: number): Promise<string[]> {
  const channel = await findChannelSecret(ctx.db, id);
  if (!channel) throw new AppError(MSG.notFound);
  return fetchUpstreamModels({ type: channel.type, baseUrl: channel.base_url, key: channel.key, dispatcher: channelDispatcher(ctx, channel.setting) });
}

/** The upstream model list for a channel being created: first line of the given key. */
export async function fetchModelsFor(ctx: AppContext, body: FetchModelsBody): Promise<string[]> {
  return fetchUpstreamModels({ type: body.type ?? CHANNEL_TYPE.openai, baseUrl: body.base_url ?? '', key: body.key ?? '', dispatcher: channelDispatcher(ctx, body.setting) });
}
