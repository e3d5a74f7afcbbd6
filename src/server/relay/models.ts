/**
 * GET /v1/models and /v1/models/:model (docs/relay.md#model-list): the models this token may
 * use — its model limits when enabled, else the models of enabled channels in its group —
 * from the channel index in memory; `owned_by` from the built-in catalogue.
 */
import { modelCatalogue } from '../../shared/channel-types';
import type { TokenAuth } from './pipeline/token-auth';
import type { RelayRuntime } from './runtime';

const CREATED = 1626777600;

let owners: Map<string, string> | undefined;

function ownerOf(model: string): string | undefined {
  owners ??= new Map(modelCatalogue().map((m) => [m.id, m.owned_by]));
  return owners.get(model);
}

export function modelEntry(id: string) {
  return {
    id,
    object: 'model',
    created: CREATED,
    owned_by: ownerOf(id) ?? 'custom',
    permission: [
      {
        id: `modelperm-${id}`,
        object: 'model_permission',
        created: CREATED,
        allow_create_engine: true,
        allow_sampling: true,
        allow_logprobs: true,
        allow_search_indices: false,
        allow_view: true,
        allow_fine_tuning: false,
        organization: '*',
        group: null,
        is_blocking: false,
      },
    ],
    root: id,
    parent: null,
  };
}

/** The models this token may use: its model limits when enabled, else its group's. */
export function modelIdsFor(rt: RelayRuntime, auth: TokenAuth): string[] {
  const limits = auth.token.modelLimits;
  return limits !== undefined ? [...limits] : rt.channels.models(auth.token.group || auth.user.group);
}

export function listModels(rt: RelayRuntime, auth: TokenAuth) {
  return { success: true, object: 'list', data: modelIdsFor(rt, auth).map(modelEntry) };
}

/** One model of the built-in catalogue; a miss answers 200 with an OpenAI error (as the reference does). */
export function retrieveModel(id: string) {
  if (ownerOf(id) !== undefined) return modelEntry(id);
  return { error: { message: `The model '${id}' does not exist`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };
}
