/**
 * Gemini's `streamGenerateContent` without `alt=sse` answers one JSON array whose elements
 * arrive as they are generated (`[{…}` then `,\r\n{…}` … `]`), as Google does. The relay reads
 * SSE upstream either way and frames the client's events as that array instead.
 */
import type { SseEvent } from '../providers/types';

export interface StreamFraming {
  /** The response headers (instead of the event stream's). */
  readonly headers: Readonly<Record<string, string>>;
  /** The text of events to write (their `data` only). */
  format(events: readonly SseEvent[]): string;
  /** What ends the response. */
  close(): string;
}

export class JsonArrayFraming implements StreamFraming {
  readonly headers = { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };
  private started = false;

  format(events: readonly SseEvent[]): string {
    let out = '';
    for (const event of events) {
      out += (this.started ? ',\r\n' : '[') + event.data;
      this.started = true;
    }
    return out;
  }

  close(): string {
    return this.started ? ']' : '[]';
  }
}
