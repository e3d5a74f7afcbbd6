/** Custom channels (type 8): the base URL is the complete request URL, `{model}` filled in (docs/relay.md#base-url). */
import { createOpenAICompatible } from '../openai-compatible/factory';
import { OPENAI_PATHS } from '../openai-compatible/paths';
import { ProviderRequestError } from '../types';

export const customProvider = createOpenAICompatible({
  id: 'custom',
  paths: OPENAI_PATHS,
  url: ({ target, model }) => {
    if (!target.baseUrl) throw new ProviderRequestError('custom channels need the full request URL as base URL', 'invalid_channel');
    return target.baseUrl.replaceAll('{model}', model);
  },
  modelsPath: null,
});
