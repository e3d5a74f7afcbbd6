/**
 * Local token counts the pipeline needs (docs/relay.md#token-counting): the prompt of each mode
 * (for reservations with max_tokens and for answers without usage) and free text (completion
 * fallback). The counting rules themselves live in the tokenizer.
 */
import type { RelayMode } from '../providers/types';
import { countChatPromptTokens, countClaudePromptTokens, countInputTokens, countRerankTokens, countSpeechInput, countTokens, approxTokens, tokenizerLoaded, type ChatCountOptions } from '../tokenizer';
import { countGeminiEmbeddingTokens, countGeminiPromptTokens } from '../formats/gemini-count';
import { requestText } from '../formats/responses-items';

/** Characters of the text a body carries (every string but the model name and inline files), bounded in depth. */
function textChars(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.startsWith('data:') ? 0 : value.length;
  if (value === null || typeof value !== 'object' || depth > 8) return 0;
  let chars = 0;
  if (Array.isArray(value)) for (const item of value) chars += textChars(item, depth + 1);
  else for (const [key, item] of Object.entries(value)) if (key !== 'model') chars += textChars(item, depth + 1);
  return chars;
}

/**
 * The prompt's tokens without loading an encoding when none is loaded yet (see
 * tokenizerLoaded): the count, else about one per four characters of its text.
 */
export function promptEstimateFor(mode: RelayMode, body: Record<string, unknown>, model: string, stream: boolean, media: MediaCounting): number {
  return tokenizerLoaded(model) ? promptTokensFor(mode, body, model, stream, media) : approxTokens(textChars(body));
}

export function countText(text: string, model: string): number {
  return countTokens(text, model);
}

/** Image counting switches (GET_MEDIA_TOKEN, GET_MEDIA_TOKEN_NOT_STREAM of the configuration). */
export type MediaCounting = Pick<ChatCountOptions, 'getMediaToken' | 'getMediaTokenNotStream'>;

/** Prompt tokens of a request body; counted by the requested model. */
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
