/**
 * User administration under /api/user (admins, role 10 and up) and the group list
 * /api/group/. Rules live in services/users/user-admin.service.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { AppError, MSG } from '../../errors';
import { ok } from '../../plumbing/envelope';
import { parsePageRequest } from '../../../shared/api/envelope';
import { createUserByAdmin, getUserForAdmin, hardDeleteUserByAdmin, listUsersPage, manageUser, updateUserByAdmin } from '../../services/users/user-admin.service';
import { groupNames } from '../../services/users/user-groups.service';
import type { AuditEvent } from '../../services/audit/audit.trail';
import type { UserJson } from '../../services/users/user.serializer';
import type { RouteDeps } from '../deps';
import { createUserBody, manageUserBody, updateUserBody } from './user.schemas';
import { checkedBody, ID_PARAMS, NO_INPUT, PAGE_QUERY, pageQueryWith } from '../route-schemas';

interface PageQuery {
  p?: string;
  page_size?: string;
}

/** A user id from the path; anything but a positive integer is refused. */
function pathId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw new AppError(MSG.invalidParams);
  return Number(raw);
}

export function userAdminRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preHandler', guards.admin);

    app.get<{ Querystring: PageQuery }>('/user/', { schema: PAGE_QUERY }, async (request) => {
      return ok(await listUsersPage(ctx, {}, parsePageRequest(request.query)));
    });

    app.get<{ Querystring: PageQuery & { keyword?: string; group?: string } }>('/user/search', { schema: pageQueryWith('keyword', 'group') }, async (request) => {
      const { keyword, group } = request.query;
      const filter = { keyword: typeof keyword === 'string' ? keyword : '', group: typeof group === 'string' ? group : '' };
      return ok(await listUsersPage(ctx, filter, parsePageRequest(request.query)));
    });

    app.get<{ Params: { id: string } }>('/user/:id', { schema: ID_PARAMS }, async (request) => {
      return ok(await getUserForAdmin(ctx, authOf(request), pathId(request.params.id)));
    });

    // Every write is recorded in the audit log: the user's row before and after (password
    // and access token masked), or the created account.
    const event = (action: string, target?: number): AuditEvent => ({ kind: 'user', action, target });
    const row = (id: number) => ({ load: ctx.audit.row('users', id) });

    app.post('/user/', checkedBody(createUserBody), async (request) => {
      const body = createUserBody(request.body);
      const made = { after: (user: UserJson) => ({ ...user }), target: (user: UserJson) => user.id };
      return ok(await ctx.audit.around(request, event('create'), made, () => createUserByAdmin(ctx, authOf(request), body)));
    });

    app.put('/user/', checkedBody(updateUserBody), async (request) => {
      const body = updateUserBody(request.body);
      const id = body.id;
      return ok(await ctx.audit.around(request, event('update', id), row(id), () => updateUserByAdmin(ctx, authOf(request), body)));
    });

    app.post('/user/manage', checkedBody(manageUserBody), async (request) => {
      const { id, action } = manageUserBody(request.body);
      return ok(await ctx.audit.around(request, event(`manage_${action}`, id), row(id), () => manageUser(ctx, authOf(request), id, action)));
    });

    app.delete<{ Params: { id: string } }>('/user/:id', { schema: ID_PARAMS }, async (request) => {
      const id = pathId(request.params.id);
      await ctx.audit.around(request, event('delete', id), row(id), () => hardDeleteUserByAdmin(ctx, authOf(request), id));
      return ok();
    });

    app.get('/group/', { schema: NO_INPUT }, async () => ok(groupNames(ctx)));
  };
}
