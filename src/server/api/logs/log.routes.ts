/**
 * /api routes: usage logs. Administrators use /log/ (every user, channel filter), everyone
 * else /log/self/ (always their own); both have a stat companion. DELETE /log/ cleans old
 * logs.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { INT32_PARAM, INTEGER_PARAM, listQuerySchema, TEXT_PARAM } from '../../services/logs/filtered-list';
import { deleteLogsOlderThan, listLogsFor, logStatFor, type LogQuery } from '../../services/logs/log.service';
import type { RouteDeps } from '../deps';

const SELF_FILTERS = {
  type: INT32_PARAM,
  token_name: TEXT_PARAM,
  model_name: TEXT_PARAM,
  start_timestamp: INTEGER_PARAM,
  end_timestamp: INTEGER_PARAM,
  group: TEXT_PARAM,
};
const adminQuery = { querystring: listQuerySchema({ ...SELF_FILTERS, username: TEXT_PARAM, channel: INT32_PARAM }) };
const selfQuery = { querystring: listQuerySchema(SELF_FILTERS) };

export function logRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: LogQuery }>('/log/', { preValidation: guards.admin, schema: adminQuery }, async (request) =>
      ok(await listLogsFor(ctx, request.query, { admin: true })),
    );
    app.get<{ Querystring: LogQuery }>('/log/stat', { preValidation: guards.admin, schema: adminQuery }, async (request) =>
      ok(await logStatFor(ctx, request.query, { admin: true })),
    );
    app.get<{ Querystring: LogQuery }>('/log/self/', { preValidation: guards.user, schema: selfQuery }, async (request) =>
      ok(await listLogsFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    app.get<{ Querystring: LogQuery }>('/log/self/stat', { preValidation: guards.user, schema: selfQuery }, async (request) =>
      ok(await logStatFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    app.delete<{ Querystring: { target_timestamp?: unknown } }>('/log/', { preValidation: guards.admin }, async (request) =>
      ok(await deleteLogsOlderThan(ctx, request.query.target_timestamp)),
    );
  };
}
