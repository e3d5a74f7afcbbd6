/**
 * The relay's rerank format (Jina's: `{model, query, documents, top_n, return_documents}` ->
 * `{results: [{index, relevance_score, document}], usage}`) <-> Cohere's v2 `/v2/rerank`, which
 * takes documents as strings and answers indexes and scores only. Cohere bills rerank in search units, not
 * tokens, so the pipeline's local count of query and documents is billed.
 */
import { type JsonObject, arr, compact, isRecord, num, obj, str } from '../common/json';
import { ProviderRequestError, type ParsedResponse } from '../types';

/** A document as Cohere's v2 wants it: a string (an object's `text`, else its JSON). */
function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  if (isRecord(document) && typeof document.text === 'string') return document.text;
  return JSON.stringify(document);
}

export function cohereRerankRequest(body: JsonObject, model: string): JsonObject {
  const query = str(body.query);
  if (!query) throw new ProviderRequestError('query must be a non-empty string', 'invalid_request');
  const documents = arr(body.documents).map(documentText);
  return compact({
    model,
    query,
    documents,
    top_n: typeof body.top_n === 'number' && body.top_n > 0 ? body.top_n : undefined,
    max_tokens_per_doc: typeof body.max_tokens_per_doc === 'number' ? body.max_tokens_per_doc : undefined,
  });
}

/** Cohere's v2 answer carries indexes and scores only (no documents, whatever the client asked). */
export function rerankFromCohere(json: unknown, model: string): ParsedResponse {
  const answer = obj(json);
  const results = arr(answer.results).map((raw) => ({ index: num(obj(raw).index), relevance_score: num(obj(raw).relevance_score) }));
  return { body: compact({ id: str(answer.id), model, results }) };
}
