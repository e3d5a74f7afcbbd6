/**
 * The request fields each upstream wire format defines, as data, and the filter that keeps only
 * them (issue #13 item 5). The reference decodes a client body into its Go request structs and
 * marshals them again, so every field the struct lacks is dropped on the way (chat front ends
 * add `id`, `createAt`… to messages; real providers refuse unknown arguments) and plain integer
 * fields tagged `omitempty` vanish when 0 (`max_tokens: 0`). With the global option
 * `global.pass_through_request_enabled` the relay sends the client's bytes instead (attempt.ts).
 *
 * The lists follow QuantumNous/new-api:
 * - `dto/openai_request.go`: `GeneralOpenAIRequest` (chat and completions) and `Message`;
 * - `dto/embedding.go`: `EmbeddingRequest`;
 * - `dto/claude.go`: `ClaudeRequest` and `ClaudeMessage` (`/v1/messages` on Claude channels).
 * Fields marked "Ours" are defined by the provider's own API but missing from the struct.
 *
 * Cost: a clean body (the usual case) is only scanned — its top-level keys and each message's
 * keys looked up in a Set — and returned as the same object, so the client's own bytes can
 * still go upstream; a copy is made only when something is dropped.
 */
import type { JsonObject } from './json';

export interface RequestShape {
  /** Top-level fields. */
  readonly fields: ReadonlySet<string>;
  /** Fields of one `messages[]` entry; absent when the messages are not looked into. */
  readonly messageFields?: ReadonlySet<string>;
  /** Fields dropped when they are 0 (the reference's `omitempty` on plain integers). */
  readonly zeroOmitted: readonly string[];
}

/** `GeneralOpenAIRequest`, grouped as in the struct. */
const OPENAI_REQUEST_FIELDS = [
  'model',
  'messages',
  'prompt',
  'prefix',
  'suffix',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'verbosity',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'n',
  'input',
  'instruction',
  'size',
  'functions',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'encoding_format',
  'seed',
  'parallel_tool_calls',
  'tools',
  'tool_choice',
  'function_call',
  'user',
  'service_tier',
  'logprobs',
  'top_logprobs',
  'dimensions',
  'modalities',
  'audio',
  'safety_identifier',
  'store',
  'prompt_cache_key',
  'prompt_cache_retention',
  'logit_bias',
  'metadata',
  'prediction',
  // Gemini, xAI, Claude (web search), OpenRouter
  'extra_body',
  'search_parameters',
  'web_search_options',
  'usage',
  'reasoning',
  // Ali Qwen, Ollama, Baidu v2, Doubao / Zhipu v4
  'vl_high_resolution_images',
  'enable_thinking',
  'chat_template_kwargs',
  'enable_search',
  'think',
  'web_search',
  'thinking',
  // Perplexity, MiniMax
  'search_domain_filter',
  'search_recency_filter',
  'return_images',
  'return_related_questions',
  'search_mode',
  'reasoning_split',
  // Ours: OpenAI's legacy completions fields; the samplers of self-hosted OpenAI-compatible servers (vLLM, SGLang).
  'echo',
  'best_of',
  'min_p',
  'repetition_penalty',
];

/** `Message`; Ours: OpenAI's assistant-message fields `function_call` (legacy), `refusal` and `audio` (audio turns). */
const OPENAI_MESSAGE_FIELDS = ['role', 'content', 'name', 'prefix', 'reasoning_content', 'reasoning', 'tool_calls', 'tool_call_id', 'function_call', 'refusal', 'audio'];

/** `EmbeddingRequest`. */
const OPENAI_EMBEDDING_FIELDS = ['model', 'input', 'encoding_format', 'dimensions', 'user', 'seed', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'];

/** `ClaudeRequest`. */
const CLAUDE_REQUEST_FIELDS = [
  'model',
  'prompt',
  'system',
  'messages',
  'cache_control',
  'inference_geo',
  'max_tokens',
  'max_tokens_to_sample',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'stream',
  'tools',
  'safeguards',
  'context_management',
  'output_config',
  'output_format',
  'container',
  'tool_choice',
  'thinking',
  'mcp_servers',
  'metadata',
  'speed',
  'service_tier',
];

/** `ClaudeMessage`. */
const CLAUDE_MESSAGE_FIELDS = ['role', 'content', 'output_config'];

/** OpenAI chat and completions (one struct serves both in the reference). */
export const OPENAI_CHAT_SHAPE: RequestShape = {
  fields: new Set(OPENAI_REQUEST_FIELDS),
  messageFields: new Set(OPENAI_MESSAGE_FIELDS),
  zeroOmitted: ['max_tokens', 'max_completion_tokens'],
};

export const OPENAI_EMBEDDINGS_SHAPE: RequestShape = { fields: new Set(OPENAI_EMBEDDING_FIELDS), zeroOmitted: [] };

/** Claude Messages (a max_tokens of 0 is replaced by the default afterwards anyway). */
export const CLAUDE_MESSAGES_SHAPE: RequestShape = {
  fields: new Set(CLAUDE_REQUEST_FIELDS),
  messageFields: new Set(CLAUDE_MESSAGE_FIELDS),
  zeroOmitted: ['max_tokens', 'max_tokens_to_sample'],
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cleanMessage(message: unknown, fields: ReadonlySet<string>): boolean {
  if (!isObject(message)) return true;
  for (const key in message) if (!fields.has(key)) return false;
  return true;
}

/** Whether the body holds nothing to drop (the hot path: no allocation). */
export function hasOnlyKnownFields(body: JsonObject, shape: RequestShape): boolean {
  const { fields, messageFields, zeroOmitted } = shape;
  for (const key in body) if (!fields.has(key)) return false;
  for (let i = 0; i < zeroOmitted.length; i++) if (body[zeroOmitted[i]!] === 0) return false;
  const messages = body.messages;
  if (messageFields && Array.isArray(messages)) {
    for (let i = 0; i < messages.length; i++) if (!cleanMessage(messages[i], messageFields)) return false;
  }
  return true;
}

function knownOnly(source: JsonObject, fields: ReadonlySet<string>, zeroOmitted: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key in source) {
    const value = source[key];
    if (fields.has(key) && !(value === 0 && zeroOmitted.includes(key))) out[key] = value;
  }
  return out;
}

/**
 * The body with only the shape's fields (messages' too) and without zero `omitempty` fields:
 * the same object when there is nothing to drop, else a copy (the input is never mutated).
 */
export function knownFieldsOnly(body: JsonObject, shape: RequestShape): JsonObject {
  if (hasOnlyKnownFields(body, shape)) return body;
  const out = knownOnly(body, shape.fields, shape.zeroOmitted);
  const messageFields = shape.messageFields;
  if (messageFields && Array.isArray(out.messages)) {
    out.messages = out.messages.map((message: unknown) => (cleanMessage(message, messageFields) ? message : knownOnly(message as JsonObject, messageFields, [])));
  }
  return out;
}
