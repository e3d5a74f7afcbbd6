/**
 * Local token counts the pipeline needs (gateway reference §5.4): the prompt of each mode
 * (for reservations with max_tokens and for answers without usage) and free text (completion
 * fallback). The counting rules themselves live in the tokenizer.
 */
import type { RelayMode } from '../providers/types';
import {
  countChatPromptTokens,
  countClaudePromptTokens,
  countInputTokens,
  countRerankTokens,
  countSpeechInput,
  countTokens,
  type ChatCountOptions,
} from '../tokenizer';
import { countGeminiEmbeddingTokens, countGeminiPromptTokens } from '../formats/gemini-count';
import { requestText } from '../formats/responses-items';

export function countText(text: string, model: string): number {
  return countTokens(text, model);
}

/** Image counting switches (GET_MEDIA_TOKEN, GET_MEDIA_TOKEN_NOT_STREAM of the configuration). */
export type MediaCounting = Pick<ChatCountOptions, 'getMediaToken' | 'getMediaTokenNotStream'>;

/** Prompt tokens of a request body; counted by the requested model (§5.4). */
export function promptTokensFor(mode: RelayMode, body: Record<string, unknown>, model: string, stream: boolean, media: MediaCounting): number {
  switch (mode) {
    case 'chat':
      return countChatPromptTokens(body, model, { ...media, stream });
    case 'messages':
      return countClaudePromptTokens(body, model);
    case 'completions':
      return countInputTokens(body.prompt, model);
    case 'embeddings':
    case 'moderations':
      return countInputTokens(body.input, model);
    case 'rerank':
      return countRerankTokens(body.query, body.documents, model);
    case 'speech':
      return countSpeechInput(typeof body.input === 'string' ? body.input : '', model);
    case 'images':
      return countTokens(typeof body.prompt === 'string' ? body.prompt : '', model);
    case 'gemini':
      return countGeminiPromptTokens(body, model);
    case 'gemini-embeddings':
      return countGeminiEmbeddingTokens(body, model);
    case 'responses':
      return countTokens(requestText(body), model);
    default:
      return 0;
  }
}
