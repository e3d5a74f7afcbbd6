/**
 * Public endpoints: /api/status (fixed facts plus every option marked x-public in
 * schemas/options), the content pages, and the setup probe.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../plumbing/envelope';
import { AppError } from '../../errors';
import type { RouteDeps } from '../deps';
import { NO_INPUT } from '../route-schemas';

export function statusRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get('/status', { schema: NO_INPUT }, async () => {
      const o = ctx.options;
      return ok({
        ...o.publicValues(),
        version: ctx.config.version,
        start_time: ctx.startTime,
        server_address: o.get('ServerAddress') || `http://localhost:${ctx.config.port}`,
        enable_online_topup: o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '',
        enable_batch_update: ctx.config.batchUpdateEnabled,
        chat_link: '',
        setup: true,
      });
    });

    for (const [path, key] of [
      ['/notice', 'Notice'],
      ['/about', 'About'],
      ['/home_page_content', 'HomePageContent'],
    ] as const) {
      app.get(path, { schema: NO_INPUT }, async () => ok(ctx.options.get(key)));
    }

    app.get('/status/test', { preHandler: guards.admin, schema: NO_INPUT }, async () => {
      try {
        await ctx.db.selectFrom('setups').select('id').limit(1).execute();
      } catch {
        throw new AppError('数据库连接失败', 503);
      }
      return ok(undefined, 'Server is running');
    });

    // The root account is created at first start, so setup is always complete.
    app.get('/setup', { schema: NO_INPUT }, async () => ok({ status: true, root_init: true, database_type: ctx.dialect }));
    app.post('/setup', { schema: NO_INPUT }, async () => {
      throw new AppError('系统已经初始化完成', 400);
    });
  };
}
