/** /api routes: register, verification, password reset and email binding. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function accountRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
