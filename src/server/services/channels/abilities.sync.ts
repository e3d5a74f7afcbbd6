/**
 * The abilities index: one row per (group, model, channel), the cross product of a
 * channel's groups and models, enabled when the channel's status is 1, with the channel's
 * priority, weight and tag (docs/channels.md#abilities). Channel writes call these inside
 * their own transaction, so the index never differs from what the channels say.
 */
import type { Insertable } from 'kysely';
import type { DialectName } from '../../db/connect';
import type { AbilitiesTable } from '../../db/tables';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import type { Executor } from '../../db/executor';
import { splitNames } from './channel.input';

/** Rows per INSERT: 7 parameters each stays far below every database's limit. */
const INSERT_CHUNK = 100;
/** Ids per IN list and channels read per batch during a full rebuild. */
const ID_CHUNK = 500;

interface AbilitySource {
  id: number;
  models: string | null;
  group: string | null;
  status: number;
  priority: number;
  weight: number;
  tag: string | null;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The abilities a channel implies. */
export function abilityRowsFor(channel: AbilitySource): Insertable<AbilitiesTable>[] {
  const rows: Insertable<AbilitiesTable>[] = [];
  const enabled = channel.status === CHANNEL_STATUS.enabled;
  const tag = channel.tag ? channel.tag : null;
  for (const group of splitNames(channel.group)) {
    for (const model of splitNames(channel.models)) {
      rows.push({ group, model, channel_id: channel.id, enabled, priority: Number(channel.priority), weight: Number(channel.weight), tag });
    }
  }
  return rows;
}

async function insertAbilities(db: Executor, channels: AbilitySource[]): Promise<number> {
  const rows = channels.flatMap(abilityRowsFor);
  for (const chunk of chunks(rows, INSERT_CHUNK)) await db.insertInto('abilities').values(chunk).execute();
  return rows.length;
}

function selectSources(db: Executor) {
  return db.selectFrom('channels').select(['id', 'models', 'group', 'status', 'priority', 'weight', 'tag']);
}

export async function deleteAbilities(db: Executor, channelIds: readonly number[]): Promise<void> {
  for (const ids of chunks(channelIds, ID_CHUNK)) await db.deleteFrom('abilities').where('channel_id', 'in', ids).execute();
}

/** Replaces the abilities of these channels with what their rows say now (deleted channels keep none). */
export async function syncAbilities(db: Executor, channelIds: readonly number[]): Promise<void> {
  await deleteAbilities(db, channelIds);
  for (const ids of chunks(channelIds, ID_CHUNK)) {
    await insertAbilities(db, await selectSources(db).where('id', 'in', ids).execute());
  }
}

/**
 * Derives the whole index again: every channel's abilities are replaced batch by batch
 * (each batch's rows locked first on PostgreSQL/MySQL, so a concurrent edit of a channel
 * is either fully before or fully after), then abilities of channels that no longer exist
 * are dropped. Channels created meanwhile keep the abilities their creation wrote.
 * Answers the number of channels.
 */
export async function rebuildAllAbilities(db: Executor, dialect: DialectName): Promise<number> {
  let count = 0;
  let after = 0;
  for (;;) {
    let query = selectSources(db).where('id', '>', after).orderBy('id').limit(ID_CHUNK);
    if (dialect !== 'sqlite') query = query.forUpdate();
    const batch = await query.execute();
    if (batch.length === 0) break;
    await deleteAbilities(
      db,
      batch.map((c) => c.id),
    );
    await insertAbilities(db, batch);
    count += batch.length;
    after = batch[batch.length - 1]!.id;
  }
  await db.deleteFrom('abilities').where('channel_id', 'not in', db.selectFrom('channels').select('channels.id')).execute();
  return count;
}
