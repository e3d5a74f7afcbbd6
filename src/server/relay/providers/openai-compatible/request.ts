/** The OpenAI request adjustments every OpenAI-shaped family shares (docs/relay.md#openai-request-adjustments). */
import { type JsonObject, arr, isRecord, obj } from '../common/json';
import { OPENAI_CHAT_SHAPE, OPENAI_EMBEDDINGS_SHAPE, type RequestShape, knownFieldsOnly } from '../common/known-fields';
import { isReasoningModel, type ReasoningEffort, takesDeveloperRole } from '../common/reasoning';
import { applyStreamFlag } from '../common/stream-flag';
import type { RelayMode } from '../types';

export interface AdjustOptions {
  mode: RelayMode;
  /** Model to send (suffix already stripped). */
  model: string;
  effort?: ReasoningEffort;
  stream: boolean;
  /** The family honours `stream_options`. */
  streamUsage: boolean;
  /** Force `include_usage` upstream (env FORCE_STREAM_OPTION). */
  forceStreamUsage: boolean;
}

/** The request structs of the modes whose fields are known (common/known-fields.ts); other modes go as sent. */
const SHAPES: Partial<Record<RelayMode, RequestShape>> = { chat: OPENAI_CHAT_SHAPE, completions: OPENAI_CHAT_SHAPE, embeddings: OPENAI_EMBEDDINGS_SHAPE };

/**
 * Returns a copy of the client body ready for an OpenAI-shaped upstream. As in the reference,
 * only the fields OpenAI's format defines go upstream (unknown top-level and message fields and a
 * `max_tokens` of 0 are dropped); `global.pass_through_request_enabled` sends the body as it came.
 */
export function adjustOpenAIBody(body: JsonObject, options: AdjustOptions): JsonObject {
  const shape = SHAPES[options.mode];
  const out: JsonObject = { ...(shape ? knownFieldsOnly(body, shape) : body), model: options.model };
  if (options.mode === 'chat' || options.mode === 'completions') applyStreamOptions(out, options);
  if (options.mode === 'chat' && isReasoningModel(options.model)) applyReasoningRules(out, options);
  return out;
}

/**
 * Streaming upstreams that support it are asked for a usage chunk so billing uses real counts;
 * the stream converter hides that chunk from clients that did not ask for it.
 */
function applyStreamOptions(out: JsonObject, options: AdjustOptions): void {
  applyStreamFlag(out, options.stream);
  if (!options.stream || !options.streamUsage) {
    delete out.stream_options;
    return;
  }
  // Left as the client sent it when it already asks for usage (the body can then go as it came).
  if (options.forceStreamUsage && obj(out.stream_options).include_usage !== true) out.stream_options = { ...obj(out.stream_options), include_usage: true };
}

function applyReasoningRules(out: JsonObject, options: AdjustOptions): void {
  if (out.max_tokens !== undefined) {
    if (out.max_completion_tokens === undefined) out.max_completion_tokens = out.max_tokens;
    delete out.max_tokens;
  }
  // o-series models refuse a temperature; xAI's grok-3-mini accepts one.
  if (/^o\d/.test(options.model)) delete out.temperature;
  if (options.effort) out.reasoning_effort = options.effort;
  const messages = arr(out.messages);
  if (takesDeveloperRole(options.model) && isRecord(messages[0]) && messages[0].role === 'system') {
    out.messages = [{ ...messages[0], role: 'developer' }, ...messages.slice(1)];
  }
}
