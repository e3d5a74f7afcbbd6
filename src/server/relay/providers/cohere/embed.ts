/**
 * OpenAI embeddings <-> Cohere's v2 `/v2/embed`. Cohere needs an `input_type`: the client's own
 * `input_type` when it sent one, else `search_document`. Floats are asked for (the pipeline
 * encodes them when the client wants base64).
 */
import { type JsonObject, arr, compact, num, obj, str } from '../common/json';
import { ProviderRequestError, type ParsedResponse } from '../types';

const INPUT_TYPES = new Set(['search_document', 'search_query', 'classification', 'clustering']);

export function cohereEmbedRequest(body: JsonObject, model: string): JsonObject {
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : arr(input);
  if (texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    throw new ProviderRequestError('Cohere embeddings take a string or a list of strings as input', 'invalid_request');
  }
  const inputType = str(body.input_type);
  if (inputType !== undefined && !INPUT_TYPES.has(inputType)) {
    throw new ProviderRequestError(`input_type must be one of ${[...INPUT_TYPES].join(', ')}`, 'invalid_request');
  }
  return compact({
    model,
    texts,
    input_type: inputType ?? 'search_document',
    embedding_types: ['float'],
    output_dimension: typeof body.dimensions === 'number' ? body.dimensions : undefined,
  });
}

export function openaiEmbeddingsFromCohere(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const data = arr(obj(answer.embeddings).float).map((vector, index) => ({ object: 'embedding', index, embedding: arr(vector) }));
  const promptTokens = num(obj(obj(answer.meta).billed_units).input_tokens);
  const body = { object: 'list', data, model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
  // No billed units: the pipeline's local count of the input is billed.
  return promptTokens > 0 ? { body, usage: { promptTokens, completionTokens: 0 } } : { body };
}
