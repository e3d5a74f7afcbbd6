/**
 * The stream converter for OpenAI-shaped upstreams. The fast path sends the upstream `data`
 * string on untouched (no re-serialisation); a chunk is rewritten only when a channel setting
 * asks for it (`force_format`, `thinking_to_content`). The usage-only chunk the relay forces
 * upstream is hidden from clients that did not ask for `include_usage` (docs/relay.md#openai-request-adjustments), and
 * synthesised at the end for clients that asked when upstream sent none.
 */
import { PLAIN_EVENT_OVERHEAD, type SseEvent, type StreamConverter, type StreamStep, type Usage, type UpstreamError } from '../types';
import { type ChunkMeta, sseJson, usageChunk } from './chunks';
import { errorFromBody } from './errors';
import { arr, isRecord, type JsonObject, num, obj, parseJson, str } from './json';
import { choicesText } from './openai-text';
import { finalUsage } from './usage';
import { nowSeconds } from '../../../../shared/time';

export interface OpenAIStreamOptions {
  /** The client sent `stream_options.include_usage: true`. */
  includeUsage: boolean;
  /** Channel setting `force_format`: re-encode every chunk through the canonical shape. */
  forceFormat?: boolean;
  /** Channel setting `thinking_to_content`: reasoning goes into `content` inside `<think>` tags. */
  thinkingToContent?: boolean;
  /** The family's usage reader (most use `usageFromOpenAI`). */
  readUsage: (raw: unknown) => Usage | undefined;
  /** Model to name in a synthesised usage chunk when upstream sent no chunk at all. */
  model: string;
  /** `completions` streams are `text_completion` objects. */
  mode: 'chat' | 'completions';
}

const CHUNK_KEYS = ['id', 'object', 'created', 'model', 'system_fingerprint'] as const;
const DELTA_KEYS = ['role', 'content', 'reasoning_content', 'tool_calls', 'refusal', 'audio'] as const;

/** Keeps only the fields of OpenAI's chunk structure (`force_format`). */
function canonicalChunk(chunk: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of CHUNK_KEYS) if (chunk[key] !== undefined) out[key] = chunk[key];
  out.choices = arr(chunk.choices).map((raw) => {
    const choice = obj(raw);
    const delta: JsonObject = {};
    const source = obj(choice.delta);
    for (const key of DELTA_KEYS) if (source[key] !== undefined && source[key] !== null) delta[key] = source[key];
    if (typeof source.reasoning === 'string' && delta.reasoning_content === undefined) delta.reasoning_content = source.reasoning;
    const text = str(choice.text);
    return { index: num(choice.index), ...(text !== undefined ? { text } : { delta }), logprobs: choice.logprobs ?? null, finish_reason: choice.finish_reason ?? null };
  });
  if (chunk.usage !== undefined) out.usage = chunk.usage;
  return out;
}

function skipSpace(text: string, at: number): number {
  for (let c = text.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++at));
  return at;
}

/*
 * The keys are searched for by their tails (`usage"`, `rror"`) and the characters before are
 * checked after: V8's string search starts from the needle's first character, and a needle
 * that begins with `"`, JSON's most frequent character, stops at every quote (over the text of
 * a 22-event stream read: 2.1 µs for `"usage"`, 0.3 µs for `usage"`).
 */

/** Where the `"usage"` key with a non-null value begins in `data` at or after `from` (-1: nowhere). */
function usageAt(data: string, from: number): number {
  for (let at = data.indexOf('usage"', from + 1); at !== -1; at = data.indexOf('usage"', at + 6)) {
    if (data.charCodeAt(at - 1) !== 0x22) continue;
    const colon = skipSpace(data, at + 6);
    if (data.charCodeAt(colon) !== 0x3a) continue;
    if (!data.startsWith('null', skipSpace(data, colon + 1))) return at - 1;
  }
  return -1;
}

/** Where `"error"` begins in `text` at or after `from` (-1: nowhere). */
function errorAt(text: string, from: number): number {
  for (let at = text.indexOf('rror"', from + 2); at !== -1; at = text.indexOf('rror"', at + 5)) {
    if (text.charCodeAt(at - 1) === 0x65 && text.charCodeAt(at - 2) === 0x22) return at - 2;
  }
  return -1;
}

/**
 * Whether JSON text (one chunk's data, or a whole read's) has a `"usage"` key with a non-null
 * value. A quote inside a JSON string is escaped, so `"usage"` in generated text never
 * matches; a false match only costs a parse. OpenAI sends `"usage":null` in every chunk once
 * usage is asked for (the relay always asks), so the key alone tells nothing.
 */
export function carriesUsage(data: string): boolean {
  return usageAt(data, 0) !== -1;
}

/** Where the next marker (`"error"`, or usage with a value) begins in `text` at or after `from`; Infinity: none. */
function markerAt(text: string, from: number): number {
  const error = errorAt(text, from);
  const usage = usageAt(text, from);
  if (error === -1) return usage === -1 ? Infinity : usage;
  return usage === -1 ? error : Math.min(error, usage);
}

/** What the reused fast-path step holds between two upstream reads. */
const RELEASED: SseEvent = { data: '' };

export class OpenAIPassThroughStream implements StreamConverter {
  private readonly meta: ChunkMeta;
  private usage: Usage | undefined;
  private usageSentToClient = false;
  private thinking: 'none' | 'open' | 'closed' = 'none';
  /** Chunks are passed on unread unless they carry usage or an error (no chunk is rewritten). */
  private readonly unread: boolean;
  private sawChunk = false;
  /**
   * The first chunk's data, for a usage chunk made up at the end (it names id, model and
   * creation time): read only then, and kept only while the client may still need one.
   */
  private firstData: string | undefined;
  /** The events of the current upstream read carry no usage and no error (see onChunk). */
  private chunkClean = false;
  /** The current read's text while its events are handed over (see onPlainChunk). */
  private chunkText = '';
  /** Where the next marker of the current read begins in its text (Infinity: none left). */
  private nextMarker = Infinity;
  /** Where the next event begins in the current read's text when it is plain events; -1: unknown. */
  private eventAt = -1;
  /** The fast path's step, filled in again for every event it passes on (see StreamConverter.onEvent). */
  private readonly passStep: StreamStep & { out: [SseEvent] } = { out: [{ data: '' }], usage: undefined, rawText: '' };

  constructor(private readonly options: OpenAIStreamOptions) {
    this.meta = { id: '', created: nowSeconds(), model: options.model };
    this.unread = !options.forceFormat && !options.thinkingToContent;
  }

  onChunk(text: string, whole: boolean): void {
    // Two searches over the read's text instead of two per event (string searches: a Buffer
    // search with a string needle measured slower than decoding the read); an event begun in
    // an earlier read (`whole` false) may have its marker split across the two.
    this.nextMarker = whole ? markerAt(text, 0) : 0;
    this.chunkClean = whole && this.nextMarker === Infinity;
    this.chunkText = text;
    this.eventAt = -1;
  }

  /**
   * The read was plain events only: event k begins where the k events before it, written as
   * `data: …\n\n`, end. So the marker positions onChunk found say which events hold one, and
   * the others (all but the usage chunk, usually) are not searched again one by one.
   */
  onPlainChunk(): void {
    this.eventAt = 0;
  }

  /** Whether the next event of a plain read holds a marker (called for every event of it, in order). */
  private plainEventMarked(data: string): boolean {
    const end = this.eventAt + PLAIN_EVENT_OVERHEAD + data.length;
    this.eventAt = end;
    if (this.nextMarker >= end) return false;
    this.nextMarker = markerAt(this.chunkText, end);
    return true;
  }

  release(): void {
    this.chunkClean = false;
    this.chunkText = '';
    this.eventAt = -1;
    const step = this.passStep;
    step.out[0] = RELEASED;
    step.rawText = '';
    step.usage = undefined;
  }

  textOf(raw: string): string {
    return choicesText(parseJson(raw));
  }

  onEvent(event: SseEvent): StreamStep {
    const data = event.data;
    // Before anything else: a plain read's events are counted off in order, [DONE] included.
    const marked = this.chunkClean ? false : this.eventAt >= 0 ? this.plainEventMarked(data) : errorAt(data, 0) !== -1 || carriesUsage(data);
    if (data === '[DONE]') return { out: [], usage: this.usage };
    // The fast path: a chunk without usage or error goes on as it came, and its text is read
    // only if the stream ends without usage.
    if (this.unread && !marked) {
      if (!this.sawChunk) {
        this.sawChunk = true;
        if (this.options.includeUsage) this.firstData = data;
      }
      const step = this.passStep;
      step.out[0] = event.event === undefined ? event : { data };
      step.usage = this.usage;
      step.rawText = data;
      return step;
    }
    const chunk = parseJson(data);
    // Not JSON (a stray keep-alive or a proxy's text): pass it on rather than lose it.
    if (!isRecord(chunk)) return { out: [{ data }], usage: this.usage };
    if (isRecord(chunk.error)) return { out: [], usage: this.usage, error: this.streamError(chunk) };

    this.sawChunk = true;
    this.remember(chunk);
    const usage = chunk.usage !== undefined && chunk.usage !== null ? this.options.readUsage(chunk.usage) : undefined;
    if (usage) this.usage = usage;
    const text = choicesText(chunk);
    const choices = arr(chunk.choices);
    if (usage && choices.length === 0 && !this.options.includeUsage) return { out: [], usage: this.usage, text };
    if (usage && this.options.includeUsage) {
      this.usageSentToClient = true;
      this.firstData = undefined;
    }

    let rewritten: JsonObject | undefined;
    if (this.options.forceFormat) rewritten = canonicalChunk(chunk);
    if (this.options.thinkingToContent && this.movesThinking(choices)) rewritten = this.thinkingToContent(rewritten ?? chunk);
    // An unchanged plain event goes out as the same object: the relay may then send its bytes as they came.
    return { out: [rewritten ? sseJson(rewritten) : event.event === undefined ? event : { data }], usage: this.usage, text };
  }

  finish(fallbackUsage?: Usage | (() => Usage)): StreamStep {
    const out: SseEvent[] = [];
    if (this.thinking === 'open') {
      // Reasoning was never followed by content: close the tag so the text stays well-formed.
      out.push(
        sseJson({
          id: this.meta.id,
          object: 'chat.completion.chunk',
          created: this.meta.created,
          model: this.meta.model,
          choices: [{ index: 0, delta: { content: '\n</think>\n' }, finish_reason: null }],
        }),
      );
      this.thinking = 'closed';
    }
    const usage = finalUsage(this.usage, fallbackUsage);
    if (this.options.includeUsage && !this.usageSentToClient && usage) {
      // Named after the first chunk when no chunk was read (the fast path passed them all).
      if (!this.meta.id && this.firstData !== undefined) {
        const first = parseJson(this.firstData);
        if (isRecord(first)) this.remember(first);
      }
      const chunk = usageChunk(this.meta, usage);
      if (this.options.mode === 'completions') chunk.object = 'text_completion';
      out.push(sseJson(chunk));
      this.usageSentToClient = true;
    }
    return { out, usage };
  }

  private remember(chunk: JsonObject): void {
    if (typeof chunk.id === 'string' && chunk.id) this.meta.id = chunk.id;
    if (typeof chunk.created === 'number') this.meta.created = chunk.created;
    if (typeof chunk.model === 'string' && chunk.model) this.meta.model = chunk.model;
  }

  private streamError(chunk: JsonObject): UpstreamError {
    return errorFromBody(500, chunk);
  }

  private movesThinking(choices: unknown[]): boolean {
    return choices.some((raw) => {
      const delta = obj(obj(raw).delta);
      return Boolean(str(delta.reasoning_content) || str(delta.reasoning) || (this.thinking === 'open' && str(delta.content)));
    });
  }

  /** Reasoning deltas become content: `<think>\n` before the first, `\n</think>\n` before real content. */
  private thinkingToContent(chunk: JsonObject): JsonObject {
    const choices = arr(chunk.choices).map((raw) => {
      const choice = { ...obj(raw) };
      const delta = { ...obj(choice.delta) };
      const reasoning = str(delta.reasoning_content) || str(delta.reasoning) || '';
      delete delta.reasoning_content;
      delete delta.reasoning;
      const content = str(delta.content) ?? '';
      let merged = '';
      if (reasoning) {
        merged += (this.thinking === 'none' ? '<think>\n' : '') + reasoning;
        this.thinking = 'open';
      }
      if (content) {
        if (this.thinking === 'open') {
          merged += '\n</think>\n';
          this.thinking = 'closed';
        }
        merged += content;
      }
      delta.content = merged;
      choice.delta = delta;
      return choice;
    });
    return { ...chunk, choices };
  }
}
