/**
 * /api routes: the public price list. No login needed; a signed-in caller sees the groups
 * usable to their own group, a visitor those of the default view.
 */
import type { FastifyPluginAsync } from 'fastify';
import { currentSession } from '../../auth/session-store';
import { USER_STATUS_DISABLED } from '../../../shared/roles';
import { pricingFor } from '../../services/pricing/pricing.service';
import type { RouteDeps } from '../deps';
import { NO_INPUT } from '../route-schemas';

export function pricingRoutes({ ctx }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/pricing', { schema: NO_INPUT }, async (request, reply) => {
      // Only a live session counts: an ended one sees the visitor's view.
      const user = (await currentSession(ctx, request, reply))?.user;
      const group = user && user.status !== USER_STATUS_DISABLED ? user.group : '';
      const view = await pricingFor(ctx, group);
      // The console reads group_ratio and usable_group beside data, outside the envelope's data.
      return { success: true, message: '', ...view };
    });
  };
}
