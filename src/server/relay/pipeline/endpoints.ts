/**
 * What each relay endpoint is: its mode, the client's format, where the model comes from
 * (with the distributor's defaults, gateway reference §1.2), and the request checks of the
 * handlers (§4.5, §5.1, §5.6, §6.7) with their words. Checks run before any channel is
 * chosen, so a bad request costs nothing and touches no upstream.
 */
import type { RelayMode } from '../providers/types';
import { refuse, RelayError } from '../errors';

export type ClientFormat = 'openai' | 'claude';

export interface EndpointSpec {
  mode: RelayMode;
  clientFormat: ClientFormat;
  /** multipart/form-data body (audio transcription and translation). */
  multipart?: boolean;
  /** Model when the body names none. */
  defaultModel?: string;
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

function checkMaxTokens(body: Record<string, unknown>): void {
  const max = body.max_tokens;
  if (typeof max === 'number' && (max > HALF_INT32 || max < 0)) throw invalid('max_tokens is invalid');
}

function requireModel(body: Record<string, unknown>): void {
  if (!nonEmpty(body.model)) throw invalid('model is required');
}

const IMAGE_SIZES_DALLE2 = new Set(['256x256', '512x512', '1024x1024']);
const IMAGE_SIZES_DALLE3 = new Set(['1024x1024', '1024x1792', '1792x1024']);

function validateImage(body: Record<string, unknown>): void {
  const bad = (message: string) => new RelayError(400, message, { code: 'invalid_image_request', local: true });
  if (!nonEmpty(body.prompt)) throw bad('prompt is required');
  const size = typeof body.size === 'string' ? body.size : '';
  if (size.includes('×')) throw bad('size an unexpected error occurred in the parameter, please use \'x\' instead of the multiplication sign \'×\'');
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
      if (!nonEmpty(body.messages)) throw invalid('field messages is required');
      checkMaxTokens(body);
    },
  },
  completions: {
    mode: 'completions',
    clientFormat: 'openai',
    validate(body) {
      requireModel(body);
      if (!nonEmpty(body.prompt)) throw invalid('field prompt is required');
      checkMaxTokens(body);
    },
  },
  embeddings: {
    mode: 'embeddings',
    clientFormat: 'openai',
    // The model may also come from the path (/v1/engines/:model/embeddings).
    validate(body) {
      if (!nonEmpty(body.input)) throw invalid('input is empty', 'invalid_embedding_request');
    },
  },
  moderations: {
    mode: 'moderations',
    clientFormat: 'openai',
    defaultModel: 'text-moderation-stable',
    validate(body) {
      if (!nonEmpty(body.input)) throw invalid('field input is required');
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
  messages: {
    mode: 'messages',
    clientFormat: 'claude',
    validate(body) {
      if (!nonEmpty(body.messages)) throw invalid('field messages is required', 'invalid_request');
      if (!nonEmpty(body.model)) throw invalid('field model is required', 'invalid_request');
    },
  },
} satisfies Record<string, EndpointSpec>;

/** The model a request names, or the endpoint's default. */
export function requestedModel(spec: EndpointSpec, body: Record<string, unknown>): string {
  const model = typeof body.model === 'string' ? body.model.trim() : '';
  return model || spec.defaultModel || '';
}

/** The larger of max_tokens and max_completion_tokens (0 when neither is set). */
export function maxTokensOf(body: Record<string, unknown>): number {
  const a = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  const b = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : 0;
  return Math.max(0, a, b);
}
