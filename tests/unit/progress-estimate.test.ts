/**
 * A running stream's progress is counted without loading an encoding when none is loaded
 * (CompletionCounter.estimate): about a token per four characters; the exact count once the
 * encoding is there anyway.
 */
import { expect, it } from 'vitest';
import { CompletionCounter } from '../../src/server/relay/pipeline/completion-counter';
import { tokenizerLoaded } from '../../src/server/relay/tokenizer';

it('estimates without loading the encoding, and counts once it is loaded', () => {
  const counter = new CompletionCounter('gpt-4o');
  counter.add('hello world, here we go');
  expect(tokenizerLoaded('gpt-4o')).toBe(false);
  expect(counter.estimate()).toBe(Math.ceil('hello world, here we go'.length / 4));
  expect(tokenizerLoaded('gpt-4o')).toBe(false);
  const exact = counter.total();
  expect(tokenizerLoaded('gpt-4o')).toBe(true);
  expect(counter.estimate()).toBe(exact);
});
