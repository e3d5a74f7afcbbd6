/**
 * What each relay endpoint is: its mode, the client's format, where the model comes from
 * (with the distributor's defaults, docs/relay.md#default-models), and the request checks of the
 * handlers (docs/relay.md#distributor-checks) with their words. Checks run before any channel is
 * chosen, so a bad request costs nothing and touches no upstream.
 *
 * Besides presence, the checks hold the fields the relay reads to their types (a 400, not
 * an upstream call that is billed): `model` a string of at most 191 characters without NUL
 * or lone surrogates (it is logged), `messages` a list of objects whose `content` is text, a
 * list of parts or null, `stream` a boolean, `max_tokens` / `max_completion_tokens` whole
 * numbers from 0 to 2^30. This is the hot path: typeof checks and one pass over the
 * messages, no schema library.
 */
import type { RelayMode } from '../providers/types';
import { refuse, RelayError } from '../errors';
import { checkClaudeBody } from './claude-checks';

export type ClientFormat = 'openai' | 'claude' | 'gemini';

export interface EndpointSpec {
  mode: RelayMode;
  clientFormat: ClientFormat;
  /** multipart/form-data body (audio transcription and translation). */
  multipart?: boolean;
  /** Model when the body names none. */
  defaultModel?: string;
  /** The model named by the path (Gemini's `models/{model}:action`): the body's is not read. */
  pathModel?: string;
  /** Whether the answer streams, when the path says so (Gemini's action) rather than `stream`. */
  stream?: boolean;
  /** A stream goes out as one JSON array rather than SSE (Gemini without `alt=sse`). */
  jsonStream?: boolean;
  /** Throws the handler's 400 for a body it cannot serve. */
  validate(body: Record<string, unknown>): void;
}

const HALF_INT32 = 2 ** 31 / 2;

function invalid(message: string, code = 'invalid_text_request'): RelayError {
  return refuse(400, message, code);
}

function nonEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The longest model name served: the logs' model_name column holds 191 characters. */
export const MAX_MODEL_NAME_LENGTH = 191;

/** NUL (PostgreSQL refuses it in text) or a lone UTF-16 surrogate (stored as U+FFFD). */
const UNSTORABLE_TEXT = /[\0\p{Cs}]/u;

/** A model name as sent, trimmed ('' when absent); refuses anything but sane text. */
function modelText(value: unknown, code: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid('model must be a string', code);
  const model = value.trim();
  if (model.length > MAX_MODEL_NAME_LENGTH) throw invalid(`model name is longer than ${MAX_MODEL_NAME_LENGTH} characters`, code);
  if (UNSTORABLE_TEXT.test(model)) throw invalid('model name contains a NUL character or an unpaired surrogate', code);
  return model;
}

/** A token limit: absent, null, or a whole number from 0 to 2^30 (1e309 parses to Infinity). */
function checkTokenLimit(body: Record<string, unknown>, field: 'max_tokens' | 'max_completion_tokens', code: string): void {
  const max = body[field];
  if (max === undefined || max === null) return;
  if (typeof max !== 'number' || !Number.isInteger(max) || max > HALF_INT32 || max < 0) throw invalid(`${field} is invalid`, code);
}

function checkMaxTokens(body: Record<string, unknown>, code = 'invalid_text_request'): void {
  checkTokenLimit(body, 'max_tokens', code);
  checkTokenLimit(body, 'max_completion_tokens', code);
}

/** `stream` is read as `=== true`; anything but a boolean (or null) would reach the upstream as sent. */
function checkStream(body: Record<string, unknown>, code = 'invalid_text_request'): void {
  const stream = body.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw invalid('stream must be a boolean', code);
}

/** Text or a list (a prompt, an input): anything else is refused. */
function checkTextOrList(value: unknown, field: string, code: string): void {
  if (typeof value !== 'string' && !Array.isArray(value)) throw invalid(`${field} must be a string or an array`, code);
}

/**
 * `messages`: a non-empty list of objects; `role` text when present; `content` text, a list
 * of part objects, or null (an assistant's tool call). One pass; parts are only looked at
 * for their being objects.
 */
function checkMessages(messages: unknown, code: string): void {
  if (!nonEmpty(messages)) throw invalid('field messages is required', code);
  if (!Array.isArray(messages)) throw invalid('messages must be an array', code);
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (message === null || typeof message !== 'object' || Array.isArray(message)) throw invalid(`messages[${i}] must be an object`, code);
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role !== undefined && typeof role !== 'string') throw invalid(`messages[${i}].role must be a string`, code);
    if (content === undefined || content === null || typeof content === 'string') continue;
    if (!Array.isArray(content)) throw invalid(`messages[${i}].content must be a string or an array`, code);
    for (const part of content as unknown[]) {
      if (part === null || typeof part !== 'object' || Array.isArray(part)) throw invalid(`messages[${i}].content must be a list of objects`, code);
    }
  }
}

function requireModel(body: Record<string, unknown>, message = 'model is required', code = 'invalid_text_request'): void {
  if (!modelText(body.model, code)) throw invalid(message, code);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An optional field of one JS type (null counts as absent, as OpenAI reads it). */
function checkOptional(body: Record<string, unknown>, field: string, type: 'string' | 'boolean' | 'object', code: string): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  const ok = type === 'object' ? isObject(value) : typeof value === type;
  if (!ok) throw invalid(`${field} must be ${type === 'object' ? 'an object' : `a ${type}`}`, code);
}

/**
 * `/v1/responses` (OpenAI's Responses API): `input` text or a list of item objects (their
 * `type` and `role` text, their `content` text or a list of objects), `tools` a list of
 * objects with a `type` (function tools with a `name`), `tool_choice` text or an object,
 * `max_output_tokens` a whole number from 1 to 2^30, `previous_response_id` an id the store
 * can hold. Fields the relay never reads are left to the upstream.
 */
function validateResponses(body: Record<string, unknown>): void {
  const code = 'invalid_request';
  requireModel(body, 'model is required', code);
  const input = body.input;
  if (input === undefined || input === null) throw invalid('input is required', code);
  if (typeof input !== 'string' && !Array.isArray(input)) throw invalid('input must be a string or an array of items', code);
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const item: unknown = input[i];
      if (!isObject(item)) throw invalid(`input[${i}] must be an object`, code);
      if (item.type !== undefined && typeof item.type !== 'string') throw invalid(`input[${i}].type must be a string`, code);
      if (item.role !== undefined && typeof item.role !== 'string') throw invalid(`input[${i}].role must be a string`, code);
      const content = item.content;
      if (content === undefined || content === null || typeof content === 'string') continue;
      if (!Array.isArray(content) || !content.every(isObject)) throw invalid(`input[${i}].content must be a string or a list of objects`, code);
    }
  }
  checkOptional(body, 'instructions', 'string', code);
  checkStream(body, code);
  checkOptional(body, 'store', 'boolean', code);
  checkOptional(body, 'reasoning', 'object', code);
  const max = body.max_output_tokens;
  if (max !== undefined && max !== null && (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > HALF_INT32))
    throw invalid('max_output_tokens must be a whole number from 1 to 1073741824', code);
  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) throw invalid('tools must be an array', code);
    for (let i = 0; i < tools.length; i++) {
      const tool: unknown = tools[i];
      if (!isObject(tool) || typeof tool.type !== 'string') throw invalid(`tools[${i}] must be an object with a type`, code);
      if (tool.type === 'function' && (typeof tool.name !== 'string' || tool.name === '')) throw invalid(`tools[${i}].name is required`, code);
    }
  }
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && typeof choice !== 'string' && !isObject(choice)) throw invalid('tool_choice must be a string or an object', code);
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null) {
    if (typeof previous !== 'string' || previous === '' || previous.length > 128 || UNSTORABLE_TEXT.test(previous)) throw invalid('previous_response_id must be a response id', code);
  }
}

/** Gemini's `parts`: a non-empty list of objects whose text, when present, is text. */
function checkGeminiParts(parts: unknown, where: string): void {
  if (!Array.isArray(parts) || parts.length === 0) throw invalid(`${where}.parts must be a non-empty array`, 'invalid_request');
  for (let i = 0; i < parts.length; i++) {
    const part: unknown = parts[i];
    if (part === null || typeof part !== 'object' || Array.isArray(part)) throw invalid(`${where}.parts[${i}] must be an object`, 'invalid_request');
    const { text, inlineData } = part as { text?: unknown; inlineData?: unknown };
    if (text !== undefined && typeof text !== 'string') throw invalid(`${where}.parts[${i}].text must be a string`, 'invalid_request');
    if (inlineData !== undefined && (inlineData === null || typeof inlineData !== 'object' || typeof (inlineData as { data?: unknown }).data !== 'string')) {
      throw invalid(`${where}.parts[${i}].inlineData must be an object with base64 data`, 'invalid_request');
    }
  }
}

function checkGeminiContent(content: unknown, where: string): void {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) throw invalid(`${where} must be an object`, 'invalid_request');
  const { role, parts } = content as { role?: unknown; parts?: unknown };
  if (role !== undefined && typeof role !== 'string') throw invalid(`${where}.role must be a string`, 'invalid_request');
  checkGeminiParts(parts, where);
}

function checkObject(value: unknown, field: string): void {
  if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) throw invalid(`${field} must be an object`, 'invalid_request');
}

/** A GenerateContentRequest (also the body of :countTokens' `generateContentRequest`). */
export function validateGeminiGenerate(body: Record<string, unknown>): void {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('contents is not specified', 'invalid_request');
  for (let i = 0; i < contents.length; i++) checkGeminiContent(contents[i], `contents[${i}]`);
  if (body.systemInstruction !== undefined && typeof body.systemInstruction !== 'string') {
    checkObject(body.systemInstruction, 'systemInstruction');
    const parts = (body.systemInstruction as { parts?: unknown }).parts;
    if (parts !== undefined) checkGeminiParts(parts, 'systemInstruction');
  }
  if (body.tools !== undefined && !Array.isArray(body.tools)) throw invalid('tools must be an array', 'invalid_request');
  checkObject(body.toolConfig, 'toolConfig');
  checkObject(body.generationConfig, 'generationConfig');
  const max = (body.generationConfig as { maxOutputTokens?: unknown } | undefined)?.maxOutputTokens;
  if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > HALF_INT32)) throw invalid('generationConfig.maxOutputTokens is invalid', 'invalid_request');
}

/** embedContent (one `content`) or batchEmbedContents (`requests`, each with a content). */
export function validateGeminiEmbedding(body: Record<string, unknown>): void {
  if (body.requests === undefined) return checkGeminiContent(body.content, 'content');
  if (!Array.isArray(body.requests) || body.requests.length === 0) throw invalid('requests must be a non-empty array', 'invalid_request');
  for (let i = 0; i < body.requests.length; i++) {
    const request: unknown = body.requests[i];
    checkObject(request, `requests[${i}]`);
    checkGeminiContent((request as { content?: unknown }).content, `requests[${i}].content`);
  }
}

const IMAGE_SIZES_DALLE2 = new Set(['256x256', '512x512', '1024x1024']);
const IMAGE_SIZES_DALLE3 = new Set(['1024x1024', '1024x1792', '1792x1024']);

function validateImage(body: Record<string, unknown>): void {
  const bad = (message: string) => new RelayError(400, message, { code: 'invalid_image_request', local: true });
  if (!nonEmpty(body.prompt)) throw bad('prompt is required');
  const size = typeof body.size === 'string' ? body.size : '';
  if (size.includes('×')) throw bad("size an unexpected error occurred in the parameter, please use 'x' instead of the multiplication sign '×'");
  const model = typeof body.model === 'string' && body.model ? body.model : 'dall-e-2';
  const sizes = model === 'dall-e-2' ? IMAGE_SIZES_DALLE2 : model === 'dall-e-3' ? IMAGE_SIZES_DALLE3 : undefined;
  if (sizes && size && !sizes.has(size)) throw bad('size must be one of 256x256, 512x512, or 1024x1024, dall-e-3 1024x1792 or 1792x1024');
  if (typeof body.n === 'number' && (body.n < 1 || body.n > 10)) throw bad('n must be between 1 and 10');
}

export const ENDPOINTS = {
  chat: {
    mode: 'chat',
    clientFormat: 'openai',
    validate(body) {
      requireModel(body);
      checkMessages(body.messages, 'invalid_text_request');
      checkStream(body);
      checkMaxTokens(body);
    },
  },
  completions: {
    mode: 'completions',
    clientFormat: 'openai',
    validate(body) {
      requireModel(body);
      if (!nonEmpty(body.prompt)) throw invalid('field prompt is required');
      checkTextOrList(body.prompt, 'prompt', 'invalid_text_request');
      checkStream(body);
      checkMaxTokens(body);
    },
  },
  embeddings: {
    mode: 'embeddings',
    clientFormat: 'openai',
    // The model may also come from the path (/v1/engines/:model/embeddings).
    validate(body) {
      if (!nonEmpty(body.input)) throw invalid('input is empty', 'invalid_embedding_request');
      checkTextOrList(body.input, 'input', 'invalid_embedding_request');
    },
  },
  moderations: {
    mode: 'moderations',
    clientFormat: 'openai',
    defaultModel: 'text-moderation-stable',
    validate(body) {
      if (!nonEmpty(body.input)) throw invalid('field input is required');
      checkTextOrList(body.input, 'input', 'invalid_text_request');
    },
  },
  rerank: {
    mode: 'rerank',
    clientFormat: 'openai',
    validate(body) {
      requireModel(body);
      if (!nonEmpty(body.query)) throw invalid('query is empty', 'invalid_query');
      if (!nonEmpty(body.documents)) throw invalid('documents is empty', 'invalid_documents');
    },
  },
  images: {
    mode: 'images',
    clientFormat: 'openai',
    defaultModel: 'dall-e-2',
    validate: validateImage,
  },
  speech: {
    mode: 'speech',
    clientFormat: 'openai',
    defaultModel: 'tts-1',
    validate(body) {
      if (!nonEmpty(body.input)) throw invalid('input is required', 'invalid_audio_request');
    },
  },
  transcriptions: {
    mode: 'transcriptions',
    clientFormat: 'openai',
    multipart: true,
    defaultModel: 'whisper-1',
    validate(body) {
      if (!(body.file instanceof Blob)) throw invalid('file is required', 'invalid_audio_request');
    },
  },
  translations: {
    mode: 'translations',
    clientFormat: 'openai',
    multipart: true,
    defaultModel: 'whisper-1',
    validate(body) {
      if (!(body.file instanceof Blob)) throw invalid('file is required', 'invalid_audio_request');
    },
  },
  gemini: {
    mode: 'gemini',
    clientFormat: 'gemini',
    validate: validateGeminiGenerate,
  },
  geminiEmbeddings: {
    mode: 'gemini-embeddings',
    clientFormat: 'gemini',
    validate: validateGeminiEmbedding,
  },
  realtime: {
    // The model comes from the query (`?model=`, Azure's `deployment=`): see relay/realtime/.
    mode: 'realtime',
    clientFormat: 'openai',
    validate(body) {
      requireModel(body);
    },
  },
  responses: {
    mode: 'responses',
    clientFormat: 'openai',
    validate: validateResponses,
  },
  messages: {
    mode: 'messages',
    clientFormat: 'claude',
    validate(body) {
      requireModel(body, 'field model is required', 'invalid_request');
      checkClaudeBody(body);
      checkStream(body, 'invalid_request');
      checkTokenLimit(body, 'max_tokens', 'invalid_request');
    },
  },
  /** /v1/messages/count_tokens: a Messages body without sampling; answered without billing. */
  countClaudeTokens: {
    mode: 'messages',
    clientFormat: 'claude',
    validate(body) {
      requireModel(body, 'field model is required', 'invalid_request');
      checkClaudeBody(body);
    },
  },
} satisfies Record<string, EndpointSpec>;

/**
 * The model a request names, or the endpoint's default (for embeddings, the one in the
 * path); a 400 when neither gives a sane name (not a string, blank, too long, NUL), never
 * the distributor's 503 for a model no channel has.
 */
export function requestedModel(spec: EndpointSpec, body: Record<string, unknown>): string {
  const code = spec.clientFormat === 'claude' ? 'invalid_request' : 'invalid_text_request';
  const model = modelText(spec.pathModel ?? body.model, code) || modelText(spec.defaultModel, code);
  if (!model) throw invalid('model is required', code);
  return model;
}

/** A token limit the estimate may use: a whole number from 0 to 2^30, else 0. */
function tokenLimit(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= HALF_INT32 ? value : 0;
}

/**
 * The larger of max_tokens and max_completion_tokens, else the Responses API's
 * max_output_tokens or Gemini's generationConfig.maxOutputTokens (0 when none is set). Endpoints
 * that do not check them (embeddings, images) cannot make the estimate infinite either.
 */
export function maxTokensOf(body: Record<string, unknown>): number {
  const max = Math.max(tokenLimit(body.max_tokens), tokenLimit(body.max_completion_tokens));
  if (max > 0) return max;
  // The Responses API's and Gemini's own names for it.
  if (body.max_output_tokens !== undefined) return tokenLimit(body.max_output_tokens);
  const generation = body.generationConfig;
  return generation !== null && typeof generation === 'object' ? tokenLimit((generation as { maxOutputTokens?: unknown }).maxOutputTokens) : 0;
}
