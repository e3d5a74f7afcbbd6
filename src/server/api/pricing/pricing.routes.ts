/**
 * /api routes: the public price list. No login needed; a signed-in caller sees the groups
 * usable to their own group, a visitor those of the default view.
 */
import type { FastifyPluginAsync } from 'fastify';
import { readSession } from '../../auth/session';
import { USER_STATUS_DISABLED } from '../../../shared/roles';
import { pricingFor } from '../../services/pricing/pricing.service';
import { findUserById } from '../../services/users/user.repository';
import type { RouteDeps } from '../deps';

export function pricingRoutes({ ctx }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/pricing', async (request) => {
      const { id } = readSession(request);
      const user = id ? await findUserById(ctx.db, id) : undefined;
      const group = user && user.status !== USER_STATUS_DISABLED ? user.group : '';
      const view = await pricingFor(ctx, group);
      // The console reads group_ratio and usable_group beside data, outside the envelope's data.
      return { success: true, message: '', ...view };
    });
  };
}
