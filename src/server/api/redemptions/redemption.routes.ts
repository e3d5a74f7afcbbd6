/**
 * /api/redemption: redemption codes (administrators). Bodies are checked against
 * schemas/entities/redemption.json.
 */
import type { FastifyPluginAsync } from 'fastify';
import { parsePageRequest } from '../../../shared/api/envelope';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { bodyValidator, loadEntitySchema, statusBodyValidator } from '../../plumbing/entity-schema';
import {
  createRedemptions,
  deleteRedemption,
  getRedemption,
  listRedemptionPage,
  setRedemptionStatus,
  updateRedemption,
  type NewRedemptionsInput,
  type RedemptionFields,
} from '../../services/redemptions/redemption.service';
import type { AuditEvent } from '../../services/audit/audit.trail';
import type { RouteDeps } from '../deps';
import { isStatusOnly, parseIdParam, queryText } from '../params';
import { checkedBody, ID_PARAMS, STATUS_ONLY_PUT, PAGE_QUERY, pageQueryWith } from '../route-schemas';

export function redemptionRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  const schema = loadEntitySchema(ctx.config.schemasDir, 'redemption');
  const createBody = bodyValidator<NewRedemptionsInput>(schema, { mode: 'create', required: ['quota'] });
  const updateBody = bodyValidator<RedemptionFields & { id: number }>(schema, { mode: 'update', keep: ['id'], required: ['id'] });
  const statusBody = statusBodyValidator(schema);

  return async (app) => {
    app.addHook('preHandler', guards.admin);

    app.get('/redemption/', { schema: PAGE_QUERY }, async (request) => ok(await listRedemptionPage(ctx, '', parsePageRequest(request.query as object))));

    app.get('/redemption/search', { schema: pageQueryWith('keyword') }, async (request) =>
      ok(await listRedemptionPage(ctx, queryText(request.query, 'keyword'), parsePageRequest(request.query as object))),
    );

    app.get<{ Params: { id: string } }>('/redemption/:id', { schema: ID_PARAMS }, async (request) => ok(await getRedemption(ctx, parseIdParam(request.params.id))));

    // Every write is recorded in the audit log (the codes themselves masked).
    const event = (action: string, target?: number): AuditEvent => ({ kind: 'redemption', action, target });
    const row = (id: number) => ({ load: ctx.audit.row('redemptions', id) });

    app.post('/redemption/', checkedBody(createBody), async (request) => {
      const body = createBody(request.body);
      const made = { after: (keys: string[]) => ({ ...body, created: keys.length }) };
      return ok(await ctx.audit.around(request, event('create'), made, () => createRedemptions(ctx, authOf(request).id, body)));
    });

    app.put('/redemption/', checkedBody([updateBody, statusBody], STATUS_ONLY_PUT), async (request) => {
      if (isStatusOnly(request.query)) {
        const body = statusBody(request.body);
        return ok(await ctx.audit.around(request, event('status', body.id), row(body.id), () => setRedemptionStatus(ctx, body.id, body.status)));
      }
      const { id, ...fields } = updateBody(request.body);
      return ok(await ctx.audit.around(request, event('update', id), row(id), () => updateRedemption(ctx, id, fields)));
    });

    app.delete<{ Params: { id: string } }>('/redemption/:id', { schema: ID_PARAMS }, async (request) => {
      const id = parseIdParam(request.params.id);
      await ctx.audit.around(request, event('delete', id), row(id), () => deleteRedemption(ctx, id));
      return ok();
    });
  };
}
