/**
 * Groups a user may use (docs/users.md#groups): the option UserUsableGroups (group → description)
 * plus the user's own group, and the models those groups reach through enabled abilities.
 */
import type { AppContext } from '../../context';
import { listEnabledModels } from './user.repository';

export interface GroupInfo {
  ratio: number;
  desc: string;
}

/**
 * Usable groups of a user in group `userGroup` ('' for a visitor): a copy of
 * UserUsableGroups; a visitor also gets `default`, and a user whose own group is not
 * offered gets it added, since it is where an administrator placed them.
 */
export function usableGroups(ctx: AppContext, userGroup: string): Record<string, string> {
  const groups = { ...ctx.options.json<Record<string, string>>('UserUsableGroups') };
  if (userGroup === '' && !('default' in groups)) groups.default = 'default';
  if (userGroup !== '' && !(userGroup in groups)) groups[userGroup] = '用户分组';
  return groups;
}

/** Usable groups that also have a ratio, with that ratio and their description. */
export function usableGroupsWithRatio(ctx: AppContext, userGroup: string): Record<string, GroupInfo> {
  const ratios = groupRatios(ctx);
  const out: Record<string, GroupInfo> = {};
  for (const [name, desc] of Object.entries(usableGroups(ctx, userGroup))) {
    const ratio = ratios[name];
    if (ratio !== undefined) out[name] = { ratio, desc };
  }
  return out;
}

export function groupRatios(ctx: AppContext): Record<string, number> {
  return ctx.options.json<Record<string, number>>('GroupRatio');
}

/** Every group name that has a ratio (the admin group picker). */
export function groupNames(ctx: AppContext): string[] {
  return Object.keys(groupRatios(ctx));
}

/** Distinct models that enabled channels serve in any group usable by the user. */
export async function usableModels(ctx: AppContext, userGroup: string): Promise<string[]> {
  return listEnabledModels(ctx.db, Object.keys(usableGroups(ctx, userGroup)));
}
