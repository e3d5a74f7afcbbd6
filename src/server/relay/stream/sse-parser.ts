/**
 * Incremental server-sent-events parser over upstream byte chunks (reference §5.2). It keeps
 * only the current unfinished line, never the stream: complete lines are decoded straight
 * from the chunk they arrived in. LF, CRLF and lone CR end lines (also when a CRLF is split
 * between chunks); a UTF-8 character split between chunks is joined before decoding.
 */
import type { SseEvent } from '../providers/types';

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
}

const LF = 0x0a;
const CR = 0x0d;

export class SseParser {
  private readonly decoder = new TextDecoder();
  private readonly maxLineBytes: number;
  private readonly dataLinePerEvent: boolean;
  /** Bytes of the unfinished line, in arrival order. */
  private partial: Uint8Array[] = [];
  private partialBytes = 0;
  /** The previous chunk ended with CR: an LF starting the next one belongs to it. */
  private skipLeadingLf = false;
  private firstLine = true;
  private eventName: string | undefined;
  private data: string[] = [];

  constructor(options: SseParserOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_SSE_LINE_BYTES;
    this.dataLinePerEvent = options.dataLinePerEvent ?? false;
  }

  /** Feeds one chunk; returns the events it completed. Throws `SseLineTooLongError`. */
  push(chunk: Uint8Array): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    if (this.skipLeadingLf && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      this.skipLeadingLf = false;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.line(this.takeLine(chunk, start, i), events);
      if (byte === CR) {
        if (i + 1 < chunk.length) {
          if (chunk[i + 1] === LF) i += 1;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return events;
  }

  /** Ends the stream: a last line without its newline, and an event without its blank line, still count. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.partialBytes > 0) this.line(this.takeLine(new Uint8Array(0), 0, 0), events);
    this.dispatch(events);
    return events;
  }

  private keep(bytes: Uint8Array): void {
    this.partialBytes += bytes.length;
    if (this.partialBytes > this.maxLineBytes) throw new SseLineTooLongError(this.maxLineBytes);
    // The chunk buffer may be reused by the caller: keep a copy of the unfinished tail only.
    this.partial.push(bytes.slice());
  }

  private takeLine(chunk: Uint8Array, start: number, end: number): string {
    const length = this.partialBytes + (end - start);
    if (length > this.maxLineBytes) throw new SseLineTooLongError(this.maxLineBytes);
    let text: string;
    if (this.partial.length === 0) {
      text = this.decoder.decode(chunk.subarray(start, end));
    } else {
      const bytes = new Uint8Array(length);
      let offset = 0;
      for (const part of this.partial) {
        bytes.set(part, offset);
        offset += part.length;
      }
      bytes.set(chunk.subarray(start, end), offset);
      text = this.decoder.decode(bytes);
      this.partial = [];
      this.partialBytes = 0;
    }
    if (this.firstLine) {
      this.firstLine = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
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
      this.data.push(value);
      if (this.dataLinePerEvent) this.dispatch(events);
    } else if (field === 'event') {
      this.eventName = value;
    }
    // `id` and `retry` mean nothing for a relayed answer.
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data.length > 0) {
      const data = this.data.length === 1 ? this.data[0] : this.data.join('\n');
      events.push(this.eventName ? { event: this.eventName, data } : { data });
    }
    this.data = [];
    this.eventName = undefined;
  }
}
