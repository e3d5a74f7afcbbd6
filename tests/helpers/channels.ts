/**
 * A channel row written straight into the database, for tests that seed before a server starts
 * (or beside one): the nullable text columns the console leaves empty are null, and with
 * `abilities` the channel's abilities are written too, so the relay can route to it.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ChannelsTable, Database } from '../../src/server/db/tables';
import { abilityRowsFor } from '../../src/server/services/channels/abilities.sync';

const UNSET = { open_ai_organization: null, test_model: null, model_mapping: null, status_code_mapping: null, tag: null, setting: null, param_override: null } as const;

type ChannelSeed = Omit<Insertable<ChannelsTable>, keyof typeof UNSET> & Partial<Pick<Insertable<ChannelsTable>, keyof typeof UNSET>> & { name: string };

export async function insertChannel(db: Kysely<Database>, row: ChannelSeed, { abilities = false } = {}): Promise<Selectable<ChannelsTable>> {
  await db
    .insertInto('channels')
    .values({ ...UNSET, ...row })
    .execute();
  const channel = await db.selectFrom('channels').selectAll().where('name', '=', row.name).orderBy('id', 'desc').executeTakeFirstOrThrow();
  if (abilities) await db.insertInto('abilities').values(abilityRowsFor(channel)).execute();
  return channel;
}
