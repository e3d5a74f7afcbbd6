/**
 * The distributor's checks after token authentication (docs/relay.md#distributor-checks), in the
 * reference's order and words: IP allow-list (addresses and CIDR ranges), the token's group
 * (usable by the owner, and priced), a forced channel (admins' `sk-KEY-ID`), model limits,
 * and whether any enabled channel serves the model in the group. Memory only.
 */
import type { AppContext } from '../../context';
import { CHANNEL_STATUS } from '../../../shared/channel-types';
import { readRatioTables } from '../../services/pricing/ratios';
import { usableGroups } from '../../services/users/user-groups.service';
import type { ChannelIndex, RelayChannel } from '../channels/channel-index';
import { refuse } from '../errors';
import type { TokenAuth } from './token-auth';

export interface Distribution {
  /** Effective group: the token's, else the user's. */
  group: string;
  /** The admin's forced channel. */
  forced: RelayChannel | undefined;
}

export function noChannelMessage(group: string, model: string): string {
  return `当前分组 ${group} 下对于模型 ${model} 无可用渠道`;
}

export function checkClientIp(auth: TokenAuth, clientIp: string): void {
  if (auth.token.allowIps && !auth.token.allowIps.allows(clientIp)) throw refuse(403, '您的 IP 不在令牌允许访问的列表中');
}

export function distribute(ctx: AppContext, index: ChannelIndex, auth: TokenAuth, model: string): Distribution {
  const tokenGroup = auth.token.group;
  if (tokenGroup) {
    if (!Object.hasOwn(usableGroups(ctx, auth.user.group), tokenGroup)) throw refuse(403, `令牌分组 ${tokenGroup} 已被禁用`);
    if (!Object.hasOwn(readRatioTables(ctx.options).groupRatio, tokenGroup)) throw refuse(403, `分组 ${tokenGroup} 已被弃用`);
  }
  const group = tokenGroup || auth.user.group;
  if (auth.channelSuffix !== undefined) {
    const id = /^\d+$/.test(auth.channelSuffix) ? Number(auth.channelSuffix) : NaN;
    const forced = Number.isSafeInteger(id) ? index.byId(id) : undefined;
    if (!forced) throw refuse(400, '无效的渠道 Id');
    if (forced.status !== CHANNEL_STATUS.enabled) throw refuse(403, '该渠道已被禁用');
    // Model limits do not apply to a forced channel (an admin's convenience).
    return { group, forced };
  }
  const limits = auth.token.modelLimits;
  if (limits !== undefined) {
    if (limits.size === 0) throw refuse(403, '该令牌无权访问任何模型');
    if (!limits.has(model)) throw refuse(403, `该令牌无权访问模型 ${model}`);
  }
  if (!index.has(group, model)) throw refuse(503, noChannelMessage(group, model), 'model_not_found');
  return { group, forced: undefined };
}
