/** OpenAI image generation <-> Imagen `:predict` (docs/relay.md#gemini). */

import { type JsonObject, arr, obj, str } from '../common/json';
import { ProviderRequestError, type ParsedResponse } from '../types';
import { nowSeconds } from '../../../../shared/time';

const ASPECT_RATIOS: Record<string, string> = { '1024x1024': '1:1', '1024x1792': '9:16', '1792x1024': '16:9' };
/** Imagen bills per image; the reference reports 258 prompt tokens for each. */
const TOKENS_PER_IMAGE = 258;

export function imagenRequest(body: JsonObject): JsonObject {
  const prompt = str(body.prompt);
  if (!prompt) throw new ProviderRequestError('prompt is required', 'invalid_request');
  return {
    instances: [{ prompt }],
    parameters: {
      sampleCount: typeof body.n === 'number' && body.n > 0 ? body.n : 1,
      aspectRatio: ASPECT_RATIOS[str(body.size) ?? ''] ?? '1:1',
      personGeneration: 'allow_adult',
    },
  };
}

export function openaiImagesFromImagen(json: unknown): ParsedResponse {
  // Filtered predictions carry a reason instead of bytes and are skipped.
  const data = arr(obj(json).predictions)
    .map(obj)
    .filter((p) => str(p.bytesBase64Encoded))
    .map((p) => ({ b64_json: p.bytesBase64Encoded }));
  return { body: { created: nowSeconds(), data }, usage: { promptTokens: TOKENS_PER_IMAGE * data.length, completionTokens: 0 } };
}
