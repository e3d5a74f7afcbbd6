/**
 * OpenAI itself (type 1): every endpoint, usage chunks in streams, optional organization
 * header, the Responses API passed through (`/v1/responses`, stored responses by id), and
 * Realtime sessions (`/v1/realtime?model=`, relay/realtime/).
 */
import { bearer, createOpenAICompatible } from '../openai-compatible/factory';
import { OPENAI_PATHS } from '../openai-compatible/paths';

export const openaiProvider = createOpenAICompatible({
  id: 'openai',
  paths: { ...OPENAI_PATHS, responses: '/v1/responses', realtime: '/v1/realtime' },
  streamUsage: true,
  headers: (target) => (target.organization ? { ...bearer(target), 'OpenAI-Organization': target.organization } : bearer(target)),
});
