/**
 * /api routes: usage logs. Administrators use /log/ (every user, channel filter), everyone
 * else /log/self/ (always their own); both have a stat companion and a keyword search.
 * DELETE /log/ cleans old logs. /log/token is the public usage lookup for someone who only
 * has an API key: that token's logs, as its owner sees them, without a session.
 */
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { INT32_PARAM, INTEGER_PARAM, listQuerySchema, TEXT_PARAM } from '../../services/logs/filtered-list';
import { exportLogsCsv } from '../../services/logs/log.export';
import { deleteLogsOlderThan, listLogsFor, logStatFor, searchLogsFor, tokenScopeOfKey, type LogQuery, type LogSearchQuery } from '../../services/logs/log.service';
import type { RouteDeps } from '../deps';
import { describedFields, NO_INPUT } from '../route-schemas';

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
const searchQuery = { querystring: listQuerySchema({ keyword: TEXT_PARAM }) };
const { token_name: _byName, ...TOKEN_FILTERS } = SELF_FILTERS;
// Any key text is read (and refused as an unknown token when it is none), never a 400.
const tokenQuery = { querystring: { type: 'object', properties: { ...TOKEN_FILTERS, key: { type: 'string' } } } as const };

/**
 * The key of the usage lookup: `Authorization: Bearer sk-…` (kept out of addresses, so out of
 * proxies' logs), else `?key=` as the reference's clients send it. Our own logs never carry
 * query strings, and no reply repeats the key.
 */
function presentedKey(request: FastifyRequest<{ Querystring: { key?: string } }>): string {
  const header = request.headers.authorization?.trim();
  return header ? header : (request.query.key ?? '');
}

/**
 * CORS of the usage lookup (the reference opens it to every origin): any origin may read
 * it, never with credentials, since the key in the request is the whole authority.
 */
function allowAnyOrigin(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin === undefined) return;
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Vary', 'Origin');
}

/** Replies a CSV stream as a download named after the moment it was asked for. */
function sendCsv(reply: FastifyReply, csv: Readable): FastifyReply {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="logs-${stamp}.csv"`).header('Cache-Control', 'no-store').send(csv);
}

export function logRoutes({ ctx, guards, critical }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: LogQuery }>('/log/', { preValidation: guards.admin, schema: adminQuery }, async (request) => ok(await listLogsFor(ctx, request.query, { admin: true })));
    app.get<{ Querystring: LogQuery }>('/log/stat', { preValidation: guards.admin, schema: adminQuery }, async (request) => ok(await logStatFor(ctx, request.query, { admin: true })));
    app.get<{ Querystring: LogQuery }>('/log/self/', { preValidation: guards.user, schema: selfQuery }, async (request) =>
      ok(await listLogsFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    app.get<{ Querystring: LogQuery }>('/log/self/stat', { preValidation: guards.user, schema: selfQuery }, async (request) =>
      ok(await logStatFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    // CSV downloads of the same filters, streamed (services/logs/log.export.ts).
    app.get<{ Querystring: LogQuery }>('/log/export', { preValidation: guards.admin, schema: adminQuery }, async (request, reply) =>
      sendCsv(reply, exportLogsCsv(ctx, request.query, { admin: true })),
    );
    app.get<{ Querystring: LogQuery }>('/log/self/export', { preValidation: guards.user, schema: selfQuery }, async (request, reply) =>
      sendCsv(reply, exportLogsCsv(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    app.delete<{ Querystring: { target_timestamp?: unknown } }>(
      '/log/',
      { preValidation: guards.admin, schema: { querystring: describedFields({ target_timestamp: 'Delete logs created before this unix time (seconds)' }) } },
      async (request) => ok(await deleteLogsOlderThan(ctx, request.query.target_timestamp)),
    );
    app.get<{ Querystring: LogSearchQuery }>('/log/search', { preValidation: guards.admin, schema: searchQuery }, async (request) => ok(await searchLogsFor(ctx, request.query, { admin: true })));
    app.get<{ Querystring: LogSearchQuery }>('/log/self/search', { preValidation: guards.user, schema: searchQuery }, async (request) =>
      ok(await searchLogsFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    // Public (the key is the credential), in the critical rate limit as the reference puts
    // it, so keys cannot be tried at the pace of the general limit.
    app.get<{ Querystring: LogQuery & { key?: string } }>('/log/token', { onRequest: [async (request, reply) => allowAnyOrigin(request, reply), critical], schema: tokenQuery }, async (request) => {
      const scope = await tokenScopeOfKey(ctx, presentedKey(request));
      return ok(await listLogsFor(ctx, request.query, scope));
    });
    app.options('/log/token', { schema: NO_INPUT }, async (request, reply) => {
      allowAnyOrigin(request, reply);
      if (request.headers.origin !== undefined) {
        reply.header('Access-Control-Allow-Methods', 'GET, OPTIONS');
        reply.header('Access-Control-Allow-Headers', 'Authorization');
        reply.header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    });
  };
}
