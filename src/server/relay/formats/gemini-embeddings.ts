/**
 * Gemini `embedContent` / `batchEmbedContents` <-> OpenAI embeddings, for Gemini-native
 * callers served by OpenAI-shaped channels. A content's text parts are joined into one input
 * (Gemini embeds the whole content as one vector).
 */
import { type JsonObject, arr, compact, obj, str } from '../providers/common/json';

/** The one request of embedContent, or the list of batchEmbedContents. */
function embedRequests(body: JsonObject): JsonObject[] {
  return Array.isArray(body.requests) ? body.requests.map(obj) : [body];
}

export function isBatchEmbedding(body: JsonObject): boolean {
  return Array.isArray(body.requests);
}

function contentText(content: unknown): string {
  return arr(obj(content).parts)
    .map((part) => str(obj(part).text) ?? '')
    .join('\n');
}

/** The texts to embed, one per request. */
export function geminiEmbeddingTexts(body: JsonObject): string[] {
  return embedRequests(body).map((request) => contentText(request.content));
}

export function embeddingsRequestFromGemini(body: JsonObject, model: string): JsonObject {
  const requests = embedRequests(body);
  const texts = requests.map((request) => contentText(request.content));
  const dimensions = requests[0]?.outputDimensionality;
  return compact({
    model,
    input: isBatchEmbedding(body) ? texts : texts[0],
    dimensions: typeof dimensions === 'number' && dimensions > 0 ? dimensions : undefined,
  });
}

/** OpenAI's list of vectors -> `{embedding}` (one) or `{embeddings}` (batch), in input order. */
export function geminiEmbeddingsFromOpenAI(body: unknown, batch: boolean): JsonObject {
  const data = arr(obj(body).data)
    .map(obj)
    .sort((a, b) => (typeof a.index === 'number' && typeof b.index === 'number' ? a.index - b.index : 0));
  const vectors = data.map((item) => ({ values: arr(item.embedding) }));
  return batch ? { embeddings: vectors } : { embedding: vectors[0] ?? { values: [] } };
}
