/**
 * Counts a streamed answer's tokens for when the upstream reports no usage (or the stream is
 * cut before it does). Nothing is tokenized while the answer streams — most streams end with
 * the upstream's own usage, and then counting would be wasted CPU — and memory stays bounded
 * whatever the answer's length: only the answer's length in characters is followed, and its
 * first SAMPLE_CHARS characters are kept. At the end the sample is counted with the offline
 * tokenizer: exactly for answers up to SAMPLE_CHARS (about a thousand tokens), and scaled by
 * length beyond that.
 */
import { countText } from './token-count';

export const SAMPLE_CHARS = 4096;

export class CompletionCounter {
  #sample: string[] = [];
  #sampleChars = 0;
  #totalChars = 0;
  #counted: number | undefined;

  constructor(private readonly model: string) {}

  add(text: string | undefined): void {
    if (!text) return;
    this.#totalChars += text.length;
    this.#counted = undefined;
    if (this.#sampleChars >= SAMPLE_CHARS) return;
    const part = text.length <= SAMPLE_CHARS - this.#sampleChars ? text : text.slice(0, SAMPLE_CHARS - this.#sampleChars);
    this.#sample.push(part);
    this.#sampleChars += part.length;
  }

  /** Tokens of everything added so far. */
  total(): number {
    if (this.#counted !== undefined) return this.#counted;
    if (this.#totalChars === 0) return (this.#counted = 0);
    const sampled = countText(this.#sample.join(''), this.model);
    this.#counted = this.#sampleChars >= this.#totalChars ? sampled : Math.ceil((sampled * this.#totalChars) / this.#sampleChars);
    return this.#counted;
  }
}
