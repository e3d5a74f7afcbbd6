/**
 * /api/token: the caller's own API tokens (any logged-in user; every role sees only its own).
 * Bodies are checked against schemas/entities/token.json.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { parsePageRequest } from '../../../shared/api/envelope';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { bodyValidator, statusBodyValidator } from '../../plumbing/entity-schema';
import type { TokenFields } from '../../services/tokens/token.fields';
import { createTokens, deleteToken, getToken, listTokens, setTokenStatus, tokenSearchFilter, updateToken, type NewTokensInput } from '../../services/tokens/token.service';
import { ROLE_ADMIN } from '../../../shared/roles';
import type { AuditSides } from '../../services/audit/audit.trail';
import type { TokenJson } from '../../services/tokens/token.serializer';
import { tokenSchema } from '../../services/tokens/token.schema';
import type { RouteDeps } from '../deps';
import { isStatusOnly, parseIdParam, queryText } from '../params';
import { checkedBody, ID_PARAMS, STATUS_ONLY_PUT, PAGE_QUERY, pageQueryWith } from '../route-schemas';

export function tokenRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  const schema = tokenSchema(ctx.config.schemasDir).entity;
  const createBody = bodyValidator<NewTokensInput>(schema, { mode: 'create' });
  const updateBody = bodyValidator<TokenFields & { id: number }>(schema, { mode: 'update', keep: ['id'], required: ['id'] });
  const statusBody = statusBodyValidator(schema);

  return async (app) => {
    app.addHook('preHandler', guards.user);
    const owner = (request: Parameters<typeof authOf>[0]) => {
      const auth = authOf(request);
      return { id: auth.id, group: auth.group };
    };
    // An administrator's token writes are recorded in the audit log; other users' are not
    // administrative changes.
    const audited = <T>(request: FastifyRequest, action: string, sides: AuditSides<T>, write: () => Promise<T>, target?: number): Promise<T> =>
      authOf(request).role >= ROLE_ADMIN ? ctx.audit.around(request, { kind: 'token', action, target }, sides, write) : write();

    app.get('/token/', { schema: PAGE_QUERY }, async (request) => ok(await listTokens(ctx, owner(request), {}, parsePageRequest(request.query as object))));

    app.get('/token/search', { schema: pageQueryWith('keyword', 'token') }, async (request) => {
      const filter = tokenSearchFilter(queryText(request.query, 'keyword'), queryText(request.query, 'token'));
      return ok(await listTokens(ctx, owner(request), filter, parsePageRequest(request.query as object)));
    });

    app.get<{ Params: { id: string } }>('/token/:id', { schema: ID_PARAMS }, async (request) => ok(await getToken(ctx, owner(request), parseIdParam(request.params.id))));

    app.post('/token/', checkedBody(createBody), async (request) => {
      const body = createBody(request.body);
      const made = { after: () => ({ ...body }), target: (tokens: TokenJson[]) => tokens.map((t) => t.id) };
      return ok(await audited(request, 'create', made, () => createTokens(ctx, owner(request), body)));
    });

    app.put('/token/', checkedBody([updateBody, statusBody], STATUS_ONLY_PUT), async (request) => {
      if (isStatusOnly(request.query)) {
        const body = statusBody(request.body);
        const load = { load: ctx.audit.row('tokens', body.id) };
        return ok(await audited(request, 'status', load, () => setTokenStatus(ctx, owner(request), body.id, body.status), body.id));
      }
      const { id, ...fields } = updateBody(request.body);
      return ok(await audited(request, 'update', { load: ctx.audit.row('tokens', id) }, () => updateToken(ctx, owner(request), id, fields), id));
    });

    app.delete<{ Params: { id: string } }>('/token/:id', { schema: ID_PARAMS }, async (request) => {
      const id = parseIdParam(request.params.id);
      await audited(request, 'delete', { load: ctx.audit.row('tokens', id) }, () => deleteToken(ctx, owner(request), id), id);
      return ok();
    });
  };
}
