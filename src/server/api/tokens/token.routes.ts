/** /api routes: API tokens. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function tokenRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
