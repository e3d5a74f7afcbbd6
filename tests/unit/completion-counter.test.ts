/** The local count of a streamed answer: exact for short answers, bounded memory for long ones. */
import { describe, expect, it } from 'vitest';
import { CompletionCounter, RAW_SAMPLE_CHARS } from '../../src/server/relay/pipeline/completion-counter';
import { countText } from '../../src/server/relay/pipeline/token-count';

const chunkOf = (text: string) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
const textOf = (raw: string) => (JSON.parse(raw) as { choices: { delta: { content: string } }[] }).choices[0]!.delta.content;

describe('completion counter', () => {
  it('counts text read by the steps and text left unread alike, exactly for a short answer', () => {
    const words = ['Hello', ' there,', ' how', ' are', ' you', ' today?'];
    const read = new CompletionCounter('gpt-4o');
    const unread = new CompletionCounter('gpt-4o', textOf);
    const mixed = new CompletionCounter('gpt-4o', textOf);
    words.forEach((w, n) => {
      // Chunks too big to hold on to are copied, small ones kept as cut: the count is the same.
      unread.nextChunk(n % 2 ? 100 : 10_000_000);
      read.add(w);
      unread.addRaw(chunkOf(w));
      if (n % 2) mixed.add(w);
      else mixed.addRaw(chunkOf(w));
    });
    const exact = countText(words.join(''), 'gpt-4o');
    expect(exact).toBeGreaterThan(0);
    expect(read.total()).toBe(exact);
    expect(unread.total()).toBe(exact);
    expect(mixed.total()).toBe(exact);
  });

  it('keeps at most RAW_SAMPLE_CHARS of unread data and estimates the rest from it', () => {
    const counter = new CompletionCounter('gpt-4o', textOf);
    const piece = 'lorem ipsum dolor sit amet ';
    const raw = chunkOf(piece);
    const chunks = Math.ceil((RAW_SAMPLE_CHARS * 10) / raw.length);
    for (let n = 0; n < chunks; n++) counter.addRaw(raw);
    const exact = countText(piece.repeat(chunks), 'gpt-4o');
    const total = counter.total();
    expect(Math.abs(total - exact) / exact).toBeLessThan(0.02);
    // Counted once; more text invalidates the count.
    expect(counter.total()).toBe(total);
    counter.add(' more words');
    expect(counter.total()).toBeGreaterThan(total);
  });

  it('keeps no unread data once read steps filled the text sample, and estimates it from them', () => {
    let reads = 0;
    const counter = new CompletionCounter('gpt-4o', (raw) => {
      reads++;
      return textOf(raw);
    });
    const piece = 'lorem ipsum dolor sit amet '.repeat(200);
    // The first chunk is read (the relay parses it), the rest pass on unread.
    counter.add(piece, chunkOf(piece).length);
    for (let n = 0; n < 19; n++) counter.addRaw(chunkOf(piece));
    const exact = countText(piece.repeat(20), 'gpt-4o');
    expect(Math.abs(counter.total() - exact) / exact).toBeLessThan(0.02);
    expect(reads).toBe(0);
  });

  it('counts nothing for an answer without text', () => {
    const counter = new CompletionCounter('gpt-4o', textOf);
    counter.addRaw(chunkOf(''));
    expect(counter.total()).toBe(0);
  });
});
