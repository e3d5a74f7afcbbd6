/**
 * An upstream answer's body as the relay reads it: fed chunk by chunk by the pool's dispatch
 * handler, read once, either whole (`text()`) or as it arrives (`for await`).
 *
 * undici's `request()` wraps every answer in a Node Readable inside an AsyncResource, and its
 * `text()` goes through the web-stream consumer machinery; on a relay request that is several
 * objects, listeners and ticks per answer for bytes that are read exactly once, in order.
 * This queue is the little of it the relay needs: back-pressure (the upstream socket pauses
 * while HIGH_WATER bytes wait), an error that reaches the reader, and destroy() to stop early.
 *
 * The reader gets everything that arrived since its last step as one buffer. One socket read
 * often carries many HTTP chunks (an upstream that writes each SSE event on its own, read while
 * the relay was busy); handing them over one by one would cost a loop turn, a parse and a
 * client write each, for bytes that arrived together.
 */

/** Bytes queued before the upstream socket is paused (undici's Readable default is 64 KB). */
const HIGH_WATER = 64 * 1024;

interface Waiter {
  resolve(result: IteratorResult<Buffer>): void;
  reject(err: unknown): void;
}

export class UpstreamBody implements AsyncIterable<Buffer> {
  #chunks: Buffer[] = [];
  #queued = 0;
  #ended = false;
  #error: unknown = undefined;
  #waiter: Waiter | undefined;
  #paused = false;
  #destroyed = false;

  /**
   * @param resume continues reading the upstream socket after push() answered false
   * @param abort stops the upstream request (destroy() before the end)
   */
  constructor(
    private readonly resume: () => void,
    private readonly abort: (reason: Error) => void,
  ) {}

  get destroyed(): boolean {
    return this.#destroyed;
  }

  // Producer side (the dispatch handler).

  /** Queues a chunk; answers false when the reader is behind and the socket should pause. */
  push(chunk: Buffer): boolean {
    if (this.#destroyed) return true;
    this.#chunks.push(chunk);
    this.#queued += chunk.length;
    const waiter = this.#waiter;
    if (waiter) {
      // The reader wakes once the socket read that brought this chunk has been parsed whole
      // (microtasks run after it): every HTTP chunk of that read then goes to it in one piece.
      this.#waiter = undefined;
      queueMicrotask(() => this.#wake(waiter));
    }
    if (this.#queued < HIGH_WATER) return true;
    this.#paused = true;
    return false;
  }

  end(): void {
    this.#ended = true;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ value: undefined, done: true });
    }
  }

  fail(err: unknown): void {
    if (this.#ended || this.#destroyed) return;
    this.#error = err;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.reject(err);
    }
  }

  // Reader side.

  /** Everything queued, as one buffer (most reads bring one chunk; a burst becomes one piece). */
  #take(): Buffer {
    const chunks = this.#chunks;
    const taken = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#queued);
    this.#chunks = [];
    this.#queued = 0;
    if (this.#paused) {
      this.#paused = false;
      this.resume();
    }
    return taken;
  }

  #wake(waiter: Waiter): void {
    if (this.#chunks.length > 0) waiter.resolve({ value: this.#take(), done: false });
    else if (this.#error !== undefined) waiter.reject(this.#error);
    else waiter.resolve({ value: undefined, done: true }); // destroyed meanwhile
  }

  #next(): Promise<IteratorResult<Buffer>> {
    if (this.#chunks.length > 0) return Promise.resolve({ value: this.#take(), done: false });
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended || this.#destroyed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** Each step hands over everything that arrived since the previous one, in order, as one buffer. */
  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return {
      next: () => this.#next(),
      // `break` out of a for-await loop: the rest of the answer is not wanted.
      return: () => {
        this.destroy();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  /** The body as UTF-8 text: whole, or its first `limit` bytes (the rest is not read). */
  async text(limit = Infinity): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this) {
      chunks.push(size + chunk.length > limit ? chunk.subarray(0, limit - size) : chunk);
      size += chunk.length;
      if (size >= limit) break; // destroys the body: the upstream call is aborted
    }
    return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  }

  /** Stops reading: the upstream request is aborted unless it already ended. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#chunks = [];
    this.#queued = 0;
    if (!this.#ended && this.#error === undefined) this.abort(new Error('upstream body destroyed'));
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ value: undefined, done: true });
    }
  }
}
