/**
 * Who submits a task and on which channel: token authentication and the distributor's
 * checks exactly as for every relay request (docs/relay.md#token-authentication), then the first channel
 * of the highest priority tier serving the action's model (or the admin's forced channel).
 */
import type { RelayRequest } from '../pipeline/exchange';
import type { RelayChannel } from '../channels/channel-index';
import type { RelayRuntime } from '../runtime';
import { checkClientIp, distribute, noChannelMessage } from '../pipeline/distribute';
import { authenticateToken, type TokenAuth } from '../pipeline/token-auth';
import { refuse } from '../errors';
import { channelFamily, type ChannelFamily } from '../../../shared/channel-types';
import type { TaskPayer } from './task-ledger';

export interface TaskCaller {
  auth: TokenAuth;
  payer: TaskPayer;
}

export async function authenticateTaskCaller(rt: RelayRuntime, request: RelayRequest): Promise<TaskCaller> {
  const auth = await authenticateToken(rt.ctx, rt.auth, request, false);
  checkClientIp(auth, request.ip);
  const group = auth.token.group || auth.user.group;
  return {
    auth,
    payer: {
      userId: auth.user.id,
      username: auth.user.username,
      tokenId: auth.token.id,
      tokenName: auth.token.name,
      tokenLimited: !auth.token.unlimited,
      group,
    },
  };
}

/**
 * The channel for `model` in the caller's group, among channels of the relay's own family
 * (a chat channel that happens to list `mj_imagine` for its price cannot draw); the
 * distributor's refusals in its words.
 */
export function channelFor(rt: RelayRuntime, caller: TaskCaller, model: string, family: ChannelFamily): RelayChannel {
  const { group, forced } = distribute(rt.ctx, rt.channels, caller.auth, model);
  caller.payer.group = group;
  const ofFamily = (c: RelayChannel) => channelFamily(c.type) === family;
  const channel = forced ?? rt.channels.pick(group, model, 0, new Set(), ofFamily);
  if (!channel || !ofFamily(channel)) throw refuse(503, noChannelMessage(group, model), 'model_not_found');
  return channel;
}
