/** /api routes: pricing, models and groups. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function pricingRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
