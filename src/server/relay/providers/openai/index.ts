/** OpenAI itself (type 1): every endpoint, usage chunks in streams, optional organization header. */
import { bearer, createOpenAICompatible } from '../openai-compatible/factory';
import { OPENAI_PATHS } from '../openai-compatible/paths';

export const openaiProvider = createOpenAICompatible({
  id: 'openai',
  paths: OPENAI_PATHS,
  streamUsage: true,
  headers: (target) => (target.organization ? { ...bearer(target), 'OpenAI-Organization': target.organization } : bearer(target)),
});
