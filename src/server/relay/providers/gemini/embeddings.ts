/**
 * OpenAI embeddings <-> Gemini `:embedContent` (one input) and `:batchEmbedContents` (several;
 * the reference sent only the first). Gemini reports no usage: the pipeline counts locally.
 */
import { type JsonObject, arr, compact, obj } from '../common/json';
import { ProviderRequestError, type ParsedResponse } from '../types';

export function embeddingInputs(body: JsonObject): string[] {
  const input = body.input;
  const inputs = typeof input === 'string' ? [input] : arr(input);
  if (inputs.length === 0 || !inputs.every((item): item is string => typeof item === 'string')) {
    throw new ProviderRequestError('Gemini embeddings take a string or a list of strings as input', 'invalid_request');
  }
  return inputs;
}

function oneRequest(model: string, text: string, dimensions: unknown): JsonObject {
  return compact({
    model: `models/${model}`,
    content: { parts: [{ text }] },
    outputDimensionality: typeof dimensions === 'number' && dimensions > 0 ? dimensions : undefined,
  });
}

/** The action (`embedContent` or `batchEmbedContents`) and its body. */
export function geminiEmbeddingRequest(body: JsonObject, model: string): { action: string; json: JsonObject } {
  const inputs = embeddingInputs(body);
  if (inputs.length === 1) return { action: 'embedContent', json: oneRequest(model, inputs[0], body.dimensions) };
  return { action: 'batchEmbedContents', json: { requests: inputs.map((text) => oneRequest(model, text, body.dimensions)) } };
}

export function openaiEmbeddingsFromGemini(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const vectors = answer.embedding !== undefined ? [answer.embedding] : arr(answer.embeddings);
  const data = vectors.map((vector, index) => ({ object: 'embedding', index, embedding: arr(obj(vector).values) }));
  // No usage in the body: Gemini gives none, and the pipeline's local count is the one billed.
  return { body: { object: 'list', data, model } };
}
