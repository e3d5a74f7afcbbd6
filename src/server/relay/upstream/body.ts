/**
 * An upstream answer's body as the relay reads it: fed chunk by chunk by the pool's dispatch
 * handler, read once, either whole (`text()`) or as it arrives (`for await`).
 *
 * undici's `request()` wraps every answer in a Node Readable inside an AsyncResource, and its
 * `text()` goes through the web-stream consumer machinery; on a relay request that is several
 * objects, listeners and ticks per answer for bytes that are read exactly once, in order.
 * This queue is the little of it the relay needs: back-pressure (the upstream socket pauses
 * while HIGH_WATER bytes wait), an error that reaches the reader, and destroy() to stop early.
 */

/** Bytes queued before the upstream socket is paused (undici's Readable default is 64 KB). */
const HIGH_WATER = 64 * 1024;

interface Waiter {
  resolve(result: IteratorResult<Buffer>): void;
  reject(err: unknown): void;
}

export class UpstreamBody implements AsyncIterable<Buffer> {
  readonly #chunks: Buffer[] = [];
  #head = 0;
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
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ value: chunk, done: false });
      return true;
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.length;
    if (this.#queued < HIGH_WATER) return true;
    this.#paused = true;
    return false;
  }

  end(): void {
    this.#ended = true;
    const waiter = this.#waiter;
    if (waiter && this.#head === this.#chunks.length) {
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

  #next(): Promise<IteratorResult<Buffer>> {
    if (this.#head < this.#chunks.length) {
      const chunk = this.#chunks[this.#head]!;
      this.#chunks[this.#head++] = undefined as unknown as Buffer;
      this.#queued -= chunk.length;
      if (this.#head === this.#chunks.length) {
        this.#chunks.length = 0;
        this.#head = 0;
      }
      if (this.#paused && this.#queued < HIGH_WATER) {
        this.#paused = false;
        this.resume();
      }
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended || this.#destroyed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

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
    this.#chunks.length = 0;
    this.#head = 0;
    this.#queued = 0;
    if (!this.#ended && this.#error === undefined) this.abort(new Error('upstream body destroyed'));
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ value: undefined, done: true });
    }
  }
}
