/** Queries behind the pricing page. */
import type { Executor } from '../../db/executor';

/** Every (model, group) pair served by at least one enabled ability. */
export async function listEnabledModelGroups(db: Executor): Promise<{ model: string; group: string }[]> {
  return db.selectFrom('abilities').select(['model', 'group']).distinct().where('enabled', '=', true).orderBy('model').orderBy('group').execute();
}
