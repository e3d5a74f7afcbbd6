/**
 * Writes server-sent events to the client with back-pressure: when the socket's buffer is
 * full the writer waits for `drain` (the caller stops reading upstream meanwhile, so a slow
 * client slows the upstream down instead of filling our memory). Events of one step go out in
 * one write. A comment line (`: ping`) is sent after KEEP_ALIVE_MS without events, so proxies
 * do not drop a connection while the model thinks; it does not count as upstream activity.
 */
import type { ServerResponse } from 'node:http';
import type { SseEvent } from '../providers/types';

export const KEEP_ALIVE_MS = 15_000;

/** Headers of every event stream (docs/relay.md#streaming). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

export function formatEvents(events: readonly SseEvent[]): string {
  let out = '';
  for (const e of events) out += e.event ? `event: ${e.event}\ndata: ${e.data}\n\n` : `data: ${e.data}\n\n`;
  return out;
}

export class SseWriter {
  #closed = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    keepAliveMs = KEEP_ALIVE_MS,
  ) {
    res.once('close', () => {
      this.#closed = true;
      if (this.#keepAlive) clearInterval(this.#keepAlive);
    });
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => {
        // Only on silence: a busy or blocked socket needs no ping.
        if (!this.#closed && !this.res.writableNeedDrain) this.res.write(': ping\n\n');
      }, keepAliveMs);
      this.#keepAlive.unref();
    }
  }

  /** The client is gone (socket closed): nothing more can be delivered. */
  get closed(): boolean {
    return this.#closed || this.res.destroyed;
  }

  /**
   * Commits the stream (no retry from here on). The headers (a flat [name, value, …] list
   * that includes SSE_HEADERS) leave with the first events, in the same write: the writer is
   * opened only when there is something to send.
   */
  open(headers: (string | number)[]): void {
    this.res.writeHead(200, headers);
  }

  /** Writes events; resolves when they are handed to the socket (after a drain if needed). */
  async write(events: readonly SseEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.writeRaw(formatEvents(events));
  }

  /** Text, or bytes that already are whole events. */
  async writeRaw(text: string | Uint8Array): Promise<void> {
    if (this.closed) return;
    this.#keepAlive?.refresh();
    if (this.res.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Ends the response, with a last piece of text in the same write. Idempotent. */
  end(text?: string): void {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    if (!this.closed && !this.res.writableEnded) {
      if (text) this.res.end(text);
      else this.res.end();
    }
  }
}
