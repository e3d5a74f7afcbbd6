/** /api routes: wallet: redeem, online top-up. (Being written in this session: this module registers no route yet.) */
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps';

export function walletRoutes(_deps: RouteDeps): FastifyPluginAsync {
  return async () => {};
}
