/**
 * The sensitive-word check of prompts (docs/relay.md#sensitive-words). On when both
 * CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled are; the dictionary is
 * SensitiveWords, one word per line, matched case-insensitively as plain substrings.
 * The matcher is built once and rebuilt lazily after the option changes (on this node or,
 * through the options sync, on another), so the hot path never parses the option.
 *
 * Only prompts are checked, never the model output (StopOnSensitiveEnabled has no effect,
 * as in the reference). The matched word goes to the server log only: telling the caller
 * which word hit would help them get around the list.
 */
import type { AppContext } from '../../context';
import { refuse } from '../../relay/errors';
import type { RelayMode } from '../../relay/providers/types';
import { AhoCorasick } from './aho-corasick';

export const SENSITIVE_WORDS_DETECTED = 'sensitive words detected';

/** The error code per mode, as the reference answers it (images and speech have their own). */
const CODE_BY_MODE: Partial<Record<RelayMode, string>> = {
  chat: 'sensitive_words_detected',
  completions: 'sensitive_words_detected',
  moderations: 'sensitive_words_detected',
  gemini: 'sensitive_words_detected',
  images: 'invalid_image_request',
  speech: 'invalid_audio_request',
  // Ours: the Responses API is a chat prompt in another shape; leaving it out would let any
  // prompt around the check.
  responses: 'sensitive_words_detected',
};

/** Where a server log line goes (Fastify's request.log fits). */
export interface WarnLogger {
  warn(details: object, message: string): void;
}

export class SensitiveWordFilter {
  #matcher: AhoCorasick | undefined;

  constructor(private readonly options: AppContext['options']) {
    options.on('change', (key) => {
      if (key === 'SensitiveWords') this.#matcher = undefined;
    });
  }

  /** Whether prompts are checked now. */
  get enabled(): boolean {
    return this.options.bool('CheckSensitiveEnabled') && this.options.bool('CheckSensitiveOnPromptEnabled');
  }

  #dictionary(): AhoCorasick {
    this.#matcher ??= new AhoCorasick(this.options.lines('SensitiveWords').map((w) => w.toLowerCase()));
    return this.#matcher;
  }

  /** The first dictionary word contained in one of the texts (any case), or undefined. */
  find(texts: Iterable<string>): string | undefined {
    const matcher = this.#dictionary();
    if (matcher.empty) return undefined;
    for (const text of texts) {
      const hit = matcher.find(text.toLowerCase());
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}

const filters = new WeakMap<AppContext['options'], SensitiveWordFilter>();

/** The filter of one app (one per options store, so test servers in one process stay apart). */
export function sensitiveWordFilter(ctx: Pick<AppContext, 'options'>): SensitiveWordFilter {
  let filter = filters.get(ctx.options);
  if (!filter) {
    filter = new SensitiveWordFilter(ctx.options);
    filters.set(ctx.options, filter);
  }
  return filter;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** Text parts of one chat message's content; images, audio and files are skipped. */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const p = part as { type?: unknown; text?: unknown } | null;
    return p && p.type === 'text' && typeof p.text === 'string' ? [p.text] : [];
  });
}

/** Text parts of Gemini's systemInstruction and contents. */
function geminiTexts(body: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const take = (content: unknown) => {
    const parts = (content as { parts?: unknown } | null)?.parts;
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      const text = (part as { text?: unknown } | null)?.text;
      if (typeof text === 'string') texts.push(text);
    }
  };
  if (typeof body.systemInstruction === 'string') texts.push(body.systemInstruction);
  else take(body.systemInstruction);
  if (Array.isArray(body.contents)) for (const content of body.contents) take(content);
  return texts;
}

/** A Responses request's prompt: its instructions and the text parts of its message items. */
function responsesTexts(body: Record<string, unknown>): string[] {
  const texts = strings(body.instructions);
  if (typeof body.input === 'string') texts.push(body.input);
  else if (Array.isArray(body.input)) {
    for (const item of body.input as unknown[]) {
      const content = (item as { content?: unknown } | null)?.content;
      if (typeof content === 'string') texts.push(content);
      else if (Array.isArray(content)) {
        for (const part of content as unknown[]) {
          const p = part as { type?: unknown; text?: unknown } | null;
          if (p && p.type === 'input_text' && typeof p.text === 'string') texts.push(p.text);
        }
      }
    }
  }
  return texts;
}

/**
 * The prompt texts the reference checks for a mode: chat messages (every text part),
 * completions `prompt`, moderations `input`, image `prompt`, speech `input`; and (Ours)
 * Gemini's contents and the instructions and input texts of the Responses API. Other modes
 * (embeddings, rerank, /v1/messages, audio uploads) are not checked.
 */
export function promptTexts(mode: RelayMode, body: Record<string, unknown>): string[] {
  switch (mode) {
    case 'chat':
      return Array.isArray(body.messages) ? body.messages.flatMap((m: unknown) => contentTexts((m as { content?: unknown } | null)?.content)) : [];
    case 'completions':
    case 'images':
      return strings(body.prompt);
    case 'moderations':
    case 'speech':
      return strings(body.input);
    case 'gemini':
      // Gemini's generateContent is the same prompt as chat's: checking it keeps the filter
      // from being stepped around through /v1beta.
      return geminiTexts(body);
    case 'responses':
      return responsesTexts(body);
    default:
      return [];
  }
}

/**
 * The relay hook: throws the reference's local 400 (`sensitive words detected`) when the
 * check is on and the request's prompt contains a dictionary word; does nothing otherwise.
 */
export function checkPromptSensitiveWords(ctx: Pick<AppContext, 'options'>, mode: RelayMode, body: Record<string, unknown>, log?: WarnLogger): void {
  const code = CODE_BY_MODE[mode];
  const filter = sensitiveWordFilter(ctx);
  if (code === undefined || !filter.enabled) return;
  const word = filter.find(promptTexts(mode, body));
  if (word === undefined) return;
  log?.warn({ sensitiveWord: word, mode }, 'prompt refused: sensitive word');
  throw refuse(400, SENSITIVE_WORDS_DETECTED, code);
}
