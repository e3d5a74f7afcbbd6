/**
 * Incremental server-sent-events parser over upstream byte chunks (docs/relay.md#streaming). Each
 * chunk is decoded once (a UTF-8 character split between chunks is joined by the streaming
 * decoder) and cut into lines with indexOf; only the current unfinished line is kept, never
 * the stream. LF, CRLF and lone CR end lines (also when a CRLF is split between chunks).
 *
 * `lastChunkWasPlainEvents` tells the relay when a chunk was nothing but whole
 * `data: …\n\n` events, exactly as it would write them itself: then it may send the chunk's
 * own bytes on instead of formatting the events again.
 */
import { PLAIN_EVENT_OVERHEAD, type SseEvent } from '../providers/types';

/** The reference's maximum line length: longer lines abort the stream. */
export const MAX_SSE_LINE_BYTES = 10 * 1024 * 1024;

export class SseLineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`SSE line longer than ${limit} bytes`);
    this.name = 'SseLineTooLongError';
  }
}

export interface SseParserOptions {
  maxLineBytes?: number;
  /**
   * Dispatch every `data:` line as its own event, as the reference's OpenAI-style scanner
   * does; tolerates upstreams that forget the blank line between events. Off: the SSE rule
   * (data lines joined with `\n`, dispatched on a blank line).
   */
  dataLinePerEvent?: boolean;
  /**
   * A field outside the SSE standard whose value is kept on the event as `extra` (Zhipu v3
   * sends its usage in a `meta:` line of the `finish` event). Off: such lines are dropped.
   */
  extraField?: string;
}

const LF = 0x0a;
const CR = 0x0d;

export class SseParser {
  private readonly decoder = new TextDecoder();
  private readonly maxLineBytes: number;
  private readonly dataLinePerEvent: boolean;
  private readonly extraField: string | undefined;
  private extra: string | undefined;
  /** Text of the unfinished line. */
  private partial = '';
  /** The previous chunk ended with CR: an LF starting the next one belongs to it. */
  private skipLeadingLf = false;
  private eventName: string | undefined;
  private readonly data: string[] = [];
  /** The previous chunk ended exactly after an event (its last byte an LF, nothing pending). */
  private atBoundary = true;
  private first = true;
  /** The streaming decoder may be holding the start of a character. */
  private decoderHolds = false;
  /** Whether the last `push` was only whole plain events (see the file comment). */
  lastChunkWasPlainEvents = false;

  constructor(options: SseParserOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_SSE_LINE_BYTES;
    this.dataLinePerEvent = options.dataLinePerEvent ?? false;
    this.extraField = options.extraField;
  }

  /**
   * Feeds one chunk; returns the events it completed. Throws `SseLineTooLongError`.
   * `onText` gets the chunk's decoded text first, and whether every event the chunk completes
   * begins in it (nothing was pending), so a caller can search it once instead of per event.
   */
  push(chunk: Uint8Array, onText?: (text: string, whole: boolean) => void): SseEvent[] {
    const events: SseEvent[] = [];
    const whole = this.atBoundary;
    const startedAtBoundary = whole && !(this.first && chunk[0] === 0xef);
    const text = this.decode(chunk);
    onText?.(text, whole);
    this.first = false;
    let start = 0;
    if (this.skipLeadingLf && text.length > 0) {
      if (text.charCodeAt(0) === LF) start = 1;
      this.skipLeadingLf = false;
    }
    const hasCr = text.indexOf('\r', start) !== -1;
    if (!hasCr) {
      for (let lf = text.indexOf('\n', start); lf !== -1; lf = text.indexOf('\n', start)) {
        // Nearly every line is `data: …` or the blank line after it: read straight from the
        // chunk's text, without cutting the line out first.
        if (this.partial === '' && (lf === start || text.startsWith('data: ', start))) {
          if (lf === start) this.dispatch(events);
          else this.dataValue(text.slice(start + 6, lf), events);
        } else {
          this.line(this.takeLine(text, start, lf), events);
        }
        start = lf + 1;
      }
    } else {
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== LF && c !== CR) continue;
        this.line(this.takeLine(text, start, i), events);
        if (c === CR) {
          if (i + 1 < text.length) {
            if (text.charCodeAt(i + 1) === LF) i += 1;
          } else {
            this.skipLeadingLf = true;
          }
        }
        start = i + 1;
      }
    }
    if (start < text.length) this.keep(text.slice(start));
    this.atBoundary = this.partial === '' && this.data.length === 0 && this.eventName === undefined && this.extra === undefined && chunk[chunk.length - 1] === LF;
    this.lastChunkWasPlainEvents = startedAtBoundary && this.atBoundary && !hasCr && events.length > 0 && text.length === plainLength(events);
    return events;
  }

  /**
   * A chunk that starts after a whole character and ends with an ASCII byte (nearly all of
   * them: events end with a newline) is decoded directly, which is cheaper than the streaming
   * decoder; a character split across chunks, or a BOM at the very start (the decoder drops
   * it), takes the decoder.
   */
  private decode(chunk: Uint8Array): string {
    const mayHaveBom = this.first && chunk[0] === 0xef;
    if (!this.decoderHolds && !mayHaveBom && chunk.length > 0 && chunk[chunk.length - 1]! < 0x80) {
      return Buffer.isBuffer(chunk) ? chunk.toString('utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('utf8');
    }
    const text = this.decoder.decode(chunk, { stream: true });
    // The decoder keeps the bytes of a character cut at the end until the next chunk.
    this.decoderHolds = chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80;
    return text;
  }

  /** Ends the stream: a last line without its newline, and an event without its blank line, still count. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = this.decoder.decode();
    if (rest) this.keep(rest);
    if (this.partial !== '') this.line(this.takeLine('', 0, 0), events);
    this.dispatch(events);
    this.lastChunkWasPlainEvents = false;
    return events;
  }

  /** Lines are limited in bytes; a string's UTF-8 length is at most three times its length. */
  private tooLong(text: string): boolean {
    return text.length * 3 > this.maxLineBytes && Buffer.byteLength(text) > this.maxLineBytes;
  }

  private keep(text: string): void {
    this.partial += text;
    if (this.tooLong(this.partial)) throw new SseLineTooLongError(this.maxLineBytes);
  }

  private takeLine(text: string, start: number, end: number): string {
    let line = text.slice(start, end);
    if (this.partial !== '') {
      line = this.partial + line;
      this.partial = '';
    }
    if (this.tooLong(line)) throw new SseLineTooLongError(this.maxLineBytes);
    return line;
  }

  private line(text: string, events: SseEvent[]): void {
    if (text === '') return this.dispatch(events);
    // Comments (": ping") are keep-alives.
    if (text.charCodeAt(0) === 0x3a) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') {
      this.dataValue(value, events);
    } else if (field === 'event') {
      this.eventName = value;
    } else if (field === this.extraField) {
      this.extra = value;
    }
    // `id` and `retry` mean nothing for a relayed answer.
  }

  private dataValue(value: string, events: SseEvent[]): void {
    if (this.tooLong(value)) throw new SseLineTooLongError(this.maxLineBytes);
    this.data.push(value);
    if (this.dataLinePerEvent) this.dispatch(events);
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data.length > 0 || this.extra !== undefined) {
      const data = this.data.length === 1 ? this.data[0]! : this.data.join('\n');
      const event: SseEvent = this.eventName ? { event: this.eventName, data } : { data };
      if (this.extra !== undefined) event.extra = this.extra;
      events.push(event);
      this.data.length = 0;
    }
    this.eventName = undefined;
    this.extra = undefined;
  }
}

/** The bytes of one plain event as the relay writes it (`data: …\n\n`). */
export function plainEventBytes(data: string): number {
  return PLAIN_EVENT_OVERHEAD + Buffer.byteLength(data);
}

/**
 * The length of the events written as `data: …\n\n` (named events count as not plain). Equal
 * to the chunk's length only when the chunk was exactly that: anything the parser drops (a
 * comment, a field, a second data line, an extra blank line, a missing space) makes it longer.
 */
function plainLength(events: readonly SseEvent[]): number {
  let length = 0;
  for (const e of events) {
    if (e.event !== undefined) return -1;
    length += PLAIN_EVENT_OVERHEAD + e.data.length;
  }
  return length;
}
