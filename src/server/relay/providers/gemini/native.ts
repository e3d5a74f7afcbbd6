/**
 * Gemini-native callers on Gemini channels (modes `gemini` and `gemini-embeddings`): the
 * client's body goes upstream as it came (its own bytes when the model is not mapped), the
 * answer comes back as it is, and usage is read from usageMetadata on the way.
 */
import { errorInBody } from '../common/errors';
import { type JsonObject, arr, obj } from '../common/json';
import { finalUsage } from '../common/usage';
import type { ParsedResponse, SseEvent, StreamConverter, StreamStep, Target, Usage } from '../types';
import { candidateOutput } from './parts';
import { readGeminiEvent } from './stream-event';
import { usageFromGemini } from './usage';

/** `batchEmbedContents` bodies carry a list of requests; `embedContent` one content. */
export function embeddingAction(body: JsonObject): string {
  return Array.isArray(body.requests) ? 'batchEmbedContents' : 'embedContent';
}

/**
 * The embedding body to send: each request of a batch names the model, which must be the one
 * in the URL, so a mapped model is written into it; otherwise the client's bytes go as they are.
 */
export function nativeEmbeddingBody(body: JsonObject, target: Target): string | Uint8Array {
  if (target.upstreamModel === target.requestModel && target.rawBody) return target.rawBody;
  const name = `models/${target.upstreamModel}`;
  if (Array.isArray(body.requests)) return JSON.stringify({ ...body, requests: body.requests.map((r) => ({ ...obj(r), model: name })) });
  return JSON.stringify(body.model !== undefined ? { ...body, model: name } : body);
}

/** The model lives in the URL: the body goes as it came. */
export function nativeGenerateBody(body: JsonObject, target: Target): string | Uint8Array {
  return target.rawBody ?? JSON.stringify(body);
}

function candidatesText(answer: JsonObject): string {
  let text = '';
  for (const candidate of arr(answer.candidates)) {
    const output = candidateOutput(obj(candidate));
    text += output.text.join('') + output.reasoning + output.toolCalls.map((c) => c.name + c.arguments).join('');
  }
  return text;
}

export function parseNativeResponse(json: unknown): ParsedResponse {
  const error = errorInBody(json, 500);
  if (error) return { body: json, error };
  const answer = obj(json);
  const usage = usageFromGemini(answer.usageMetadata);
  // The body is the upstream's own object: the relay then sends its bytes as they came.
  return usage ? { body: json, usage } : { body: json, text: candidatesText(answer) };
}

/** The upstream's events go on untouched; each is read for its usage and text. */
export class GeminiPassThroughStream implements StreamConverter {
  private usage: Usage | undefined;

  onEvent(event: SseEvent): StreamStep {
    const read = readGeminiEvent(event);
    if (!('data' in read)) return { out: [], usage: this.usage, ...read };
    this.usage = read.usage ?? this.usage;
    return { out: [event.event === undefined ? event : { data: event.data }], usage: this.usage, text: candidatesText(read.data) };
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    return { out: [], usage: finalUsage(this.usage, fallbackUsage) };
  }
}
