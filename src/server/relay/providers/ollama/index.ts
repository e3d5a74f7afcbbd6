/** Ollama (type 4): OpenAI-compatible chat and completions, native embeddings. */
import { createOpenAICompatible } from '../openai-compatible/factory';
import { OPENAI_PATHS } from '../openai-compatible/paths';
import { ollamaEmbeddings } from './embeddings';

export const ollamaProvider = createOpenAICompatible({
  id: 'ollama',
  paths: { chat: OPENAI_PATHS.chat, completions: OPENAI_PATHS.completions, embeddings: '/api/embed' },
  custom: { embeddings: ollamaEmbeddings },
  streamUsage: true,
});
