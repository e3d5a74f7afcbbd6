/**
 * The console's playground, POST /pg/chat/completions (docs/relay.md#playground): the signed-in
 * user (session cookie + New-Api-User, never a system access token) chats in a group they may
 * use; no token is involved, so only the user's quota is reserved and charged, and the log
 * names the token `playground-<group>`. No distributor checks, no model rate limit.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, MSG } from '../../errors';
import { readSession } from '../../auth/session';
import { requireRole } from '../../auth/guards';
import { ROLE_COMMON } from '../../../shared/roles';
import { usableGroups } from '../../services/users/user-groups.service';
import { refuse, RelayError } from '../errors';
import type { RelayRuntime } from '../runtime';
import type { Caller } from './call';
import { ENDPOINTS } from './endpoints';
import { readRelayBody, runCall } from './relay';

/** Console auth failures in the relay's shape: who may not, 401; banned or too low, 403. */
function asRelayError(err: AppError): RelayError {
  const status = err.status === 401 ? 401 : err.message === MSG.banned || err.message === MSG.forbidden ? 403 : err.status >= 400 ? err.status : 401;
  return refuse(status, err.message);
}

export async function relayPlayground(rt: RelayRuntime, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { ctx } = rt;
  if (!readSession(request).id && request.headers.authorization) throw refuse(400, '暂不支持使用 access token', 'access_token_not_supported');
  try {
    await requireRole(ctx, ROLE_COMMON).call(request.server, request, reply);
  } catch (err) {
    if (err instanceof AppError) throw asRelayError(err);
    throw err;
  }
  const user = request.auth!;
  const read = await readRelayBody(ENDPOINTS.chat, request);
  // The body loses `group` below, so the client's bytes no longer stand for it.
  const parsed = { ...read, raw: undefined };
  const model = typeof parsed.body.model === 'string' ? parsed.body.model.trim() : '';
  if (!model) throw refuse(400, '请选择模型', 'model_required');
  const asked = typeof parsed.body.group === 'string' ? parsed.body.group.trim() : '';
  const group = asked || user.group;
  if (asked && asked !== user.group && !Object.hasOwn(usableGroups(ctx, user.group), asked)) throw refuse(403, '无权访问该分组', 'group_not_allowed');
  // `group` is the playground's own field: no upstream knows it.
  delete parsed.body.group;
  ENDPOINTS.chat.validate(parsed.body);
  if (!rt.channels.has(group, model)) throw refuse(500, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, 'get_playground_channel_failed');
  let setting: Record<string, unknown> = {};
  try {
    setting = JSON.parse(user.user.setting || '{}') as Record<string, unknown>;
  } catch {
    // unreadable settings: defaults
  }
  const caller: Caller = {
    userId: user.id,
    username: user.username,
    userGroup: user.group,
    role: user.role,
    acceptUnset: setting.accept_unset_model_ratio_model === true,
    userSetting: setting,
    tokenId: 0,
    tokenName: `playground-${group}`,
    tokenLimited: false,
    group,
    forced: undefined,
  };
  await runCall(rt, ENDPOINTS.chat, request, reply, caller, parsed, model);
}
