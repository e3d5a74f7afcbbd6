/** Registers every /api route module. Adding an area = one module and one line here. */
import type { FastifyInstance } from 'fastify';
import { makeGuards } from '../auth/guards';
import type { AppContext } from '../context';
import { rateLimitHook } from '../plumbing/rate-limit';
import type { RouteDeps } from './deps';
import { optionRoutes } from './options/option.routes';
import { statusRoutes } from './status/status.routes';
import { userRoutes } from './users/user.routes';

export async function registerApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps: RouteDeps = {
    ctx,
    guards: makeGuards(ctx),
    critical: rateLimitHook(ctx.rateLimiter, 'CT', ctx.config.criticalRateLimit),
  };
  for (const module of [statusRoutes, optionRoutes, userRoutes]) {
    await api.register(module(deps));
  }
}
