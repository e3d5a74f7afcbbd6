/**
 * /api/option: read and write the options catalogue. Admins (role 10) may read and change
 * every key not marked x-root; root-level keys need role 100 (the seeds give admins the
 * settings page and reserve system-wide settings for root).
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { ok } from '../../plumbing/envelope';
import { AppError, MSG } from '../../errors';
import type { RouteDeps } from '../deps';

const optionBody = {
  type: 'object',
  required: ['key', 'value'],
  properties: { key: { type: 'string', minLength: 1 }, value: {} },
  additionalProperties: false,
} as const;

export function optionRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/option/', { preHandler: guards.admin }, async () => ok(ctx.options.list()));

    app.put<{ Body: { key: string; value: unknown } }>('/option/', { preHandler: guards.admin, schema: { body: optionBody } }, async (request) => {
      const { key, value } = request.body;
      if (typeof value !== 'string') throw new AppError(MSG.invalidParams, 400);
      await ctx.options.set(key, value, authOf(request).role);
      return ok();
    });

    app.post('/option/rest_model_ratio', { preHandler: guards.admin }, async (request) => {
      // The built-in table is the schema's default for the key (schemas/options).
      await ctx.options.set('ModelRatio', ctx.options.def('ModelRatio')!.defaultText, authOf(request).role);
      return ok(undefined, '重置模型倍率成功');
    });
  };
}
