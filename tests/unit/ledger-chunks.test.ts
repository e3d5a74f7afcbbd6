import { describe, expect, it } from 'vitest';
import { idLists, insertChunks } from '../../src/server/relay/billing/ledger-sql';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('ledger statement lengths', () => {
  it('splits inserts into power-of-two chunks, every row once and in order', () => {
    expect(insertChunks(range(137)).map((c) => c.length)).toEqual([128, 8, 1]);
    expect(insertChunks(range(600)).map((c) => c.length)).toEqual([256, 256, 64, 16, 8]);
    expect(insertChunks([])).toEqual([]);
    for (const n of [1, 3, 255, 256, 257, 1000]) expect(insertChunks(range(n)).flat()).toEqual(range(n));
  });

  it('uses at most nine statement lengths whatever the batch sizes', () => {
    const lengths = new Set<number>();
    for (let n = 1; n <= 1000; n++) for (const c of insertChunks(range(n))) lengths.add(c.length);
    for (let n = 1; n <= 1000; n++) for (const c of idLists(range(n))) lengths.add(c.length);
    expect([...lengths].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
  });

  it('pads id lists with their last id only, so the set of ids is unchanged', () => {
    const lists = idLists(range(300));
    expect(lists.map((l) => l.length)).toEqual([256, 64]);
    expect(lists[1]!.slice(44)).toEqual(Array(20).fill(300));
    expect(new Set(lists.flat())).toEqual(new Set(range(300)));
  });
});
