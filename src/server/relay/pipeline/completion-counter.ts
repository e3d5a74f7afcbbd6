/**
 * Counts a streamed answer's tokens for when the upstream reports no usage (or the stream is
 * cut before it does). Nothing is tokenized (nor, for chunks passed on unread, even parsed)
 * while the answer streams — most streams end with the upstream's own usage, and then
 * counting would be wasted CPU — and memory stays bounded
 * whatever the answer's length: only the answer's length in characters is followed, and its
 * first SAMPLE_CHARS characters are kept. At the end the sample is counted with the offline
 * tokenizer: exactly for answers up to SAMPLE_CHARS (about a thousand tokens), and scaled by
 * length beyond that.
 */
import { countText } from './token-count';
import { approxTokens, tokenizerLoaded } from '../tokenizer';

export const SAMPLE_CHARS = 4096;
/**
 * Upstream `data` kept unread (rawText steps) for a count that may never be needed: a short
 * answer whole (exact), a long one's start (scaled), about what SAMPLE_CHARS of text cost.
 */
export const RAW_SAMPLE_CHARS = 4096;
/**
 * A kept `data` string is a slice of its upstream chunk's text and keeps the whole chunk
 * alive: slices are kept while the chunks they hold add up to this, copies beyond.
 */
export const RAW_RETAIN_CHARS = 8192;

export class CompletionCounter {
  #sample: string[] = [];
  #sampleChars = 0;
  #totalChars = 0;
  #counted: number | undefined;
  #raw: (string | Buffer)[] = [];
  #rawKept = 0;
  #rawTotal = 0;
  /** Size of the chunk the next raw steps come from; whether its text is already held. */
  #chunkChars = 0;
  #chunkHeld = true;
  #retained = 0;
  /** Text of the steps that were read, and the length of the `data` it came from. */
  #parsedText = 0;
  #parsedRaw = 0;

  /** `textOf` reads the text of a rawText step (the stream converter's). */
  constructor(
    private readonly model: string,
    private readonly textOf?: (raw: string) => string,
  ) {}

  /**
   * A step passed on unread: its data is kept while the raw sample has room, else only its
   * length is; the unkept part's text is estimated from the kept part's text per raw char.
   */
  addRaw(raw: string): void {
    this.#rawTotal += raw.length;
    this.#counted = undefined;
    if (this.#rawKept >= RAW_SAMPLE_CHARS) return;
    // The text sample is full and read steps tell the text per raw char: nothing to keep (a
    // long answer's big chunks would otherwise stay referenced for the whole stream).
    if (this.#rawKept === 0 && this.#sampleChars >= SAMPLE_CHARS && this.#parsedRaw > 0) return;
    if (!this.#chunkHeld && this.#retained + this.#chunkChars <= RAW_RETAIN_CHARS) {
      this.#retained += this.#chunkChars;
      this.#chunkHeld = true;
    }
    this.#raw.push(this.#chunkHeld ? raw : Buffer.from(raw));
    this.#rawKept += raw.length;
  }

  /** The size of the upstream chunk (bytes: at least its text's length) the next raw steps come from. */
  nextChunk(chars: number): void {
    this.#chunkChars = chars;
    this.#chunkHeld = false;
  }

  #readRaw(): void {
    const unkept = this.#rawTotal - this.#rawKept;
    if (this.#rawKept > 0 && this.textOf) {
      let chars = 0;
      for (const raw of this.#raw) {
        const text = this.textOf(typeof raw === 'string' ? raw : raw.toString());
        chars += text.length;
        this.add(text);
      }
      if (unkept > 0) this.#totalChars += Math.round((chars * unkept) / this.#rawKept);
    } else if (unkept > 0 && this.#parsedRaw > 0) {
      this.#totalChars += Math.round((this.#parsedText * unkept) / this.#parsedRaw);
    }
    this.#raw = [];
    this.#rawKept = 0;
    this.#rawTotal = 0;
  }

  /** Text of a step that was read; `rawChars`: the length of the upstream `data` it came from. */
  add(text: string | undefined, rawChars = 0): void {
    if (rawChars > 0) {
      this.#parsedRaw += rawChars;
      this.#parsedText += text?.length ?? 0;
    }
    if (!text) return;
    this.#totalChars += text.length;
    this.#counted = undefined;
    if (this.#sampleChars >= SAMPLE_CHARS) return;
    const part = text.length <= SAMPLE_CHARS - this.#sampleChars ? text : text.slice(0, SAMPLE_CHARS - this.#sampleChars);
    this.#sample.push(part);
    this.#sampleChars += part.length;
  }

  /**
   * Tokens of everything added so far without loading an encoding: the count when the
   * model's encoding is loaded already, else about one per four characters.
   */
  estimate(): number {
    if (this.#counted !== undefined || tokenizerLoaded(this.model)) return this.total();
    this.#readRaw();
    return approxTokens(this.#totalChars);
  }

  /** Tokens of everything added so far. */
  total(): number {
    if (this.#counted !== undefined) return this.#counted;
    this.#readRaw();
    if (this.#totalChars === 0) return (this.#counted = 0);
    const sampled = countText(this.#sample.join(''), this.model);
    this.#counted = this.#sampleChars >= this.#totalChars ? sampled : Math.ceil((sampled * this.#totalChars) / this.#sampleChars);
    return this.#counted;
  }
}
