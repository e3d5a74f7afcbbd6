/** /api routes: third-party login and binding. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function oauthRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
