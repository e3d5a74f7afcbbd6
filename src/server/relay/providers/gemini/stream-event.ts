/** One event of a Gemini stream, read the same way whether it is converted or passed through. */
import { errorFromBody } from '../common/errors';
import { type JsonObject, isRecord, parseJson } from '../common/json';
import type { SseEvent, UpstreamError, Usage } from '../types';
import { usageFromGemini } from './usage';

/**
 * The event's object and the usage it reports; without an object (not JSON: skipped) only
 * `{}`, and for an upstream error only that error (its usage is not counted).
 */
export function readGeminiEvent(event: SseEvent): { data: JsonObject; usage: Usage | undefined } | { error?: UpstreamError } {
  const data = parseJson(event.data);
  if (!isRecord(data)) return {};
  if (isRecord(data.error)) return { error: errorFromBody(500, data) };
  return { data, usage: usageFromGemini(data.usageMetadata) };
}
