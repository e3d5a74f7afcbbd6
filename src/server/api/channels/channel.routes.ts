/**
 * /api/channel: channel administration (administrators only), and /api/models, the default
 * models of every channel type (any signed-in user).
 *
 * Guards run before body validation (preValidation), so a caller without the role learns
 * nothing about the bodies. Bodies are checked against schemas/entities/channel.json.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AppError, MSG } from '../../errors';
import { ok } from '../../plumbing/envelope';
import { CHANNEL_STATUS, defaultModelsByType, modelCatalogue } from '../../../shared/channel-types';
import { channelEvents } from '../../services/channels/channel.events';
import type { ChannelBody } from '../../services/channels/channel.input';
import { channelSchemas } from '../../services/channels/channel.schema';
import {
  createChannels,
  deleteChannel,
  deleteChannelsByIds,
  deleteDisabledChannels,
  editTag,
  enabledModels,
  fetchChannelModels,
  fetchModelsFor,
  fixAbilities,
  getChannel,
  listChannels,
  setTagStatus,
  tagChannels,
  updateChannel,
  type FetchModelsBody,
  type ListQuery,
  type TagEdit,
} from '../../services/channels/channel.service';
import type { RouteDeps } from '../deps';

/** `created` of the catalogue's model objects, as the reference answers it. */
const CATALOGUE_CREATED = 1626777600;

function channelId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new AppError(MSG.invalidParams, 400);
  return Number(raw);
}

interface SearchQuery extends ListQuery {
  keyword?: string;
  group?: string;
  model?: string;
}

export function channelRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    const schemas = channelSchemas(ctx.config.schemasDir);
    app.setValidatorCompiler(schemas.compiler);
    const events = channelEvents(ctx);
    await events.start();
    app.addHook('onClose', async () => events.stop());

    const admin = { preValidation: guards.admin };
    const withBody = (body: object) => ({ ...admin, schema: { body } });

    app.get('/models', { preValidation: guards.user }, async () => ok(defaultModelsByType()));

    app.get<{ Querystring: ListQuery }>('/channel/', admin, async (request) => ok(await listChannels(ctx, request.query)));

    app.get<{ Querystring: SearchQuery }>('/channel/search', admin, async (request) => {
      const { keyword, group, model } = request.query;
      return ok(await listChannels(ctx, request.query, { keyword, group, model }));
    });

    app.get('/channel/models', admin, async () =>
      ok(modelCatalogue().map((m) => ({ id: m.id, object: 'model', created: CATALOGUE_CREATED, owned_by: m.owned_by }))),
    );

    app.get('/channel/models_enabled', admin, async () => ok(await enabledModels(ctx)));

    app.get<{ Params: { id: string } }>('/channel/fetch_models/:id', admin, async (request) =>
      ok(await fetchChannelModels(ctx, channelId(request.params.id))),
    );

    app.post<{ Body: FetchModelsBody }>('/channel/fetch_models', withBody(schemas.fetchModelsBody), async (request) =>
      ok(await fetchModelsFor(request.body)),
    );

    app.get<{ Params: { id: string } }>('/channel/:id', admin, async (request) => ok(await getChannel(ctx, channelId(request.params.id))));

    app.post<{ Body: ChannelBody }>('/channel/', withBody(schemas.createBody), async (request) => {
      return ok({ ids: await createChannels(ctx, request.body) });
    });

    app.put<{ Body: ChannelBody & { id: number } }>('/channel/', withBody(schemas.updateBody), async (request) => {
      return ok(await updateChannel(ctx, request.body));
    });

    app.delete('/channel/disabled', admin, async () => ok(await deleteDisabledChannels(ctx)));

    app.delete<{ Params: { id: string } }>('/channel/:id', admin, async (request) => {
      await deleteChannel(ctx, channelId(request.params.id));
      return ok();
    });

    app.post<{ Body: { ids?: number[] | null } }>('/channel/batch', withBody(schemas.idsBody), async (request) =>
      ok(await deleteChannelsByIds(ctx, request.body.ids)),
    );

    app.post<{ Body: { ids?: number[] | null; tag?: string | null } }>('/channel/batch/tag', withBody(schemas.batchTagBody), async (request) =>
      ok(await tagChannels(ctx, request.body.ids, request.body.tag)),
    );

    app.post('/channel/fix', admin, async () => ok(await fixAbilities(ctx)));

    app.put<{ Body: TagEdit }>('/channel/tag', withBody(schemas.tagEditBody), async (request) => ok(await editTag(ctx, request.body)));

    app.post<{ Body: { tag?: string | null } }>('/channel/tag/enabled', withBody(schemas.tagBody), async (request) =>
      ok(await setTagStatus(ctx, request.body.tag, CHANNEL_STATUS.enabled)),
    );

    app.post<{ Body: { tag?: string | null } }>('/channel/tag/disabled', withBody(schemas.tagBody), async (request) =>
      ok(await setTagStatus(ctx, request.body.tag, CHANNEL_STATUS.disabled)),
    );
  };
}
