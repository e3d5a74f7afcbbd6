/** /api routes: dashboard data (usage per model and hour). */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { quotaDataForAdmin, quotaDataForUser, type DataQuery } from '../../services/dashboard/dashboard.service';
import { INTEGER_PARAM, TEXT_PARAM } from '../../services/logs/filtered-list';
import type { RouteDeps } from '../deps';

const TIME_RANGE = { start_timestamp: INTEGER_PARAM, end_timestamp: INTEGER_PARAM };

export function dataRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: DataQuery }>(
      '/data/',
      { preValidation: guards.admin, schema: { querystring: { type: 'object', properties: { ...TIME_RANGE, username: TEXT_PARAM } } } },
      async (request) => ok(await quotaDataForAdmin(ctx, request.query)),
    );
    app.get<{ Querystring: DataQuery }>(
      '/data/self',
      { preValidation: guards.user, schema: { querystring: { type: 'object', properties: TIME_RANGE } } },
      async (request) => ok(await quotaDataForUser(ctx, authOf(request).id, request.query)),
    );
  };
}
