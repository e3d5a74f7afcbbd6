/**
 * Counts the tokens of a streamed answer as it passes, for when the upstream reports no usage
 * (or the stream is cut): text is gathered up to COUNT_EVERY characters, counted, and
 * dropped, so memory stays bounded however long the answer is and no chunk is kept. Counting
 * happens at most once per COUNT_EVERY characters, and not at all when usage arrives.
 */
import { countText } from './token-count';

const COUNT_EVERY = 16 * 1024;

export class CompletionCounter {
  #pending: string[] = [];
  #pendingLength = 0;
  #counted = 0;

  constructor(private readonly model: string) {}

  add(text: string | undefined): void {
    if (!text) return;
    this.#pending.push(text);
    this.#pendingLength += text.length;
    if (this.#pendingLength >= COUNT_EVERY) this.#countPending();
  }

  /** Tokens of everything added so far. */
  total(): number {
    this.#countPending();
    return this.#counted;
  }

  #countPending(): void {
    if (this.#pendingLength === 0) return;
    this.#counted += countText(this.#pending.join(''), this.model);
    this.#pending = [];
    this.#pendingLength = 0;
  }
}
