/** /api routes: drawing and music task lists. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function taskRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
