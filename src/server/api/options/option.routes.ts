/**
 * /api/option: read and write the options catalogue. Admins (role 10) may read and change
 * every key not marked x-root; root-level keys need role 100 (docs/options.md#permissions: admins get the
 * settings page, system-wide settings stay with root).
 */
import type { FastifyPluginAsync } from 'fastify';
import { authOf } from '../../auth/guards';
import { schemaBodyChecker } from '../../plumbing/body-checker';
import { ok } from '../../plumbing/envelope';
import { AppError, MSG } from '../../errors';
import type { AuditEvent } from '../../services/audit/audit.trail';
import type { RouteDeps } from '../deps';
import { checkedBody, NO_INPUT } from '../route-schemas';

const optionBody = schemaBodyChecker<{ key: string; value?: unknown }>({
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1 }, value: {} },
  additionalProperties: false,
});

export function optionRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  // A secret option's value is masked in the audit log (whether it changed is still recorded).
  const optionEvent = (action: string, key: string): AuditEvent => ({
    kind: 'option',
    action,
    target: key,
    ...(ctx.options.catalogue.keys.get(key)?.secret ? { secretFields: ['value'] } : {}),
  });
  const optionSides = (key: string) => ({ load: async () => ({ value: ctx.options.get(key) }) });

  return async (app) => {
    // Secrets are left out of the list (see OptionsService.list); the console reads whether
    // each one is set here.
    app.get('/option/', { preHandler: guards.admin, schema: NO_INPUT }, async () => ok(ctx.options.list()));
    app.get('/option/secrets', { preHandler: guards.admin, schema: NO_INPUT }, async () => ok(ctx.options.secretStatus()));

    app.put('/option/', { preHandler: guards.admin, ...checkedBody(optionBody) }, async (request) => {
      const body = optionBody(request.body);
      // No value (or null) is the empty text, as the reference's JSON binder reads it, except
      // for a secret, which it leaves as it is (OptionsService.set): the reference's console
      // sends a secret it never loaded (GET leaves secrets out) without a value.
      const { key } = body;
      const value = body.value ?? undefined;
      if (value !== undefined && typeof value !== 'string') throw new AppError(MSG.invalidParams, 400);
      await ctx.audit.around(request, optionEvent('update', key), optionSides(key), () => ctx.options.set(key, value, authOf(request).role));
      return ok();
    });

    app.post('/option/rest_model_ratio', { preHandler: guards.admin, schema: NO_INPUT }, async (request) => {
      // The built-in table is the schema's default for the key (schemas/options).
      await ctx.audit.around(request, optionEvent('reset', 'ModelRatio'), optionSides('ModelRatio'), () => ctx.options.reset('ModelRatio', authOf(request).role));
      return ok(undefined, '重置模型倍率成功');
    });
  };
}
