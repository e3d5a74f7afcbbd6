/**
 * /api/audit/: the audit log of administrative changes (administrators only), paged like
 * every list and filtered by actor (user name), kind and time range.
 */
import type { FastifyPluginAsync } from 'fastify';
import { parsePageRequest } from '../../../shared/api/envelope';
import { ok } from '../../plumbing/envelope';
import { listAuditPage } from '../../services/audit/audit.repository';
import { AUDIT_KINDS } from '../../services/audit/audit.trail';
import { INTEGER_PARAM, type EnumParam, listQuerySchema, nonZeroFilter, TEXT_PARAM, textFilter } from '../../services/logs/filtered-list';
import type { RouteDeps } from '../deps';

interface AuditQuery {
  p?: string;
  page_size?: string;
  actor?: string;
  kind?: string;
  start_timestamp?: string;
  end_timestamp?: string;
}

// A kind the log never holds is a mistake of the caller (400), not an empty page.
const KIND_PARAM: EnumParam = { type: 'string', enum: ['', ...AUDIT_KINDS] };
const auditQuery = {
  querystring: listQuerySchema({ actor: TEXT_PARAM, kind: KIND_PARAM, start_timestamp: INTEGER_PARAM, end_timestamp: INTEGER_PARAM }),
};

export function auditRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: AuditQuery }>('/audit/', { preValidation: guards.admin, schema: auditQuery }, async (request) => {
      const q = request.query;
      const filter = { actor: textFilter(q.actor), kind: textFilter(q.kind), start: nonZeroFilter(q.start_timestamp), end: nonZeroFilter(q.end_timestamp) };
      return ok(await listAuditPage(ctx.db, filter, parsePageRequest(q)));
    });
  };
}
