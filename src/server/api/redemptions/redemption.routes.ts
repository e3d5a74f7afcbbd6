/** /api routes: redemption codes. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function redemptionRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
