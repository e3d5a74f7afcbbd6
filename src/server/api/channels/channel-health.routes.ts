/**
 * Channel tests and balances (administrators), part of /api/channel: test one channel
 * (optionally with a model), test all in the background, refresh one or all balances.
 * As in the reference, `time` and `balance` sit beside success/message, not in `data`.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../plumbing/envelope';
import { updateAllChannelBalances, updateChannelBalance } from '../../services/channels/channel-balance.service';
import { startChannelTests, testChannel } from '../../services/channels/channel-test.service';
import type { RouteDeps } from '../deps';
import { parseIdParam, queryText } from '../params';
import { describedFields, ID_PARAMS, NO_INPUT } from '../route-schemas';

export function registerChannelHealthRoutes(app: FastifyInstance, { ctx, guards }: Pick<RouteDeps, 'ctx' | 'guards'>): void {
  const admin = { preHandler: guards.admin };

  app.get('/channel/test', { ...admin, schema: NO_INPUT }, async (request) => {
    // Answers at once; the run goes on in the background and tells root when it is done.
    void startChannelTests(ctx, request.log);
    return ok();
  });

  app.get<{ Params: { id: string } }>(
    '/channel/test/:id',
    { ...admin, schema: { ...ID_PARAMS, querystring: describedFields({ model: "Model to test with (default: the channel's test model)" }) } },
    async (request) => {
      const result = await testChannel(ctx, parseIdParam(request.params.id), queryText(request.query, 'model'));
      return { success: result.success, message: result.message, time: result.time };
    },
  );

  app.get('/channel/update_balance', { ...admin, schema: NO_INPUT }, async (request) => {
    await updateAllChannelBalances(ctx, request.log);
    return ok();
  });

  app.get<{ Params: { id: string } }>('/channel/update_balance/:id', { ...admin, schema: ID_PARAMS }, async (request) => ({
    ...ok(),
    balance: await updateChannelBalance(ctx, parseIdParam(request.params.id)),
  }));
}
