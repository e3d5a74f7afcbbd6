/** OpenAI's own endpoint paths, which most OpenAI-shaped upstreams copy. */
import type { RelayMode } from '../types';

export const OPENAI_PATHS: Readonly<Partial<Record<RelayMode, string>>> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
  translations: '/v1/audio/translations',
  moderations: '/v1/moderations',
  rerank: '/v1/rerank',
};

/** The subset of OpenAI paths a family serves, by mode. */
export function openaiPaths(...modes: RelayMode[]): Partial<Record<RelayMode, string>> {
  return Object.fromEntries(modes.map((mode) => [mode, OPENAI_PATHS[mode]]));
}
