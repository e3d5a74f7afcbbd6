/**
 * The signed-in user's own account under /api/user: profile edits, deletion, system access
 * token, invitations, usable groups and models, notification settings. Plus the public
 * group list a visitor may use.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { clearSession } from '../../auth/session';
import { ok } from '../../plumbing/envelope';
import { AFF_MSG, ensureAffCode, transferAffiliateQuota } from '../../services/users/affiliate.service';
import { usableGroupsWithRatio, usableModels } from '../../services/users/user-groups.service';
import { deleteSelf, regenerateAccessToken, updateSelf } from '../../services/users/user-self.service';
import { saveUserSetting, SETTING_MSG } from '../../services/users/user-setting.service';
import type { RouteDeps } from '../deps';
import { affTransferBody, updateSelfBody, userSettingBody } from './user.schemas';
import { checkedBody, NO_INPUT } from '../route-schemas';

export function userSelfRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    const user = { preHandler: guards.user };

    app.put('/user/self', { ...user, ...checkedBody(updateSelfBody) }, async (request) => {
      const body = updateSelfBody(request.body);
      const auth = authOf(request);
      // A new password ends the user's other sessions; the one that changed it stays.
      await updateSelf(ctx, auth.user, body, auth.sessionId);
      return ok();
    });

    app.delete('/user/self', { ...user, schema: NO_INPUT }, async (request, reply) => {
      await deleteSelf(ctx, authOf(request).user);
      clearSession(reply);
      return ok();
    });

    app.get('/user/token', { ...user, schema: NO_INPUT }, async (request) => ok(await regenerateAccessToken(ctx, authOf(request).id)));

    app.get('/user/aff', { ...user, schema: NO_INPUT }, async (request) => ok(await ensureAffCode(ctx, authOf(request).id)));

    app.post('/user/aff_transfer', { ...user, ...checkedBody(affTransferBody) }, async (request) => {
      const { quota } = affTransferBody(request.body);
      await transferAffiliateQuota(ctx, authOf(request).id, quota);
      return ok(undefined, AFF_MSG.transferred);
    });

    app.get('/user/models', { ...user, schema: NO_INPUT }, async (request) => ok(await usableModels(ctx, authOf(request).group)));

    app.get('/user/self/groups', { ...user, schema: NO_INPUT }, async (request) => ok(usableGroupsWithRatio(ctx, authOf(request).group)));

    // Public: a visitor (no group) sees what a new account could use.
    app.get('/user/groups', { schema: NO_INPUT }, async () => ok(usableGroupsWithRatio(ctx, '')));

    app.put('/user/setting', { ...user, ...checkedBody(userSettingBody) }, async (request) => {
      const body = userSettingBody(request.body);
      await saveUserSetting(ctx, authOf(request).id, body);
      return ok(undefined, SETTING_MSG.saved);
    });
  };
}
