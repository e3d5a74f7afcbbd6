/**
 * Multi-pattern substring search (Aho–Corasick) over Unicode code points: one pass over the
 * text finds any of many words, however long the dictionary. Plain substring semantics, no
 * word boundaries, case as given (callers lower-case both sides when they want to ignore it).
 * Used for the sensitive-word check of prompts; generic enough for any keyword list
 * (e.g. AutomaticDisableKeywords against upstream error messages).
 */
export class AhoCorasick {
  /** Goto function: node → code point → node. Node 0 is the root. */
  readonly #next: Map<string, number>[] = [new Map()];
  readonly #fail: number[] = [0];
  /** A dictionary word ending at a node: its own, else the nearest one along its failure links. */
  readonly #match: (string | undefined)[] = [undefined];

  /** Empty words are ignored; duplicates are harmless. */
  constructor(words: Iterable<string>) {
    for (const word of words) if (word) this.#insert(word);
    this.#link();
  }

  /** Whether the dictionary is empty (then nothing ever matches). */
  get empty(): boolean {
    return this.#next[0]!.size === 0;
  }

  #insert(word: string): void {
    let node = 0;
    for (const ch of word) {
      let child = this.#next[node]!.get(ch);
      if (child === undefined) {
        child = this.#next.length;
        this.#next.push(new Map());
        this.#fail.push(0);
        this.#match.push(undefined);
        this.#next[node]!.set(ch, child);
      }
      node = child;
    }
    this.#match[node] ??= word;
  }

  /** Breadth-first: each node's failure link is the longest proper suffix that is also a prefix. */
  #link(): void {
    const queue: number[] = [...this.#next[0]!.values()];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i]!;
      for (const [ch, child] of this.#next[node]!) {
        let f = this.#fail[node]!;
        while (f !== 0 && !this.#next[f]!.has(ch)) f = this.#fail[f]!;
        const target = this.#next[f]!.get(ch);
        this.#fail[child] = target !== undefined && target !== child ? target : 0;
        this.#match[child] ??= this.#match[this.#fail[child]!];
        queue.push(child);
      }
    }
  }

  /** The first dictionary word found in `text` (the one ending earliest), or undefined. */
  find(text: string): string | undefined {
    if (this.empty) return undefined;
    let node = 0;
    for (const ch of text) {
      while (node !== 0 && !this.#next[node]!.has(ch)) node = this.#fail[node]!;
      node = this.#next[node]!.get(ch) ?? 0;
      const hit = this.#match[node];
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}
