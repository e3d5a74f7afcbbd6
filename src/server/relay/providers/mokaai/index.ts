/**
 * MokaAI M3E (type 44): embeddings only, OpenAI's embeddings shape at `<base>/embeddings` (no
 * `/v1`), as the reference sends them. M3E has no chat and no model list.
 */
import { createOpenAICompatible } from '../openai-compatible/factory';

export const mokaaiProvider = createOpenAICompatible({ id: 'mokaai', paths: { embeddings: '/embeddings' }, modelsPath: null });
