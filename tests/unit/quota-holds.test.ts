/** The memory side of reservations: what may be held, for how long a balance counts, and release. */
import { describe, expect, it } from 'vitest';
import { FRESH_MS, QuotaHolds } from '../../src/server/relay/billing/quota-holds';

function holds() {
  let now = 1_000_000;
  const h = new QuotaHolds(() => now);
  return { h, advance: (ms: number) => (now += ms) };
}

describe('quota holds', () => {
  it('holds nothing for a payer whose balance it has not read', () => {
    const { h } = holds();
    expect(h.tryHold('a', 1, 0, false, 10)).toBe(false);
  });

  it('holds up to half of a fresh balance, and the token must fit too when limited', () => {
    const { h } = holds();
    h.learnUser(1, 100);
    expect(h.tryHold('a', 1, 7, false, 30)).toBe(true);
    expect(h.tryHold('b', 1, 7, false, 20)).toBe(true);
    expect(h.tryHold('c', 1, 7, false, 1)).toBe(false);
    expect(h.heldOnUser(1)).toBe(50);
    h.release('a');
    expect(h.heldOnUser(1)).toBe(20);
    // A limited token with no figure, then with a small one.
    expect(h.tryHold('d', 1, 7, true, 10)).toBe(false);
    h.learnToken(7, 10);
    expect(h.tryHold('d', 1, 7, true, 10)).toBe(false);
    expect(h.tryHold('d', 1, 7, true, 5)).toBe(true);
    expect(h.heldOnToken(7)).toBe(5);
  });

  it('never holds on an empty balance, even for a free request', () => {
    const { h } = holds();
    h.learnUser(1, 0);
    expect(h.tryHold('a', 1, 0, false, 0)).toBe(false);
    h.learnUser(1, 1);
    expect(h.tryHold('a', 1, 0, false, 0)).toBe(false);
    h.learnUser(1, 2);
    expect(h.tryHold('a', 1, 0, false, 0)).toBe(true);
  });

  it('stops holding when the figure is older than FRESH_MS', () => {
    const { h, advance } = holds();
    h.learnUser(1, 1000);
    advance(FRESH_MS);
    expect(h.tryHold('a', 1, 0, false, 10)).toBe(true);
    advance(1);
    expect(h.tryHold('b', 1, 0, false, 10)).toBe(false);
  });

  it('grows a hold to a larger charge and leaves out the holds settling now', () => {
    const { h } = holds();
    h.learnUser(1, 1000);
    h.learnToken(3, 1000);
    expect(h.tryHold('a', 1, 3, true, 10)).toBe(true);
    expect(h.tryHold('b', 1, 3, true, 40)).toBe(true);
    h.grow('a', 100);
    h.grow('b', 5);
    expect(h.heldOnUser(1)).toBe(140);
    expect(h.heldOnToken(3)).toBe(140);
    expect(h.heldOnUser(1, new Set(['a']))).toBe(40);
    expect(h.heldOnToken(3, new Set(['a', 'b']))).toBe(0);
    expect(h.isHeld('a')).toBe(true);
    h.release('a');
    h.release('a');
    expect(h.isHeld('a')).toBe(false);
    expect(h.heldOnUser(1)).toBe(40);
  });

  it('prunes only the books nobody holds on and nobody read lately', () => {
    const { h, advance } = holds();
    h.learnUser(1, 1000);
    h.learnUser(2, 1000);
    expect(h.tryHold('a', 1, 0, false, 10)).toBe(true);
    advance(FRESH_MS + 1);
    h.prune();
    h.learnUser(2, 1000);
    expect(h.tryHold('b', 2, 0, false, 10)).toBe(true);
    expect(h.heldOnUser(1)).toBe(10);
  });
});
