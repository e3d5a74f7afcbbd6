/**
 * /api/channel: channel administration (administrators only), and /api/models, the default
 * models of every channel type (any signed-in user).
 *
 * Bodies are checked (after the guard) against schemas/entities/channel.json.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../plumbing/envelope';
import { CHANNEL_STATUS, defaultModelsByType, modelCatalogue } from '../../../shared/channel-types';
import { channelEvents } from '../../services/channels/channel.events';
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
  type ListQuery,
} from '../../services/channels/channel.service';
import type { AuditEvent } from '../../services/audit/audit.trail';
import type { RouteDeps } from '../deps';
import { parseIdParam } from '../params';
import { checkedBody, ID_PARAMS, NO_INPUT, pageQueryWith } from '../route-schemas';
import { registerChannelHealthRoutes } from './channel-health.routes';

/** `created` of the catalogue's model objects, as the reference answers it. */
const CATALOGUE_CREATED = 1626777600;

interface SearchQuery extends ListQuery {
  keyword?: string;
  group?: string;
  model?: string;
}

export function channelRoutes({ ctx, guards }: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    const check = channelSchemas(ctx.config.schemasDir);
    // Hears other nodes' channel writes (the change hub is stopped with the app).
    await channelEvents(ctx).start();

    const admin = { preHandler: guards.admin };

    app.get('/models', { preHandler: guards.user, schema: NO_INPUT }, async () => ok(defaultModelsByType()));

    registerChannelHealthRoutes(app, { ctx, guards });

    app.get<{ Querystring: ListQuery }>('/channel/', { ...admin, schema: pageQueryWith('id_sort', 'tag_mode') }, async (request) => ok(await listChannels(ctx, request.query)));

    app.get<{ Querystring: SearchQuery }>('/channel/search', { ...admin, schema: pageQueryWith('id_sort', 'tag_mode', 'keyword', 'group', 'model') }, async (request) => {
      const { keyword, group, model } = request.query;
      return ok(await listChannels(ctx, request.query, { keyword, group, model }));
    });

    app.get('/channel/models', { ...admin, schema: NO_INPUT }, async () => ok(modelCatalogue().map((m) => ({ id: m.id, object: 'model', created: CATALOGUE_CREATED, owned_by: m.owned_by }))));

    app.get('/channel/models_enabled', { ...admin, schema: NO_INPUT }, async () => ok(await enabledModels(ctx)));

    app.get<{ Params: { id: string } }>('/channel/fetch_models/:id', { ...admin, schema: ID_PARAMS }, async (request) => ok(await fetchChannelModels(ctx, parseIdParam(request.params.id))));

    app.post('/channel/fetch_models', { ...admin, ...checkedBody(check.fetchModels) }, async (request) => ok(await fetchModelsFor(ctx, check.fetchModels(request.body))));

    app.get<{ Params: { id: string } }>('/channel/:id', { ...admin, schema: ID_PARAMS }, async (request) => ok(await getChannel(ctx, parseIdParam(request.params.id))));

    // Every write is recorded in the audit log: one channel's row before and after, or for
    // writes over many channels the ids or tag and the fields the request set.
    const audit = ctx.audit;
    const event = (action: string, target?: AuditEvent['target']): AuditEvent => ({ kind: 'channel', action, target });
    const asked = (fields: object) => ({ after: () => ({ ...fields }) });

    app.post('/channel/', { ...admin, ...checkedBody(check.create) }, async (request) => {
      const body = check.create(request.body);
      const ids = await audit.around(request, event('create'), { ...asked(body), target: (made) => made }, () => createChannels(ctx, body));
      return ok({ ids });
    });

    app.put('/channel/', { ...admin, ...checkedBody(check.update) }, async (request) => {
      const body = check.update(request.body);
      return ok(await audit.around(request, event('update', body.id), { load: audit.row('channels', body.id) }, () => updateChannel(ctx, body)));
    });

    app.delete('/channel/disabled', { ...admin, schema: NO_INPUT }, async (request) =>
      ok(await audit.around(request, event('delete_disabled'), { after: (count) => ({ deleted: count }) }, () => deleteDisabledChannels(ctx))),
    );

    app.delete<{ Params: { id: string } }>('/channel/:id', { ...admin, schema: ID_PARAMS }, async (request) => {
      const id = parseIdParam(request.params.id);
      await audit.around(request, event('delete', id), { load: audit.row('channels', id) }, () => deleteChannel(ctx, id));
      return ok();
    });

    app.post('/channel/batch', { ...admin, ...checkedBody(check.ids) }, async (request) => {
      const { ids } = check.ids(request.body);
      return ok(await audit.around(request, event('batch_delete', ids ?? []), { after: (count) => ({ deleted: count }) }, () => deleteChannelsByIds(ctx, ids)));
    });

    app.post('/channel/batch/tag', { ...admin, ...checkedBody(check.batchTag) }, async (request) => {
      const { ids, tag } = check.batchTag(request.body);
      return ok(await audit.around(request, event('batch_tag', ids ?? []), asked({ tag }), () => tagChannels(ctx, ids, tag)));
    });

    app.post('/channel/fix', { ...admin, schema: NO_INPUT }, async (request) => ok(await audit.around(request, event('fix_abilities'), { after: (fixed) => ({ fixed }) }, () => fixAbilities(ctx))));

    app.put('/channel/tag', { ...admin, ...checkedBody(check.tagEdit) }, async (request) => {
      const edit = check.tagEdit(request.body);
      return ok(await audit.around(request, event('tag_edit', edit.tag ?? ''), asked(edit), () => editTag(ctx, edit)));
    });

    const tagStatus = (action: string, status: number) => async (request: FastifyRequest) => {
      const { tag } = check.tag(request.body);
      return ok(await audit.around(request, event(action, tag ?? ''), asked({ status }), () => setTagStatus(ctx, tag, status)));
    };
    app.post('/channel/tag/enabled', { ...admin, ...checkedBody(check.tag) }, tagStatus('tag_enable', CHANNEL_STATUS.enabled));

    app.post('/channel/tag/disabled', { ...admin, ...checkedBody(check.tag) }, tagStatus('tag_disable', CHANNEL_STATUS.disabled));
  };
}
