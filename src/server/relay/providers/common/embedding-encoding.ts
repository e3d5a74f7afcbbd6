/**
 * Embeddings asked for with `encoding_format: "base64"` (the `openai` SDK's default) are
 * little-endian float32 bytes in base64. Upstreams converted from other formats answer floats;
 * this turns them into what the client asked for.
 */
import { isRecord } from './json';

function base64Of(vector: unknown[]): string {
  const floats = Float32Array.from(vector, (v) => (typeof v === 'number' ? v : 0));
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

/** The answer with every float-array embedding in base64; the same object when there is none. */
export function embeddingsInBase64(body: unknown): unknown {
  if (!isRecord(body) || !Array.isArray(body.data)) return body;
  const data = body.data as unknown[];
  if (!data.some((item) => isRecord(item) && Array.isArray(item.embedding))) return body;
  return {
    ...body,
    data: data.map((item) => (isRecord(item) && Array.isArray(item.embedding) ? { ...item, embedding: base64Of(item.embedding as unknown[]) } : item)),
  };
}
