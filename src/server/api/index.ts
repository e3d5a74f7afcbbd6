/** Registers every /api route module. Adding an area = one module and one line here. */
import type { FastifyInstance } from 'fastify';
import { makeGuards } from '../auth/guards';
import type { AppContext } from '../context';
import { rateLimitHook } from '../plumbing/rate-limit';
import type { RouteDeps } from './deps';
import { refuseUnstorableText } from './params';
import { registerOpenApi } from './openapi';
import { accountRoutes } from './accounts/account.routes';
import { auditRoutes } from './audit/audit.routes';
import { channelRoutes } from './channels/channel.routes';
import { dataRoutes } from './data/data.routes';
import { logRoutes } from './logs/log.routes';
import { oauthRoutes } from './oauth/oauth.routes';
import { optionRoutes } from './options/option.routes';
import { pricingRoutes } from './pricing/pricing.routes';
import { redemptionRoutes } from './redemptions/redemption.routes';
import { statusRoutes } from './status/status.routes';
import { taskRoutes } from './tasks/task.routes';
import { tokenRoutes } from './tokens/token.routes';
import { userRoutes } from './users/user.routes';
import { walletRoutes } from './wallet/wallet.routes';

const MODULES = [
  statusRoutes,
  optionRoutes,
  userRoutes,
  accountRoutes,
  oauthRoutes,
  channelRoutes,
  tokenRoutes,
  redemptionRoutes,
  walletRoutes,
  logRoutes,
  taskRoutes,
  pricingRoutes,
  dataRoutes,
  auditRoutes,
];

export async function registerApi(api: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps: RouteDeps = {
    ctx,
    guards: makeGuards(ctx),
    critical: rateLimitHook(ctx.rateLimiter, 'CT', ctx.config.criticalRateLimit),
  };
  // NUL characters and lone surrogates in any text of a request (filters, names, settings)
  // are refused here, once for every route, before a guard or a query reads them.
  api.addHook('preValidation', async (request) => refuseUnstorableText(request));
  await registerOpenApi(api, ctx);
  for (const module of MODULES) {
    await api.register(module(deps));
  }
}
