/**
 * /api routes: drawing (Midjourney) and music (Suno) task lists. Administrators use /mj/
 * and /task/ (every user, channel filter), everyone else /mj/self and /task/self.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { INT32_PARAM, INTEGER_PARAM, listQuerySchema, TEXT_PARAM } from '../../services/logs/filtered-list';
import { listMidjourneysFor, listTasksFor, type MidjourneyQuery, type TaskQuery } from '../../services/tasks/task.service';
import type { RouteDeps } from '../deps';

const TIME_FILTERS = { start_timestamp: INTEGER_PARAM, end_timestamp: INTEGER_PARAM };
const MJ_SELF = { mj_id: TEXT_PARAM, ...TIME_FILTERS };
const TASK_SELF = { task_id: TEXT_PARAM, platform: TEXT_PARAM, status: TEXT_PARAM, action: TEXT_PARAM, ...TIME_FILTERS };

export function taskRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: MidjourneyQuery }>('/mj/', { preValidation: guards.admin, schema: { querystring: listQuerySchema({ ...MJ_SELF, channel_id: INT32_PARAM }) } }, async (request) =>
      ok(await listMidjourneysFor(ctx, request.query, { admin: true })),
    );
    app.get<{ Querystring: MidjourneyQuery }>('/mj/self', { preValidation: guards.user, schema: { querystring: listQuerySchema(MJ_SELF) } }, async (request) =>
      ok(await listMidjourneysFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
    app.get<{ Querystring: TaskQuery }>('/task/', { preValidation: guards.admin, schema: { querystring: listQuerySchema({ ...TASK_SELF, channel_id: INT32_PARAM }) } }, async (request) =>
      ok(await listTasksFor(ctx, request.query, { admin: true })),
    );
    app.get<{ Querystring: TaskQuery }>('/task/self', { preValidation: guards.user, schema: { querystring: listQuerySchema(TASK_SELF) } }, async (request) =>
      ok(await listTasksFor(ctx, request.query, { admin: false, userId: authOf(request).id })),
    );
  };
}
