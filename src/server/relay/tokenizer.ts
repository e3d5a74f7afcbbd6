/**
 * Offline token counting (docs/relay.md#token-counting) with gpt-tokenizer: o200k_base for the GPT-4o
 * generation and o-series, cl100k_base for everything else (other providers included: it is
 * an estimate used for reservations and for answers that report no usage).
 *
 * An encoding's tables take about a second to load, so each is loaded on first use (only the
 * encodings actually used).
 */
import { createRequire } from 'node:module';
import { CHANNEL_TYPE } from '../../shared/channel-types';
import { imageSizeFromBase64 } from './image-size';
import { parseDataUrl } from './providers/common/data-url';
import { arr, isRecord, obj, str } from './providers/common/json';

export type EncodingName = 'o200k_base' | 'cl100k_base';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const require = createRequire(import.meta.url);
const loaders: Record<EncodingName, () => Encoding> = {
  o200k_base: () => require('gpt-tokenizer/encoding/o200k_base') as Encoding,
  cl100k_base: () => require('gpt-tokenizer/encoding/cl100k_base') as Encoding,
};
const loaded = new Map<EncodingName, Encoding>();

/** User text may contain `<|endoftext|>`: it is counted as text, never rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export function encodingForModel(model: string): EncodingName {
  return /^(gpt-4o|chatgpt-4o|o1|o3|o4|gpt-4\.1|gpt-4\.5|gpt-5)/.test(model) ? 'o200k_base' : 'cl100k_base';
}

function encoding(name: EncodingName): Encoding {
  let found = loaded.get(name);
  if (!found) {
    found = loaders[name]();
    loaded.set(name, found);
  }
  return found;
}

/**
 * Whether counting for this model is free of the one-off load (progress records of running
 * streams count only then, so a server whose upstreams all report usage never loads one).
 */
export function tokenizerLoaded(model: string): boolean {
  return loaded.has(encodingForModel(model));
}

/**
 * About a token per four characters: an estimate for when loading an encoding is not worth
 * it (see tokenizerLoaded).
 */
export function approxTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export function countTokens(text: string, model: string): number {
  return text ? encoding(encodingForModel(model)).countTokens(text, AS_TEXT) : 0;
}

export interface ChatCountOptions {
  /** The request streams (env GET_MEDIA_TOKEN_NOT_STREAM only applies to non-stream requests). */
  stream?: boolean;
  /** Channel type: Gemini, Vertex and Claude images cost 3 × base. */
  channelType?: number;
  /** Env GET_MEDIA_TOKEN (default true): false = every image costs 3 × base. */
  getMediaToken?: boolean;
  /** Env GET_MEDIA_TOKEN_NOT_STREAM (default true): false = non-stream images cost 255. */
  getMediaTokenNotStream?: boolean;
}

const FLAT_IMAGE_CHANNELS: ReadonlySet<number> = new Set([CHANNEL_TYPE.anthropic, CHANNEL_TYPE.gemini, CHANNEL_TYPE.vertex]);
/** A remote or unreadable image is estimated as 1024×1024 (we never download to count). */
const UNKNOWN_IMAGE = { width: 1024, height: 1024 };

/** Image cost, first matching rule (docs/relay.md#token-counting). */
export function imageTokens(imageUrl: unknown, model: string, options: ChatCountOptions = {}): number {
  if (model.startsWith('glm-4v')) return 1047;
  const image = typeof imageUrl === 'string' ? { url: imageUrl } : obj(imageUrl);
  const detail = str(image.detail);
  if (detail === 'low') return 85;
  if (options.getMediaTokenNotStream === false && !options.stream) return 255;
  const [base, tile] = model.startsWith('gpt-4o-mini') ? [2833, 5667] : [85, 170];
  if (options.getMediaToken === false) return 3 * base;
  if (options.channelType !== undefined && FLAT_IMAGE_CHANNELS.has(options.channelType)) return 3 * base;
  const inline = parseDataUrl(str(image.url) ?? '');
  let { width, height } = (inline && imageSizeFromBase64(inline.data)) || UNKNOWN_IMAGE;
  let short = Math.min(width, height);
  let long = Math.max(width, height);
  if (short > 768) {
    long = Math.ceil((long * 768) / short);
    short = 768;
  }
  [width, height] = [short, long];
  return Math.ceil(width / 512) * Math.ceil(height / 512) * tile + base;
}

function contentTokens(content: unknown, model: string, options: ChatCountOptions): number {
  if (typeof content === 'string') return countTokens(content, model);
  let tokens = 0;
  for (const raw of arr(content)) {
    const part = obj(raw);
    if (part.type === 'text') tokens += countTokens(str(part.text) ?? '', model);
    else if (part.type === 'image_url') tokens += imageTokens(part.image_url, model, options);
    else if (part.type === 'input_audio') tokens += 100;
    else if (part.type === 'file') tokens += 5000;
  }
  return tokens;
}

/** 8 + name + description + parameters, for every tool (Ours: the reference counted only the last). */
function toolsTokens(tools: unknown, model: string): number {
  let tokens = 0;
  for (const raw of arr(tools)) {
    const fn = obj(obj(raw).function);
    tokens += 8 + countTokens(str(fn.name) ?? '', model) + countTokens(str(fn.description) ?? '', model);
    if (fn.parameters !== undefined) tokens += countTokens(JSON.stringify(fn.parameters), model);
  }
  return tokens;
}

/**
 * OpenAI chat prompt: per message 3 + role + (name: 1 + name) + content, 3 for the reply's
 * priming, plus tools. Tool calls in the history are counted too (they are prompt text).
 */
export function countChatPromptTokens(body: Record<string, unknown>, model: string, options: ChatCountOptions = {}): number {
  let tokens = 3;
  for (const raw of arr(body.messages)) {
    const message = obj(raw);
    tokens += 3 + countTokens(str(message.role) ?? '', model) + contentTokens(message.content, model, options);
    const name = str(message.name);
    if (name) tokens += 1 + countTokens(name, model);
    for (const call of arr(message.tool_calls)) {
      const fn = obj(obj(call).function);
      tokens += countTokens(str(fn.name) ?? '', model) + countTokens(str(fn.arguments) ?? '', model);
    }
  }
  return tokens + toolsTokens(body.tools, model);
}

/** Completions prompts and embeddings/moderations inputs: text, a list of texts, or token ids. */
export function countInputTokens(input: unknown, model: string): number {
  if (typeof input === 'string') return countTokens(input, model);
  if (Array.isArray(input)) {
    if (input.every((item) => typeof item === 'string')) return countTokens(input.join(''), model);
    // Pre-tokenised input: a list of ids, or a list of such lists.
    if (input.every((item) => typeof item === 'number')) return input.length;
    if (input.every(Array.isArray)) return input.reduce((sum: number, item: unknown[]) => sum + item.length, 0);
  }
  return input === undefined || input === null ? 0 : countTokens(JSON.stringify(input), model);
}

/** Rerank: the query and every document (documents may be strings or `{text}` objects). */
export function countRerankTokens(query: unknown, documents: unknown, model: string): number {
  let tokens = countTokens(str(query) ?? '', model);
  for (const doc of arr(documents)) tokens += countTokens(typeof doc === 'string' ? doc : (str(obj(doc).text) ?? JSON.stringify(doc)), model);
  return tokens;
}

/** TTS input: `tts*` models bill characters (code points), others tokens. */
export function countSpeechInput(input: string, model: string): number {
  return model.startsWith('tts') ? [...input].length : countTokens(input, model);
}

function claudeBlocksTokens(content: unknown, model: string): number {
  if (typeof content === 'string') return countTokens(content, model);
  let tokens = 0;
  for (const raw of arr(content)) {
    const block = obj(raw);
    switch (block.type) {
      case 'text':
        tokens += countTokens(str(block.text) ?? '', model);
        break;
      case 'thinking':
        tokens += countTokens(str(block.thinking) ?? '', model);
        break;
      case 'image':
        tokens += 1000;
        break;
      case 'tool_use':
        tokens += countTokens(str(block.name) ?? '', model) + countTokens(JSON.stringify(block.input ?? {}), model);
        break;
      case 'tool_result':
        tokens += countTokens(JSON.stringify(block.content ?? ''), model);
        break;
    }
  }
  return tokens;
}

/**
 * Claude-format prompt: per message role + blocks + 2, the system prompt, and per tool
 * name + description + schema + 3.
 */
export function countClaudePromptTokens(body: Record<string, unknown>, model: string): number {
  let tokens = 0;
  for (const raw of arr(body.messages)) {
    const message = obj(raw);
    tokens += countTokens(str(message.role) ?? '', model) + claudeBlocksTokens(message.content, model) + 2;
  }
  tokens += claudeBlocksTokens(body.system ?? '', model);
  for (const raw of arr(body.tools)) {
    const tool = obj(raw);
    tokens += countTokens(str(tool.name) ?? '', model) + countTokens(str(tool.description) ?? '', model) + 3;
    if (isRecord(tool.input_schema)) tokens += countTokens(JSON.stringify(tool.input_schema), model);
  }
  return tokens;
}
